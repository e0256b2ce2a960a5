/** Claims in bencher's metric format: one measure per check (their CSV: columns/claims.ts). */
import type { ClaimsView } from '../views/claims-types.ts';
import { claimedText, claimSides } from '../cells/claims.ts';

/** Bencher's format: per check, the cost ratio subject/other with its interval. */
export function claimsBmf(view: ClaimsView): Record<string, Record<string, { value: number; lower_value?: number; upper_value?: number }>> {
  const out: Record<string, Record<string, { value: number; lower_value?: number; upper_value?: number }>> = {};
  for (const o of view.outcomes) {
    if (o.ratio === undefined) continue;
    out[`${o.suite}: ${o.says} · ${claimSides(o)} · ${claimedText(o)}`] = { 'claim-ratio': { value: o.ratio, ...(o.interval ? { lower_value: o.interval[0], upper_value: o.interval[1] } : {}) } };
  }
  return out;
}
