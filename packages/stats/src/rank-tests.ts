/**
 * Rank-based shift estimates with confidence intervals and p-values: the
 * one-sample Hodges-Lehmann estimate with its signed-rank CI and p-value, and
 * the two-sample shift with its Mann-Whitney CI and p-value. Null
 * distributions are exact by dynamic programming where that is cheap, normal
 * otherwise; ties and zeros are handled so the test and the CI agree. Methods,
 * references and tie handling: README.md, "Rank tests".
 */
import { normalCdf, normalQuantile, normalTwoSidedP } from './normal.ts';
import { quantileSorted } from './quantile.ts';
import { checkConfidence, checkFinite } from './validate.ts';

export interface ShiftResult {
  /** Hodges-Lehmann estimate of the shift (one-sample: location; two-sample: y - x) */
  estimate: number;
  ci: [number, number];
  /** two-sided p-value of "shift = 0" */
  pValue: number;
  /** signed-rank: T+ (zeros count half); rank-sum: U = #(y > x) + #(y = x)/2 */
  statistic: number;
  /** coverage of the reported CI under the null distribution used (>= confidence when attained) */
  coverage: number;
  /** false when the sample is too small to reach the confidence; the CI is then the full range */
  attained: boolean;
  /** true when exact null distributions were used, false for the normal approximation */
  exact: boolean;
}

const EXACT_MAX_PAIRS = 50;
const EXACT_MAX_RANKSUM_COST = 5000;
/** Walsh averages / pairwise differences are materialized; past this we refuse instead of exhausting memory. */
const MAX_PAIRWISE = 20_000_000;

const TIE_RTOL = 1e-10;

// ---------------------------------------------------------------- null distributions

/**
 * Distribution of S = sum of w_i * B_i with B_i iid Bernoulli(1/2) and w_i
 * positive integers: pmf[s] = P(S = s). With w = 1..n this is the null
 * distribution of the signed-rank statistic T+. DP over probabilities
 * (all additions of non-negative terms, so no cancellation), O(n * sum w).
 */
export function signedRankNull(weights: readonly number[]): Float64Array {
  let total = 0;
  for (const w of weights) {
    if (!(Number.isInteger(w) && w > 0)) throw new RangeError(`signedRankNull: weights must be positive integers, got ${w}`);
    total += w;
  }
  const p = new Float64Array(total + 1);
  p[0] = 1;
  let cur = 0;
  for (const w of weights) {
    for (let s = cur + w; s >= w; s--) p[s] = 0.5 * ((p[s] as number) + (p[s - w] as number));
    for (let s = Math.min(w - 1, cur); s >= 0; s--) p[s] = 0.5 * (p[s] as number);
    cur += w;
  }
  return p;
}

/**
 * Distribution of W = sum of the weights of a uniformly random k-subset of
 * the items: pmf[s] = P(W = s). With weights 1..N this is the null of the
 * Wilcoxon rank-sum statistic of a group of size k. DP counting subsets by
 * (size, sum), O(N * k * sum): counts stay exact or within ~N ulps (only
 * additions), and C(100, 50) ~ 1e29 is well inside double range.
 */
export function rankSumNull(weights: readonly number[], k: number): Float64Array {
  const N = weights.length;
  if (!(Number.isInteger(k) && k >= 0 && k <= N)) throw new RangeError(`rankSumNull: bad subset size ${k}`);
  for (const w of weights) {
    if (!(Number.isInteger(w) && w >= 0)) throw new RangeError(`rankSumNull: weights must be non-negative integers, got ${w}`);
  }
  const desc = [...weights].sort((a, b) => b - a);
  let maxSum = 0;
  for (let i = 0; i < k; i++) maxSum += desc[i] as number;
  const dp: Float64Array[] = [];
  for (let j = 0; j <= k; j++) dp.push(new Float64Array(maxSum + 1));
  (dp[0] as Float64Array)[0] = 1;
  // The loops' bounds below (reach, top) only skip sums no subset has reached, where dp is 0: wider bounds add zeros.
  // Stryker disable next-line UnaryOperator: a wider bound, see above
  const reach: number[] = new Array<number>(k + 1).fill(-1); // largest sum seen for j items
  reach[0] = 0;
  weights.forEach((w, i) => {
    for (let j = Math.min(i + 1, k); j >= 1; j--) {
      // Stryker disable next-line ArithmeticOperator,MethodExpression: a wider bound, see above (sums past maxSum are written past the typed array's end, which drops them)
      const top = Math.min(reach[j - 1] as number, maxSum - w);
      // Stryker disable next-line ConditionalExpression: a wider bound, see above
      if (top < 0) continue;
      const src = dp[j - 1] as Float64Array;
      const dst = dp[j] as Float64Array;
      for (let s = 0; s <= top; s++) {
        const at = s + w;
        // Stryker disable next-line ArithmeticOperator: subtracting gives every count of a size the same sign, (−1)^size, which the normalisation below divides out
        dst[at] = (dst[at] as number) + (src[s] as number);
      }
      reach[j] = Math.max(reach[j] as number, top + w);
    }
  });
  const last = dp[k] as Float64Array;
  let total = 0;
  for (let s = 0; s <= maxSum; s++) total += last[s] as number;
  for (let s = 0; s <= maxSum; s++) last[s] = (last[s] as number) / total;
  return last;
}

