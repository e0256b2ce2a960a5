/**
 * Claims × releases (`rtbench claims --across node@20,node@22,…`): the same
 * checks made once per release, side by side, and the claims whose word
 * changed from held to broken (or back) between neighbouring releases. Pure;
 * the commands that find where a claim flipped are made by the caller, who
 * knows the command line. A row holds whom its check compares, not a label:
 * report words it where it is shown (cells/claims.ts).
 */
import type { ClaimOutcome, ClaimWord } from '@rtbench/core/claims-schema';

/** One release's column of an --across matrix: the runs made with it and their outcomes. */
export interface AcrossColumn {
  /** The release as typed ("node@24"), and as it ran ("Node.js 24.11.0, V8 13.6"). */
  label: string;
  versionText?: string;
}

/**
 * Whom a row's check compares, without the release that varies across the
 * columns: its cases and parameters, and the sides' variants where the caller
 * names them without their release (a release matrix's runtime, "node").
 */
export interface MatrixRowSides {
  subject: { caseId: string; variantId?: string };
  other: { caseId: string; variantId?: string };
  params?: ClaimOutcome['params'];
}

/** A claim that changed its word between two neighbouring releases, and the commands that find where. */
export interface ClaimFlip {
  says: string;
  suite: string;
  sides: MatrixRowSides;
  from: { column: string; word: ClaimWord };
  to: { column: string; word: ClaimWord };
  bisect: string[];
}

export interface ClaimsMatrix {
  columns: AcrossColumn[];
  /** One row per claim check (its sentence, subject and parameters), a cell per column. */
  rows: { suite: string; says: string; sides: MatrixRowSides; cells: (ClaimOutcome | undefined)[] }[];
  flips: ClaimFlip[];
}

export interface MatrixColumn extends AcrossColumn {
  /** The column's outcomes, aligned: check i of every column is the same claim on the same case. */
  outcomes: readonly (ClaimOutcome | undefined)[];
}

/** A row's sides by default: its cases and parameters, no variant (each column is another release of it). */
function casesOf(o: ClaimOutcome): MatrixRowSides {
  return { subject: { caseId: o.subject.caseId }, other: { caseId: o.other.caseId }, ...(o.params ? { params: o.params } : {}) };
}

/** The matrix; `bisect(from, to, outcome)` gives the commands that find where a flipped claim changed; `sidesOf` says whom a row compares (default: its cases and parameters). */
export function claimsMatrix(columns: readonly MatrixColumn[], bisect: (from: MatrixColumn, to: MatrixColumn, outcome: ClaimOutcome) => string[], sidesOf: (o: ClaimOutcome) => MatrixRowSides = casesOf): ClaimsMatrix {
  const rowCount = Math.max(0, ...columns.map((c) => c.outcomes.length));
  const rows: ClaimsMatrix['rows'] = [];
  const flips: ClaimFlip[] = [];
  for (let i = 0; i < rowCount; i++) {
    const cells = columns.map((c) => c.outcomes[i]);
    const named = cells.find((c) => c !== undefined);
    if (!named) continue;
    const sides = sidesOf(named);
    rows.push({ suite: named.suite, says: named.says, sides, cells });
    // A flip: decided one way in a column, the other way in the next column that decided it.
    let last: { column: MatrixColumn; outcome: ClaimOutcome } | undefined;
    columns.forEach((column, k) => {
      const outcome = cells[k];
      if (!outcome || outcome.word === 'undecided') return;
      if (last && last.outcome.word !== outcome.word) {
        flips.push({ says: named.says, suite: named.suite, sides, from: { column: last.column.label, word: last.outcome.word }, to: { column: column.label, word: outcome.word }, bisect: bisect(last.column, column, outcome) });
      }
      last = { column, outcome };
    });
  }
  return { columns: columns.map(({ label, versionText }) => ({ label, ...(versionText ? { versionText } : {}) })), rows, flips };
}
