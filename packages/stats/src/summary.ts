/**
 * Descriptive statistics of one sample of timings, with a distribution-free
 * confidence interval for the median.
 */
import { quantileSorted } from './quantile.ts';
import { checkConfidence, checkFinite, relativeTo } from './validate.ts';

export interface Summary {
  n: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  p25: number;
  p75: number;
  p5: number;
  p95: number;
  /** median absolute deviation from the median (unscaled, no 1.4826 factor) */
  mad: number;
  /** (p75 - p25) / |median|: robust relative spread */
  rsd: number;
  /** confidence interval of the median (order statistics, distribution-free) */
  ci: [number, number];
  /** (ci[1] - ci[0]) / 2 / |median| */
  ciHalfWidthRel: number;
  /** samples outside Tukey's fences [p25 - 1.5 IQR, p75 + 1.5 IQR] */
  outliers: number;
}

export interface MedianCI {
  lower: number;
  upper: number;
  /** 1-based order statistics used: ci = [x_(lowerRank), x_(upperRank)] */
  lowerRank: number;
  upperRank: number;
  /** exact coverage of this interval for continuous data (>= confidence when attained) */
  coverage: number;
  /** false when n is too small to reach the requested confidence; then ci = [min, max] */
  attained: boolean;
}

/**
 * Distribution-free CI of the median from order statistics (Hollander & Wolfe,
 * "Nonparametric Statistical Methods", 3rd ed. §3.6; Conover §3.2): with
 * B ~ Binomial(n, 1/2), [x_(k), x_(n-k+1)] covers the population median with
 * probability 1 - 2 P(B <= k-1). We take the largest k with
 * P(B <= k-1) <= (1-confidence)/2, i.e. the shortest interval that still has
 * at least the requested coverage (worked example: README.md). The binomial
 * CDF is accumulated in log space so n in the millions does not underflow 2^-n.
 */
export function medianCI(sorted: ArrayLike<number>, confidence = 0.95): MedianCI {
  checkConfidence(confidence, 'medianCI');
  const n = sorted.length;
  if (n === 0) throw new RangeError('medianCI: empty sample');
  const logTail = Math.log((1 - confidence) / 2) + 1e-12; // tolerance for rounding at exact ties
  let logPmf = -n * Math.LN2; // log P(B = 0)
  let logCdf = logPmf;
  let k = 0; // largest feasible k so far (0 = none)
  let cdfAtKMinus1 = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: at j = n − 1 the cdf reaches 1, above any tail, so j < n never ends the loop; equality with a tail moved by 1e-12 does not occur
  for (let j = 0; j < n && logCdf <= logTail; j++) {
    k = j + 1;
    cdfAtKMinus1 = Math.exp(logCdf);
    logPmf += Math.log((n - j) / (j + 1));
    logCdf = logAddExp(logCdf, logPmf);
  }
  if (k === 0) {
    return {
      lower: sorted[0] as number,
      upper: sorted[n - 1] as number,
      lowerRank: 1,
      upperRank: n,
      coverage: Math.max(0, 1 - 2 * Math.pow(2, -n)),
      attained: false,
    };
  }
  return {
    lower: sorted[k - 1] as number,
    upper: sorted[n - k] as number,
    lowerRank: k,
    upperRank: n - k + 1,
    coverage: 1 - 2 * cdfAtKMinus1,
    attained: true,
  };
}

function logAddExp(a: number, b: number): number {
  // Stryker disable next-line MethodExpression: m only scales the two exponentials; here the logs are within log n of each other, so neither choice overflows
  const m = Math.max(a, b);
  return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
}

/** Neumaier's compensated sum (Neumaier 1974): keeps the mean exact to ~1 ulp for long samples. */
function accurateSum(values: ArrayLike<number>): number {
  let sum = 0;
  let comp = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const t = sum + v;
    // Stryker disable next-line EqualityOperator: when |sum| = |v| both orders are exact
    comp += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + comp;
}

/** Summary of a sorted Float64Array (internal; no validation). */
export function summarizeSorted(sorted: Float64Array, confidence: number): Summary {
  const n = sorted.length;
  const median = quantileSorted(sorted, 0.5);
  const p25 = quantileSorted(sorted, 0.25);
  const p75 = quantileSorted(sorted, 0.75);
  const dev = new Float64Array(n);
  // Stryker disable next-line EqualityOperator: one more deviation (NaN) is written past the end of the typed array, which drops it
  for (let i = 0; i < n; i++) dev[i] = Math.abs((sorted[i] as number) - median);
  dev.sort();
  const iqr = p75 - p25;
  const loFence = p25 - 1.5 * iqr;
  const hiFence = p75 + 1.5 * iqr;
  let outliers = 0;
  // Stryker disable next-line EqualityOperator: past the end the value is undefined, outside neither fence
  for (let i = 0; i < n; i++) {
    const v = sorted[i] as number;
    if (v < loFence || v > hiFence) outliers++;
  }
  const mci = medianCI(sorted, confidence);
  const ci: [number, number] = [mci.lower, mci.upper];
  return {
    n,
    min: sorted[0] as number,
    max: sorted[n - 1] as number,
    mean: accurateSum(sorted) / n,
    median,
    p25,
    p75,
    p5: quantileSorted(sorted, 0.05),
    p95: quantileSorted(sorted, 0.95),
    mad: quantileSorted(dev, 0.5),
    rsd: relativeTo(iqr, median),
    ci,
    ciHalfWidthRel: relativeTo((ci[1] - ci[0]) / 2, median),
    outliers,
  };
}

/**
 * Descriptive statistics of one sample. Throws on an empty sample or a
 * non-finite value. Quantiles are type 7 (see quantile.ts); the CI of the
 * median is the order-statistics interval of medianCI (for n < 6 at 95% it
 * cannot reach the confidence and is [min, max]).
 */
export function summarize(samples: readonly number[], confidence = 0.95): Summary {
  if (samples.length === 0) throw new RangeError('summarize: empty sample');
  checkFinite(samples, 'summarize');
  checkConfidence(confidence, 'summarize');
  const sorted = Float64Array.from(samples).sort();
  return summarizeSorted(sorted, confidence);
}
