/** Claims as CSV: one row per check, its claim, its sides, what was claimed and what was measured. */
import type { ClaimsView } from '../views/claims-types.ts';
import { claimedText, claimSides } from '../cells/claims.ts';
import { field, type CsvField, type CsvValue } from './fields.ts';

/** One check of a claims view, and why the run stopped early, if it did. */
interface ClaimRow {
  outcome: ClaimsView['outcomes'][number];
  interrupted?: string;
}

const claim = (key: string, value: (row: ClaimRow) => CsvValue): CsvField<ClaimRow> => field(key, value);

export const CLAIM_FIELDS: readonly CsvField<ClaimRow>[] = [
  claim('suite', ({ outcome: o }) => o.suite),
  claim('claim', ({ outcome: o }) => o.says),
  claim('checked_on', ({ outcome: o }) => claimSides(o)),
  claim('subject_case', ({ outcome: o }) => o.subject.caseId),
  claim('subject_variant', ({ outcome: o }) => o.subject.variantId),
  claim('other_case', ({ outcome: o }) => o.other.caseId),
  claim('other_variant', ({ outcome: o }) => o.other.variantId),
  claim('expect', ({ outcome: o }) => o.expect.kind),
  claim('size', ({ outcome: o }) => (o.expect.kind === 'faster' || o.expect.kind === 'slower' || o.expect.kind === 'at-most' ? o.expect.factor : o.expect.kind === 'within' ? o.expect.fraction : o.expect.kind === 'below' ? o.expect.bytes : o.expect.kind === 'cpu-below' ? o.expect.ms : o.threshold)),
  claim('word', ({ outcome: o }) => o.word),
  claim('ratio', ({ outcome: o }) => o.ratio),
  claim('ci_low', ({ outcome: o }) => o.interval?.[0]),
  claim('ci_high', ({ outcome: o }) => o.interval?.[1]),
  claim('units', ({ outcome: o }) => o.units),
  // Said on every row of an interrupted run: a CSV has no place under its table.
  claim('note', ({ outcome: o, interrupted }) => [o.note, interrupted].filter((x) => x !== undefined).join('; ') || undefined),
];

export function claimRows(view: ClaimsView): ClaimRow[] {
  return view.outcomes.map((outcome) => ({ outcome, ...(view.interrupted !== undefined ? { interrupted: view.interrupted } : {}) }));
}