const cache = new Map<string, Float64Array>();
// Stryker disable all: a cache: a mutant changes only how often a null distribution is recomputed
function cached(key: string, make: () => Float64Array): Float64Array {
  let v = cache.get(key);
  if (v === undefined) {
    v = make();
    if (cache.size >= 128) cache.delete(cache.keys().next().value as string);
    cache.set(key, v);
  }
  return v;
}
// Stryker restore all

/** Null pmf of T+ for n untied, non-zero differences: support 0..n(n+1)/2. */
export function signedRankNullUntied(n: number): Float64Array {
  return cached(`sr:${n}`, () => signedRankNull(Array.from({ length: n }, (_, i) => i + 1)));
}

/** Null pmf of the Mann-Whitney U for sample sizes m, n without ties: support 0..mn. */
export function mannWhitneyNullUntied(m: number, n: number): Float64Array {
  // Stryker disable next-line MethodExpression: the U of either group has the same null (symmetric about mn/2); the smaller group only costs less
  const k = Math.min(m, n);
  const N = m + n;
  return cached(`mw:${k},${N}`, () => {
    const w = rankSumNull(Array.from({ length: N }, (_, i) => i + 1), k);
    const offset = (k * (k + 1)) / 2;
    return w.slice(offset, offset + m * n + 1);
  });
}

// ---------------------------------------------------------------- helpers

/**
 * Lower critical value for a CI by test inversion: the largest c >= 1 with
 * P(S <= c-1) <= alphaHalf, and that tail probability. c = 0 when even
 * P(S = 0) exceeds alphaHalf (too few observations for this confidence).
 */
function lowerCritical(pmf: Float64Array, alphaHalf: number): { c: number; tail: number } {
  let cdf = 0;
  let c = 0;
  let tail = 0;
  const limit = alphaHalf * (1 + 1e-12);
  // Stryker disable next-line EqualityOperator: the cdf passes alphaHalf < 1/2 before the end, and the loop breaks there
  for (let s = 0; s < pmf.length; s++) {
    cdf += pmf[s] as number;
    // Stryker disable next-line EqualityOperator: a cdf equal to alphaHalf moved by 1e-12 does not occur
    if (cdf > limit) break;
    c = s + 1;
    tail = cdf;
  }
  return { c, tail };
}

/** Two-sided p-value from a discrete null: 2 * min(P(S <= obs), P(S >= obs)), capped at 1. */
function twoSidedP(pmf: Float64Array, obs: number): number {
  let lower = 0;
  let upper = 0;
  for (let s = 0; s < pmf.length; s++) {
    const v = pmf[s] as number;
    if (s <= obs) lower += v;
    if (s >= obs) upper += v;
  }
  return Math.min(1, 2 * Math.min(lower, upper));
}

/** Midranks (1-based) of values, ties within a relative 1e-10; plus sum of (t^3 - t) over tie groups. */
export function midranks(values: ArrayLike<number>): { ranks: Float64Array; tieSum: number; ties: boolean } {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Float64Array(n);
  let tieSum = 0;
  let i = 0;
  // Stryker disable next-line EqualityOperator: one more pass at i = n sets a rank at the key "undefined" (a property, not an element) and adds 1 − 1 to tieSum
  while (i < n) {
    let j = i;
    const start = values[order[i] as number] as number;
    while (j + 1 < n) {
      const next = values[order[j + 1] as number] as number;
      // Stryker disable next-line EqualityOperator,MethodExpression: values within 1e-10 of each other are within it of either's magnitude; equality at the edge does not occur
      if (next - start > TIE_RTOL * Math.max(Math.abs(start), Math.abs(next))) break;
      j++;
    }
    const r = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) ranks[order[t] as number] = r;
    const size = j - i + 1;
    tieSum += size * size * size - size;
    i = j + 1;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: read only by mannWhitney, where without ties the conditional null is the untied one: the same p-value
  return { ranks, tieSum, ties: tieSum > 0 };
}

