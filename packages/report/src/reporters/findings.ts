/**
 * docs/measurements/findings.md: a claims run's folder as the project's findings page
 * (`rtbench report results/claims-<time> --format findings -o docs/measurements/findings.md`).
 * Any other view has no claims to state: the page says so.
 */
import { dirname } from 'node:path';
import { renderFindings } from './claims-findings.ts';
import { markdownCell, markdownCode } from '../text.ts';
import type { ArmInfo } from '../views/types.ts';
import { byKind, type Reporter } from './reporter.ts';

function noClaims(suite: string, arms: readonly ArmInfo[]): string {
  return `# Findings\n\n${markdownCell(suite)} on ${arms.map((a) => `${markdownCode(a.id)} (${markdownCell(a.versionText)})`).join(', ')} checked no claims: \`rtbench claims\` makes the runs a findings page is written from.\n`;
}

export const findingsReporter: Reporter = {
  format: 'findings',
  description: "a claims run as docs/measurements/findings.md: what the suites claim and what the run found, with when, where and how",
  extension: 'md',
  render: byKind({
    bench: (view) => noClaims(view.suite, view.variants),
    comparison: (view) => noClaims(view.suite, view.arms),
    history: (view) => `# Findings\n\nA history of ${view.runs.length} runs states no claims: \`rtbench claims\` makes the runs a findings page is written from.\n`,
    claims: (view) => {
      const file = view.runs[0]?.file;
      return `${renderFindings(view, file ? dirname(file) : '.')}\n`;
    },
  }),
};
