/**
 * The stopping rule's input: how precise each variant of a case is so far.
 * For a candidate, the half-width of its paired ratio's CI against the
 * baseline (relative; stats' pairedStopping, the interval the table shows);
 * for the baseline and a lone variant, its own median's CI. Undefined: the
 * interval cannot reach 95% yet.
 */
import type { CaseResult } from '@rtbench/core/schema';
import { pairedStopping, pairRounds, summarizeArm } from '@rtbench/stats';
import { pairable } from '@rtbench/measurer-records';

const STOPPING_CONFIDENCE = 0.95;

export function casePrecision(baseline: CaseResult | undefined, results: ReadonlyMap<string, CaseResult>): Map<string, number | undefined> {
  const out = new Map<string, number | undefined>();
  for (const [id, result] of results) {
    if (result.status !== 'ok' || !result.rounds.length) continue;
    if (result === baseline || !baseline || baseline.status !== 'ok') {
      const halfWidth = summarizeArm(result.rounds.map(pairable)).ciHalfWidthRel;
      out.set(id, halfWidth !== undefined && Number.isFinite(halfWidth) ? halfWidth : undefined);
      continue;
    }
    const pairs = pairRounds(baseline.rounds.map(pairable), result.rounds.map(pairable));
    if (!pairs.rounds.length || ![...pairs.baseline, ...pairs.candidate].every((x) => x > 0)) {
      out.set(id, undefined);
      continue;
    }
    const decision = pairedStopping(pairs.baseline, pairs.candidate, { confidence: STOPPING_CONFIDENCE, ...(pairs.units ? { units: pairs.units } : {}) });
    out.set(id, Number.isFinite(decision.halfWidth) ? decision.halfWidth : undefined);
  }
  return out;
}
