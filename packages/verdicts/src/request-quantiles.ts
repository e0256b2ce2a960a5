/**
 * Paired comparisons of quantiles of CPU per request: for a request case,
 * a candidate against the baseline on p50 and p99. A round of a request
 * case is one fresh process per variant, run back to back, so round i of
 * the two arms is a process pair; each process gives its own quantile of
 * its warm requests (those after its first), and the ratio is read from
 * the mean of the pairs' log ratios (stats' comparePaired: Student t over
 * process pairs, never over requests, which share their process). A view
 * puts these beside its other comparisons, through the same false-discovery
 * step (ratios.ts adjustAll).
 */
import { steadyStart } from '@rtbench/core/cpu-per-request';
import type { CaseResult } from '@rtbench/core/schema';
import { comparePaired, median, pairRounds, quantile } from '@rtbench/stats';
import { requestsOf } from '@rtbench/measurer-records/readers';
import type { ArmStat, PairedCase, RatioOptions } from './ratios.ts';

/** The quantiles a comparison decides on (a p99.9 of a few hundred requests per process is its maximum). */
const COMPARED_QUANTILES = [
  { name: 'p50', q: 0.5 },
  { name: 'p99', q: 0.99 },
] as const;
export type ComparedQuantile = (typeof COMPARED_QUANTILES)[number]['name'];

export const QUANTILE_METHOD = 'p50, p99: per process the quantile of its requests after its first, per process pair their log ratio, a Student t interval over process pairs';

/** Whether a case's result is of a request case (its rounds carry requests). */
export function isRequestResult(result: CaseResult | undefined): result is CaseResult {
  return result !== undefined && result.rounds.some((r) => requestsOf(r));
}

/** Each round reduced to its quantile of its warm requests, as a one-sample round; rounds of fewer than two requests are left out. */
export function quantileRounds(result: CaseResult, q: number): { round: number; samples: number[]; turns: undefined }[] {
  return result.rounds.flatMap((r) => (r.samples.length > 1 ? [{ round: r.round, samples: [quantile(ascending(steadySamples(r)), q)], turns: undefined }] : []));
}

/** Sorted as numbers by a typed array's own sort: a comparator called per pair was most of a request comparison's time. */
const ascending = (samples: readonly number[]): number[] => Array.from(Float64Array.from(samples).sort());

/** A request round's samples a figure is read from: its steady requests (core steadyStart; a run saved before phases: after its first). */
function steadySamples(r: CaseResult['rounds'][number]): number[] {
  return r.samples.slice(steadyStart(r.samples.length, requestsOf(r)?.phases));
}

/** The arm's figure: the median over its processes of each one's quantile. */
function armStat(rounds: readonly { samples: number[] }[]): ArmStat | undefined {
  return rounds.length ? { median: median(rounds.map((r) => r.samples[0]!)), rounds: rounds.length } : undefined;
}

/** One case, one quantile: the paired comparison, before the false-discovery step. */
export function quantilePair(baseline: CaseResult, candidate: CaseResult, q: number, options: RatioOptions): PairedCase {
  const b = quantileRounds(baseline, q);
  const c = quantileRounds(candidate, q);
  const [bs, cs] = [armStat(b), armStat(c)];
  const out: PairedCase = { ...(bs ? { baseline: bs } : {}), ...(cs ? { candidate: cs } : {}) };
  const pairs = pairRounds(b, c);
  if (pairs.rounds.length === 0) return { ...out, note: 'no process pair in which both arms served requests' };
  if (![...pairs.baseline, ...pairs.candidate].every((x) => x > 0)) return { ...out, note: 'a process read 0 ms at this quantile: no ratio' };
  return { ...out, raw: comparePaired(pairs.baseline, pairs.candidate, options) };
}

/** A request case's compared quantiles, in order. */
export function quantilePairs(baseline: CaseResult, candidate: CaseResult, options: RatioOptions): { quantile: ComparedQuantile; pair: PairedCase }[] {
  return COMPARED_QUANTILES.map(({ name, q }) => ({ quantile: name, pair: quantilePair(baseline, candidate, q, options) }));
}
