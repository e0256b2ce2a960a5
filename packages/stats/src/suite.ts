/**
 * One number for a whole suite: the geometric mean of the per-case ratios,
 * the usual summary for benchmark suites because it does not let one case
 * with a large ratio dominate and is symmetric under swapping the arms
 * (Fleming & Wallace 1986, "How not to lie with statistics: the correct way
 * to summarize benchmark results").
 */
import { bootstrapDefaults, coverEstimate, percentileInterval } from './bootstrap.ts';
import { medianInPlace } from './quantile.ts';
import { hodgesLehmann } from './rank-tests.ts';
import { createRandom } from './random.ts';
import { checkConfidence, checkFinite, checkResamples } from './validate.ts';

export interface SuiteAggregate {
  geomean: number;
  ci: [number, number];
  cases: number;
}

/**
 * perCaseLogRatios[c] = the per-round log ratios ln(candidate/baseline) of
 * case c. Each case is estimated by its Hodges-Lehmann log ratio (the same
 * estimator comparePaired uses); geomean = exp(mean over cases).
 * CI: percentile bootstrap (Efron & Tibshirani 1993) resampling rounds
 * within each case independently and recomputing everything. Cases are held
 * fixed: the CI is about measurement noise in these cases, not about how the
 * cases were chosen. Deterministic given the seed.
 */
export function geometricMeanRatio(
  perCaseLogRatios: readonly (readonly number[])[],
  opts: { confidence?: number; resamples?: number; seed?: number } = {},
): SuiteAggregate {
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'geometricMeanRatio');
  const resamples = checkResamples(opts.resamples ?? bootstrapDefaults.resamples, 'geometricMeanRatio');
  const seed = opts.seed ?? bootstrapDefaults.seed;
  const cases = perCaseLogRatios.length;
  if (cases === 0) throw new RangeError('geometricMeanRatio: no cases');
  let maxLen = 0;
  for (const [i, c] of perCaseLogRatios.entries()) {
    if (c.length === 0) throw new RangeError(`geometricMeanRatio: case ${i} has no rounds`);
    checkFinite(c, 'geometricMeanRatio');
    if (c.length > maxLen) maxLen = c.length;
  }
  let sum = 0;
  for (const c of perCaseLogRatios) sum += hodgesLehmann(c);
  const logMean = sum / cases;

  const random = createRandom(seed);
  const draw = new Float64Array(maxLen);
  const walsh = new Float64Array((maxLen * (maxLen + 1)) / 2);
  const replicates = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (const c of perCaseLogRatios) {
      const n = c.length;
      for (let j = 0; j < n; j++) draw[j] = c[Math.floor(random() * n)] as number;
      let w = 0;
      for (let i = 0; i < n; i++) {
        const di = draw[i] as number;
        for (let j = i; j < n; j++) walsh[w++] = (di + (draw[j] as number)) / 2;
      }
      s += medianInPlace(walsh, w);
    }
    replicates[b] = s / cases;
  }
  const logCi = coverEstimate(percentileInterval(replicates, confidence), logMean);
  return { geomean: Math.exp(logMean), ci: [Math.exp(logCi[0]), Math.exp(logCi[1])], cases };
}

/** One case of an unpaired comparison: log times (per-round medians) of each arm. */
export interface UnpairedCase {
  baseline: readonly number[];
  candidate: readonly number[];
}

function shiftEstimate(x: ArrayLike<number>, m: number, y: ArrayLike<number>, n: number, buf: Float64Array): number {
  let w = 0;
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) buf[w++] = (y[j] as number) - (x[i] as number);
  return medianInPlace(buf, w);
}

/**
 * The suite geomean for two runs whose rounds are not paired (two saved
 * runs): each case is estimated by the two-sample Hodges-Lehmann shift of
 * log(candidate) vs log(baseline) (median of all differences, the estimator
 * compareUnpaired uses); geomean = exp(mean over cases). CI: percentile
 * bootstrap resampling each arm's rounds independently within each case
 * (cases held fixed, as in geometricMeanRatio). Deterministic given the seed.
 */
export function geometricMeanRatioUnpaired(
  perCase: readonly UnpairedCase[],
  opts: { confidence?: number; resamples?: number; seed?: number } = {},
): SuiteAggregate {
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'geometricMeanRatioUnpaired');
  const resamples = checkResamples(opts.resamples ?? bootstrapDefaults.resamples, 'geometricMeanRatioUnpaired');
  const seed = opts.seed ?? bootstrapDefaults.seed;
  const cases = perCase.length;
  if (cases === 0) throw new RangeError('geometricMeanRatioUnpaired: no cases');
  let maxM = 0;
  let maxN = 0;
  let maxPairs = 0;
  for (const [i, c] of perCase.entries()) {
    if (c.baseline.length === 0 || c.candidate.length === 0) throw new RangeError(`geometricMeanRatioUnpaired: case ${i} has an empty arm`);
    checkFinite(c.baseline, 'geometricMeanRatioUnpaired');
    checkFinite(c.candidate, 'geometricMeanRatioUnpaired');
    maxM = Math.max(maxM, c.baseline.length);
    maxN = Math.max(maxN, c.candidate.length);
    maxPairs = Math.max(maxPairs, c.baseline.length * c.candidate.length);
  }
  const diffs = new Float64Array(maxPairs);
  let sum = 0;
  for (const c of perCase) sum += shiftEstimate(c.baseline, c.baseline.length, c.candidate, c.candidate.length, diffs);
  const logMean = sum / cases;

  const random = createRandom(seed);
  const x = new Float64Array(maxM);
  const y = new Float64Array(maxN);
  const replicates = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (const c of perCase) {
      const m = c.baseline.length;
      const n = c.candidate.length;
      for (let i = 0; i < m; i++) x[i] = c.baseline[Math.floor(random() * m)] as number;
      for (let j = 0; j < n; j++) y[j] = c.candidate[Math.floor(random() * n)] as number;
      s += shiftEstimate(x, m, y, n, diffs);
    }
    replicates[b] = s / cases;
  }
  const logCi = coverEstimate(percentileInterval(replicates, confidence), logMean);
  return { geomean: Math.exp(logMean), ci: [Math.exp(logCi[0]), Math.exp(logCi[1])], cases };
}
