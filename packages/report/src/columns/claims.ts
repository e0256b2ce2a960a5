/** Claims as CSV: one row per check, its claim, its sides, what was claimed and what was measured. */
import type { ClaimsView } from '../views/claims-types.ts';
import { field, type CsvField, type CsvValue } from './fields.ts';

/** One check of a claims view, its sides in words (cells/claims.ts claimRows), and why the run stopped early, if it did. */
export interface ClaimRow {
  outcome: ClaimsView['outcomes'][number];
  sides: string;
  interrupted?: string;
}

const claim = (key: string, value: (row: ClaimRow) => CsvValue): CsvField<ClaimRow> => field(key, value);

export const CLAIM_FIELDS: readonly CsvField<ClaimRow>[] = [
  claim('suite', ({ outcome: o }) => o.suite),
  claim('claim', ({ outcome: o }) => o.says),
  claim('checked_on', (row) => row.sides),
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

