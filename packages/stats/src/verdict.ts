/**
 * A/B comparison of two arms on log ratios, with a verdict.
 *
 * Why logs: timings are positive and their noise is multiplicative; on the
 * log scale a 2x speedup and a 2x slowdown are symmetric, and swapping the
 * arms exactly mirrors every number (ratio -> 1/ratio, CI -> reciprocal,
 * faster <-> slower).
 *
 * Verdict rules, with tau = ln(1 + threshold) and the log-scale estimate e
 * and CI [lo, hi] (ratio = exp(e)):
 *   faster       hi < 0  and  e < -tau   (CI excludes 1, effect beyond the threshold)
 *   slower       lo > 0  and  e >  tau
 *   equivalent   -tau <= lo and hi <= tau (whole CI in [1/(1+threshold), 1+threshold])
 *   inconclusive otherwise, and always when the sample is too small for the
 *                requested confidence.
 * The band is [1/(1+t), 1+t] rather than [1-t, 1+t] so the rules are exactly
 * symmetric under swapping the arms (for t = 1% the lower edge is 0.990099
 * instead of 0.99).
 */
import { normalQuantile } from './normal.ts';
import { mannWhitney, wilcoxonSignedRank, type ShiftResult } from './rank-tests.ts';
import { checkConfidence, checkPositive } from './validate.ts';
import { designEffect, widened } from './clusters.ts';

export type Verdict = 'faster' | 'slower' | 'equivalent' | 'inconclusive';

export interface Comparison {
  /** candidate time / baseline time (estimate; < 1 means candidate faster) */
  ratio: number;
  /** confidence interval of the ratio */
  ci: [number, number];
  /** two-sided p-value of "no change" */
  pValue: number;
  verdict: Verdict;
  /** noise threshold used, e.g. 0.01 = 1% */
  threshold: number;
  /** pairs used (paired); for compareUnpaired: baseline + candidate observations */
  n: number;
  method: string;
  /**
   * When inconclusive: rough total rounds needed (paired: pairs; unpaired:
   * rounds per arm) for the CI to exclude 1 or fit in the band, from CI width
   * ~ 1/sqrt(n). Absent when it cannot be decided (effect ~ at the threshold).
   */
  roundsToDecide?: number;
  /** coverage the discrete CI actually has (>= the requested confidence unless the sample is too small) */
  coverage?: number;
  /** compareUnpaired only: observations per arm */
  nBaseline?: number;
  nCandidate?: number;
}

export interface CompareOptions {
  /** relative noise threshold; default 0.01 (1%) */
  threshold?: number;
  /** default 0.95 */
  confidence?: number;
  /**
   * comparePaired: which pairs share processes (a label per pair, e.g. the
   * two processes' numbers). Pairs that share them are not independent: the
   * interval is widened by their design effect (clusters.ts).
   */
  clusters?: readonly (string | number)[];
}

export const DEFAULT_THRESHOLD = 0.01;
/** roundsToDecide is given up when more than this many times the current rounds would be needed. */
const MAX_ROUNDS_FACTOR = 100;

function checkThreshold(t: number, where: string): number {
  if (!(Number.isFinite(t) && t >= 0)) throw new RangeError(`${where}: threshold must be finite and >= 0, got ${t}`);
  return t;
}

/** Verdict from the log-scale estimate and CI (rules in the file comment). */
export function classify(logEstimate: number, logCi: readonly [number, number], threshold: number): Verdict {
  const tau = Math.log1p(threshold);
  const [lo, hi] = logCi;
  if (hi < 0 && logEstimate < -tau) return 'faster';
  if (lo > 0 && logEstimate > tau) return 'slower';
  if (lo >= -tau && hi <= tau) return 'equivalent';
  return 'inconclusive';
}

/**
 * Factor by which the sample size must grow for an inconclusive result to
 * become decided, assuming the estimate stays put and each side of the CI
 * shrinks like 1/sqrt(n). Infinity when the estimate sits exactly on the
 * threshold.
 */
export function growthFactorToDecide(logEstimate: number, logCi: readonly [number, number], threshold: number): number {
  const tau = Math.log1p(threshold);
  const e = logEstimate;
  const below = Math.max(0, e - logCi[0]);
  const above = Math.max(0, logCi[1] - e);
  if (e > tau) return (below / e) ** 2; // need lo > 0
  if (e < -tau) return (above / -e) ** 2; // need hi < 0
  if (Math.abs(e) < tau) return Math.max((below / (e + tau)) ** 2, (above / (tau - e)) ** 2); // need CI inside the band
  return Infinity;
}

function roundsEstimate(
  result: ShiftResult,
  threshold: number,
  current: number,
  minimum: number,
): number | undefined {
  const f = growthFactorToDecide(result.estimate, result.ci, threshold);
  if (!Number.isFinite(f) || f > MAX_ROUNDS_FACTOR) return undefined;
  return Math.max(Math.ceil(f * current), Math.floor(current) + 1, minimum);
}

