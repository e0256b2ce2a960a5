/**
 * Claims × releases (`rtbench claims --across node@20,node@22,…`): the same
 * checks made once per release, side by side, and the claims whose word
 * changed from held to broken (or back) between neighbouring releases. Pure;
 * the commands that find where a claim flipped are made by the caller, who
 * knows the command line.
 */
import type { ClaimOutcome, ClaimWord } from '@rtbench/core/claims-schema';

/** One release's column of an --across matrix: the runs made with it and their outcomes. */
export interface AcrossColumn {
  /** The release as typed ("node@24"), and as it ran ("Node.js 24.11.0, V8 13.6"). */
  label: string;
  versionText?: string;
}

/** A claim that changed its word between two neighbouring releases, and the commands that find where. */
export interface ClaimFlip {
  says: string;
  suite: string;
  row: string;
  from: { column: string; word: ClaimWord };
  to: { column: string; word: ClaimWord };
  bisect: string[];
}

export interface ClaimsMatrix {
  columns: AcrossColumn[];
  /** One row per claim check (its sentence, subject and parameters), a cell per column. */
  rows: { suite: string; says: string; row: string; cells: (ClaimOutcome | undefined)[] }[];
  flips: ClaimFlip[];
}

export interface MatrixColumn extends AcrossColumn {
  /** The column's outcomes, aligned: check i of every column is the same claim on the same case. */
  outcomes: readonly (ClaimOutcome | undefined)[];
}

/** A row's name: the claim's subject and other side, without the release that varies across the columns. */
function rowName(o: ClaimOutcome): string {
  const params = o.params && Object.keys(o.params).length ? ` [${Object.entries(o.params).map(([k, v]) => `${k}=${String(v)}`).join(', ')}]` : '';
  const cases = o.subject.caseId === o.other.caseId ? o.subject.caseId : `${o.subject.caseId} vs ${o.other.caseId}`;
  return `${cases.replace(/ \[[^\]]*\]$/, '')}${params}`;
}

/** The matrix; `bisect(from, to, outcome)` gives the commands that find where a flipped claim changed; `rowOf` names a row (default: its cases and parameters). */
export function claimsMatrix(columns: readonly MatrixColumn[], bisect: (from: MatrixColumn, to: MatrixColumn, outcome: ClaimOutcome) => string[], rowOf: (o: ClaimOutcome) => string = rowName): ClaimsMatrix {
  const rowCount = Math.max(0, ...columns.map((c) => c.outcomes.length));
  const rows: ClaimsMatrix['rows'] = [];
  const flips: ClaimFlip[] = [];
  for (let i = 0; i < rowCount; i++) {
    const cells = columns.map((c) => c.outcomes[i]);
    const named = cells.find((c) => c !== undefined);
    if (!named) continue;
    const row = rowOf(named);
    rows.push({ suite: named.suite, says: named.says, row, cells });
    // A flip: decided one way in a column, the other way in the next column that decided it.
    let last: { column: MatrixColumn; outcome: ClaimOutcome } | undefined;
    columns.forEach((column, k) => {
      const outcome = cells[k];
      if (!outcome || outcome.word === 'undecided') return;
      if (last && last.outcome.word !== outcome.word) {
        flips.push({ says: named.says, suite: named.suite, row, from: { column: last.column.label, word: last.outcome.word }, to: { column: column.label, word: outcome.word }, bisect: bisect(last.column, column, outcome) });
      }
      last = { column, outcome };
    });
  }
  return { columns: columns.map(({ label, versionText }) => ({ label, ...(versionText ? { versionText } : {}) })), rows, flips };
}