function criticalNormal(mean: number, sd: number, alphaHalf: number): number {
  const z = normalQuantile(1 - alphaHalf);
  return Math.max(0, Math.floor(mean + 0.5 - z * sd));
}

// ---------------------------------------------------------------- signed-rank

/**
 * Wilcoxon signed-rank inference on one sample d (e.g. paired log ratios):
 * Hodges-Lehmann estimate = median of the n(n+1)/2 Walsh averages
 * (d_i + d_j)/2, i <= j; CI = [W_(C), W_(M+1-C)] with C from the null of T+
 * (Hollander & Wolfe §3.3). When C would be < 1 (n < 6 at 95%)
 * the CI is the full range [W_(1), W_(M)] and `attained` is false.
 */
export function wilcoxonSignedRank(d: readonly number[], confidence = 0.95): ShiftResult {
  checkConfidence(confidence, 'wilcoxonSignedRank');
  const n = d.length;
  if (n === 0) throw new RangeError('wilcoxonSignedRank: empty sample');
  checkFinite(d, 'wilcoxonSignedRank');
  const M = (n * (n + 1)) / 2;
  // Stryker disable next-line EqualityOperator: n(n + 1)/2 is never exactly MAX_PAIRWISE
  if (M > MAX_PAIRWISE) throw new RangeError(`wilcoxonSignedRank: ${n} observations is too many (pass per-round medians, not raw samples)`);
  const walsh = new Float64Array(M);
  let w = 0;
  // Stryker disable next-line EqualityOperator: at i = n the inner loop does not run
  for (let i = 0; i < n; i++) {
    const di = d[i] as number;
    for (let j = i; j < n; j++) walsh[w++] = (di + (d[j] as number)) / 2;
  }
  walsh.sort();
  const estimate = quantileSorted(walsh, 0.5);
  const alphaHalf = (1 - confidence) / 2;
  const exact = n <= EXACT_MAX_PAIRS;

  let C: number;
  let coverage: number;
  if (exact) {
    const pmf = signedRankNullUntied(n);
    const crit = lowerCritical(pmf, alphaHalf);
    C = crit.c;
    // Stryker disable next-line EqualityOperator: at C = 1 the tail is P(S = 0) = pmf[0]: both give the same
    coverage = C >= 1 ? 1 - 2 * crit.tail : 1 - 2 * (pmf[0] as number);
  } else {
    const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
    C = criticalNormal(M / 2, sd, alphaHalf);
    coverage = 1 - 2 * normalCdf((Math.max(C, 1) - 0.5 - M / 2) / sd);
  }
  const attained = C >= 1;
  const ci: [number, number] = attained
    ? [walsh[C - 1] as number, walsh[M - C] as number]
    : [walsh[0] as number, walsh[M - 1] as number];

  // p-value: midranks of |d|; zeros keep their rank and count half.
  const { ranks } = midranks(d.map(Math.abs));
  let sPos = 0;
  let zeroHalf = 0;
  const nonzero: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = d[i] as number;
    const r = ranks[i] as number;
    if (v === 0) zeroHalf += r / 2;
    else {
      nonzero.push(r);
      // Stryker disable next-line EqualityOperator: v is not 0 here
      if (v > 0) sPos += r;
    }
  }
  let pValue: number;
  if (nonzero.length === 0) pValue = 1;
  else if (exact) {
    const pmf = signedRankNull(nonzero.map((r) => Math.round(2 * r)));
    pValue = twoSidedP(pmf, Math.round(2 * sPos));
  } else {
    let mean = 0;
    let variance = 0;
    for (const r of nonzero) {
      mean += r / 2;
      variance += (r * r) / 4;
    }
    const z = Math.max(0, Math.abs(sPos - mean) - 0.5) / Math.sqrt(variance);
    pValue = Math.min(1, normalTwoSidedP(z));
  }
  return { estimate, ci, pValue, statistic: sPos + zeroHalf, coverage, attained, exact };
}

// ---------------------------------------------------------------- rank-sum

/**
 * Two-sample inference on the shift of y relative to x (Mann-Whitney /
 * Wilcoxon rank-sum): Hodges-Lehmann estimate = median of the m·n
 * differences y_j - x_i; CI = [D_(C), D_(mn+1-C)] with C from the null of U
 * (Hollander & Wolfe §4.3). When C would be < 1 (e.g. 3 vs 3 at 95%) the CI
 * is the full range and `attained` is false.
 */