function build(
  result: ShiftResult,
  threshold: number,
  n: number,
  method: string,
  current: number,
  minimum: number,
): Comparison {
  const verdict: Verdict = result.attained ? classify(result.estimate, result.ci, threshold) : 'inconclusive';
  const out: Comparison = {
    ratio: Math.exp(result.estimate),
    ci: [Math.exp(result.ci[0]), Math.exp(result.ci[1])],
    pValue: result.pValue,
    verdict,
    threshold,
    n,
    method,
    coverage: result.coverage,
  };
  if (verdict === 'inconclusive') {
    const r = roundsEstimate(result, threshold, current, minimum);
    if (r !== undefined) out.roundsToDecide = r;
  }
  return out;
}

/** Smallest n whose signed-rank CI can reach the confidence: 2^-n <= alpha/2. */
function minPairs(confidence: number): number {
  return Math.ceil(Math.log2(2 / (1 - confidence)) - 1e-9);
}

/** Smallest k (per arm, k vs k) whose Mann-Whitney CI can reach the confidence: 1/C(2k,k) <= alpha/2. */
function minPerArm(confidence: number): number {
  const need = 2 / (1 - confidence);
  let k = 1;
  let c = 2; // C(2,1)
  while (c < need * (1 - 1e-12)) {
    c = (c * (2 * k + 1) * (2 * k + 2)) / ((k + 1) * (k + 1));
    k++;
  }
  return k;
}

/**
 * Paired A/B: baseline[i] and candidate[i] are the per-round medians (ns/op)
 * of round i, in which both arms ran interleaved. Works on d_i = ln(c_i/b_i):
 * ratio = exp(Hodges-Lehmann estimate), CI from the Wilcoxon signed-rank
 * test inverted on the Walsh averages, p-value of the signed-rank test.
 */
export function comparePaired(
  baseline: readonly number[],
  candidate: readonly number[],
  opts: CompareOptions = {},
): Comparison {
  const threshold = checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD, 'comparePaired');
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'comparePaired');
  if (baseline.length !== candidate.length) {
    throw new RangeError(`comparePaired: ${baseline.length} baseline vs ${candidate.length} candidate values; pairs must match`);
  }
  if (baseline.length === 0) throw new RangeError('comparePaired: no pairs');
  checkPositive(baseline, 'comparePaired');
  checkPositive(candidate, 'comparePaired');
  const d = baseline.map((b, i) => Math.log((candidate[i] as number) / b));
  const signedRank = wilcoxonSignedRank(d, confidence);
  const deff = opts.clusters ? designEffect(d, opts.clusters) : 1;
  const r = widened(signedRank, deff);
  const shared = deff > 1 ? `, widened ×${Math.sqrt(deff).toFixed(2)} for pairs that share processes (design effect ${deff.toFixed(2)})` : '';
  const method = `paired Hodges-Lehmann on log ratios, Wilcoxon signed-rank CI (${r.exact ? 'exact' : 'normal approximation'})${shared}`;
  return build(r, threshold, d.length, method, d.length, minPairs(confidence));
}

/**
 * Unpaired A/B, for two saved runs whose rounds were not interleaved:
 * ratio = exp(two-sample Hodges-Lehmann shift of ln(candidate) vs
 * ln(baseline)), CI by inverting the Mann-Whitney test, rank-sum p-value.
 * roundsToDecide is in rounds per arm (assuming equal arms).
 */
export function compareUnpaired(
  baseline: readonly number[],
  candidate: readonly number[],
  opts: CompareOptions = {},
): Comparison {
  const threshold = checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD, 'compareUnpaired');
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'compareUnpaired');
  if (baseline.length === 0 || candidate.length === 0) throw new RangeError('compareUnpaired: both arms need values');
  checkPositive(baseline, 'compareUnpaired');
  checkPositive(candidate, 'compareUnpaired');
  const m = baseline.length;
  const n = candidate.length;
  const r = mannWhitney(baseline.map(Math.log), candidate.map(Math.log), confidence);
  const method = `two-sample Hodges-Lehmann shift on log times, Mann-Whitney CI (${r.exact ? 'exact' : 'normal approximation'})`;
  // CI width ~ sqrt(1/m + 1/n); with k rounds in each arm ~ sqrt(2/k), so the per-arm equivalent of now is 2mn/(m+n).
  const perArmNow = (2 * m * n) / (m + n);
  const out = build(r, threshold, m + n, method, perArmNow, minPerArm(confidence));
  out.nBaseline = m;
  out.nCandidate = n;
  return out;
}

/**
 * Rough rounds needed for a p-value to drop to `targetP`, if the effect stays
 * put and the z statistic grows like sqrt(n). Used by applyFdr for cases that
 * lose their verdict to the multiple-comparison correction.
 */
export function roundsForPValue(pValue: number, targetP: number, current: number): number | undefined {
  if (!(pValue > 0 && pValue < 1 && targetP > 0 && targetP < 1)) return undefined;
  const zNow = normalQuantile(1 - pValue / 2);
  const zTarget = normalQuantile(1 - targetP / 2);
  const f = (zTarget / zNow) ** 2;
  if (!Number.isFinite(f) || f > MAX_ROUNDS_FACTOR) return undefined;
  return Math.max(Math.ceil(f * current), Math.floor(current) + 1);
}
