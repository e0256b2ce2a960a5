/** The gate's wording of a case it could not judge (which cases: @rtbench/verdicts unjudgedCases). */
import type { Unjudged } from '@rtbench/verdicts';
import { printable } from '@rtbench/report';

/** One line per case the gate could not judge. */
export function unjudgedLine(u: Unjudged): string {
  return printable(`✗ "${u.caseId}" on ${u.candidate} could not be judged: it failed ` +
    `(${u.why.slice(0, 200)}); --fail-on-regression does not pass a case it could not judge`);
}
