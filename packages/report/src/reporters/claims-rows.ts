/** Claims as rows for csv (one row per check) and as bencher's metric format (one measure per check). */
import type { ClaimsView } from '../views/claims-types.ts';
import { claimedText, claimSides } from '../cells/claims.ts';

export const CLAIM_COLUMNS = ['suite', 'claim', 'checked_on', 'subject_case', 'subject_variant', 'other_case', 'other_variant', 'expect', 'size', 'word', 'ratio', 'ci_low', 'ci_high', 'units', 'note'] as const;

export function claimRows(view: ClaimsView): (string | number | undefined)[][] {
  return view.outcomes.map((o) => [
    o.suite,
    o.says,
    claimSides(o),
    o.subject.caseId,
    o.subject.variantId,
    o.other.caseId,
    o.other.variantId,
    o.expect.kind,
    o.expect.kind === 'faster' || o.expect.kind === 'slower' ? o.expect.factor : o.expect.kind === 'within' ? o.expect.fraction : o.threshold,
    o.word,
    o.ratio,
    o.interval?.[0],
    o.interval?.[1],
    o.units,
    // The note column says it on every row of an interrupted run: a CSV has no place under its table.
    [o.note, view.interrupted].filter((x) => x !== undefined).join('; ') || undefined,
  ]);
}

/** Bencher's format: per check, the cost ratio subject/other with its interval. */
export function claimsBmf(view: ClaimsView): Record<string, Record<string, { value: number; lower_value?: number; upper_value?: number }>> {
  const out: Record<string, Record<string, { value: number; lower_value?: number; upper_value?: number }>> = {};
  for (const o of view.outcomes) {
    if (o.ratio === undefined) continue;
    out[`${o.suite}: ${o.says} · ${claimSides(o)} · ${claimedText(o)}`] = { 'claim-ratio': { value: o.ratio, ...(o.interval ? { lower_value: o.interval[0], upper_value: o.interval[1] } : {}) } };
  }
  return out;
}
