/**
 * Do these timings form one cluster or two? A process can run in a fast or a
 * slow state (docs/measurements/two-speed-noise.md), and a median of such a mixture lands
 * wherever the mix puts it. This module finds the best split of the log values
 * (exact 1-D two-means) and tests it against a seeded Monte Carlo null of one
 * log-normal cluster, so the false-alarm rate is alpha by construction.
 * Method and its measured rates: README.md, "Modes".
 */
import { quantileSorted } from './quantile.ts';
import { createRandom } from './random.ts';
import { checkPositive } from './validate.ts';

interface Mode {
  /** Median of the values in this mode. */
  center: number;
  count: number;
  /** Smallest and largest value in this mode. */
  low: number;
  high: number;
}

export interface ModeSummary {
  /** One entry when unimodal; otherwise two, centers ascending. */
  modes: Mode[];
  /** How the decision was made, for reports and saved runs. */
  method: string;
}

export interface ModeOptions {
  /** The smaller mode must hold at least this share of the values (and at least 2). Default 0.2. */
  minShare?: number;
  /** False-alarm rate on one log-normal cluster. Default 0.01. */
  alpha?: number;
  /** Centers closer than this ratio are reported as one mode, however significant. Default 1.05. */
  minRatio?: number;
}

const modeDefaults = { minShare: 0.2, alpha: 0.01, minRatio: 1.05 } as const;

/** Below this many values no split is tested. */
const MIN_VALUES_FOR_MODES = 6;
/** Larger samples are reduced to this many evenly spaced quantiles before splitting. */
const MAX_POINTS = 200;
const CALIBRATION_DRAWS = 4000;
const CALIBRATION_SEED = 0x6d6f6465;

export interface Split {
  /** Number of values in the lower group (of the possibly reduced sample). */
  lowerCount: number;
  /** Within-group SS / total SS of the log values; 1 when all values are equal. */
  ratio: number;
}

/**
 * The best two-group split of ascending log values with at least `minCount`
 * in each group. Prefix sums make every split O(1), so the scan is O(n).
 */
export function bestSplit(sortedLogs: ArrayLike<number>, minCount: number): Split {
  const n = sortedLogs.length;
  const prefix = new Float64Array(n + 1);
  const prefixSq = new Float64Array(n + 1);
  // Centre first: sums of squares of values far from 0 lose digits.
  const shift = sortedLogs[n >> 1] as number;
  // Stryker disable next-line EqualityOperator: one more step reads past the end (NaN) and writes past the end of the typed arrays, which drop it
  for (let i = 0; i < n; i++) {
    const v = (sortedLogs[i] as number) - shift;
    // Stryker disable next-line ArithmeticOperator: sums of −v are the sums negated, and a group's sum is only used squared
    prefix[i + 1] = (prefix[i] as number) + v;
    prefixSq[i + 1] = (prefixSq[i] as number) + v * v;
  }
  const ss = (from: number, to: number): number => {
    const s = (prefix[to] as number) - (prefix[from] as number);
    const q = (prefixSq[to] as number) - (prefixSq[from] as number);
    return Math.max(0, q - (s * s) / (to - from));
  };
  const total = ss(0, n);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: without this return every ratio is 0/0 = NaN, and NaN < 1 is false: the same answer
  if (!(total > 0)) return { lowerCount: n, ratio: 1 };
  let best = { lowerCount: n, ratio: 1 };
  for (let k = minCount; k <= n - minCount; k++) {
    const ratio = (ss(0, k) + ss(k, n)) / total;
    // Stryker disable next-line EqualityOperator: which of two equally good splits is taken is not a contract
    if (ratio < best.ratio) best = { lowerCount: k, ratio };
  }
  return best;
}

/** Smallest group size allowed for n values. */
function minCountFor(n: number, minShare: number): number {
  return Math.max(2, Math.ceil(minShare * n - 1e-9));
}

const criticalCache = new Map<string, number>();

/**
 * The alpha-quantile of the split ratio R for n independent normal values
 * (the log of log-normal timings), by seeded Monte Carlo: deterministic, and
 * computed once per (n, minShare, alpha).
 */