export function mannWhitney(x: readonly number[], y: readonly number[], confidence = 0.95): ShiftResult {
  checkConfidence(confidence, 'mannWhitney');
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) throw new RangeError('mannWhitney: both samples must be non-empty');
  checkFinite(x, 'mannWhitney');
  checkFinite(y, 'mannWhitney');
  const K = m * n;
  // Stryker disable next-line EqualityOperator: a memory guard: whether exactly MAX_PAIRWISE differences are allowed is not a contract
  if (K > MAX_PAIRWISE) throw new RangeError(`mannWhitney: ${m} x ${n} differences is too many (pass per-round medians, not raw samples)`);
  const diffs = new Float64Array(K);
  let w = 0;
  // Stryker disable next-line EqualityOperator: at j = n the differences (NaN) are written past the end of the typed array, which drops them
  for (let j = 0; j < n; j++) {
    const yj = y[j] as number;
    for (let i = 0; i < m; i++) diffs[w++] = yj - (x[i] as number);
  }
  diffs.sort();
  const estimate = quantileSorted(diffs, 0.5);
  const alphaHalf = (1 - confidence) / 2;
  const N = m + n;
  const k = Math.min(m, n);
  const exact = N * k <= EXACT_MAX_RANKSUM_COST;

  let C: number;
  let coverage: number;
  if (exact) {
    const pmf = mannWhitneyNullUntied(m, n);
    const crit = lowerCritical(pmf, alphaHalf);
    C = crit.c;
    // Stryker disable next-line EqualityOperator: at C = 1 the tail is P(U = 0) = pmf[0]: both give the same
    coverage = C >= 1 ? 1 - 2 * crit.tail : 1 - 2 * (pmf[0] as number);
  } else {
    const sd = Math.sqrt((K * (N + 1)) / 12);
    C = criticalNormal(K / 2, sd, alphaHalf);
    coverage = 1 - 2 * normalCdf((Math.max(C, 1) - 0.5 - K / 2) / sd);
  }
  const attained = C >= 1;
  const ci: [number, number] = attained
    ? [diffs[C - 1] as number, diffs[K - C] as number]
    : [diffs[0] as number, diffs[K - 1] as number];

  // p-value from midranks of the pooled sample.
  const pooled = new Float64Array(N);
  pooled.set(x, 0);
  pooled.set(y, m);
  const { ranks, tieSum, ties } = midranks(pooled);
  let wy = 0;
  for (let j = 0; j < n; j++) wy += ranks[m + j] as number;
  const U = wy - (n * (n + 1)) / 2;
  let pValue: number;
  // Stryker disable next-line ConditionalExpression: without ties the conditional null on doubled ranks below is the untied null: the same p-value
  if (exact && !ties) {
    pValue = twoSidedP(mannWhitneyNullUntied(m, n), Math.round(U));
  } else if (exact) {
    // Exact conditional null given the tie pattern: rank sum of a random k-subset, on doubled midranks.
    const doubled = Array.from(ranks, (r) => Math.round(2 * r));
    // Stryker disable next-line EqualityOperator: with groups of one size either group's rank sum gives the same two-sided p-value
    const smallIsY = n <= m;
    let obs = 0;
    for (let i = 0; i < k; i++) obs += doubled[smallIsY ? m + i : i] as number;
    pValue = twoSidedP(rankSumNull(doubled, k), obs);
  } else {
    const variance = (K / 12) * (N + 1 - tieSum / (N * (N - 1)));
    pValue = variance > 0 ? Math.min(1, normalTwoSidedP(Math.max(0, Math.abs(U - K / 2) - 0.5) / Math.sqrt(variance))) : 1;
  }
  return { estimate, ci, pValue, statistic: U, coverage, attained, exact };
}

/** Median of the Walsh averages of d (one-sample Hodges-Lehmann estimate). */
export function hodgesLehmann(d: readonly number[]): number {
  const n = d.length;
  if (n === 0) throw new RangeError('hodgesLehmann: empty sample');
  const walsh = new Float64Array((n * (n + 1)) / 2);
  let w = 0;
  // Stryker disable next-line EqualityOperator: at i = n the inner loop does not run
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) walsh[w++] = ((d[i] as number) + (d[j] as number)) / 2;
  }
  walsh.sort();
  return quantileSorted(walsh, 0.5);
}