export function criticalRatio(n: number, minShare: number, alpha: number): number {
  const key = `${n}/${minShare}/${alpha}`;
  const cached = criticalCache.get(key);
  if (cached !== undefined) return cached;
  // Stryker disable next-line ArithmeticOperator: another seed draws another sample of the same null: the critical value moves within its Monte Carlo error
  const random = createRandom(CALIBRATION_SEED + n);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const minCount = minCountFor(n, minShare);
  const draws = new Float64Array(CALIBRATION_DRAWS);
  const x = new Float64Array(n);
  // Stryker disable next-line EqualityOperator: one more draw is written past the end of the typed array, which drops it
  for (let d = 0; d < CALIBRATION_DRAWS; d++) {
    // Stryker disable next-line EqualityOperator: one more normal value per draw, dropped past the end: another sample of the same null (Monte Carlo error only)
    for (let i = 0; i < n; i++) x[i] = normal();
    x.sort();
    draws[d] = bestSplit(x, minCount).ratio;
  }
  draws.sort();
  const critical = quantileSorted(draws, alpha);
  criticalCache.set(key, critical);
  return critical;
}

/** Evenly spaced type-7 quantiles: a deterministic, shape-preserving reduction of a large sample. */
function reduce(sorted: Float64Array, points: number): Float64Array {
  // Stryker disable next-line EqualityOperator: at exactly MAX_POINTS values, their own quantiles stand in for them: a resampling of the same shape, not a contract
  if (sorted.length <= points) return sorted;
  const out = new Float64Array(points);
  // Stryker disable next-line EqualityOperator: one more quantile is written past the end of the typed array, which drops it
  for (let i = 0; i < points; i++) out[i] = quantileSorted(sorted, (i + 0.5) / points);
  return out;
}

function describe(sorted: Float64Array, from: number, to: number): Mode {
  const part = sorted.subarray(from, to);
  return { center: quantileSorted(part, 0.5), count: to - from, low: part[0] as number, high: part[part.length - 1] as number };
}

/**
 * One or two modes of positive values (timings). Throws a RangeError on a
 * value that is not finite and > 0, or on options out of range.
 */
export function detectModes(values: readonly number[], options: ModeOptions = {}): ModeSummary {
  const minShare = options.minShare ?? modeDefaults.minShare;
  const alpha = options.alpha ?? modeDefaults.alpha;
  const minRatio = options.minRatio ?? modeDefaults.minRatio;
  if (!(minShare > 0 && minShare <= 0.5)) throw new RangeError(`detectModes: minShare must be in (0, 0.5], got ${minShare}`);
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`detectModes: alpha must be in (0, 0.5), got ${alpha}`);
  if (!(minRatio >= 1)) throw new RangeError(`detectModes: minRatio must be >= 1, got ${minRatio}`);
  if (values.length === 0) throw new RangeError('detectModes: empty sample');
  checkPositive(values, 'detectModes');

  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const unimodal = (why: string): ModeSummary => ({ modes: [describe(sorted, 0, n)], method: `log two-means split: ${why}` });
  if (n < MIN_VALUES_FOR_MODES) return unimodal(`not tested (fewer than ${MIN_VALUES_FOR_MODES} values)`);

  const points = reduce(sorted, MAX_POINTS);
  const logs = points.map(Math.log);
  const m = points.length;
  const split = bestSplit(logs, minCountFor(m, minShare));
  const critical = criticalRatio(m, minShare, alpha);
  const test = `R = ${split.ratio.toFixed(3)} vs ${critical.toFixed(3)} at alpha ${alpha}, n ${n}`;
  // Stryker disable next-line EqualityOperator: a split ratio equal to the Monte Carlo critical value to the last bit does not occur
  if (!(split.ratio < critical)) return unimodal(`one mode (${test})`);

  // Map the split of the (possibly reduced) points back onto the full sample.
  const threshold = Math.sqrt((points[split.lowerCount - 1] as number) * (points[split.lowerCount] as number));
  let lowerCount = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end undefined <= threshold is false; a value equals the threshold only where the split cuts a run of equal values, and their side is not a contract
  while (lowerCount < n && (sorted[lowerCount] as number) <= threshold) lowerCount++;
  const lower = describe(sorted, 0, lowerCount);
  const upper = describe(sorted, lowerCount, n);
  if (upper.center / lower.center < minRatio) return unimodal(`one mode (${test}; centers within ${minRatio}x)`);
  return { modes: [lower, upper], method: `log two-means split: two modes (${test})` };
}
