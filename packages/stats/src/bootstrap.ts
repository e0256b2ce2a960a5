/**
 * Summary of a hierarchical measurement: several processes ("rounds"), each
 * giving many samples. The process is the unit of replication: JIT decisions,
 * heap layout, CPU placement and whatever else shares the machine at that
 * moment are fixed per process, so samples from one process are correlated
 * and pooling them as if independent makes the CI too narrow. A cluster
 * bootstrap over processes puts that between-process variance into the CI.
 */
import { detectModes, type ModeSummary } from './modes.ts';
import { medianInPlace, quantileSorted } from './quantile.ts';
import { createRandom } from './random.ts';
import { summarizeSorted, type Summary } from './summary.ts';
import { checkConfidence, checkFinite, checkResamples, relativeTo } from './validate.ts';

export interface RoundsSummary extends Summary {
  rounds: number;
  roundMedians: number[];
  ciMethod: 'order-statistics' | 'round-medians-bootstrap';
  /**
   * What `median` is: the median of the process medians with >= 5 rounds,
   * else the median of the pooled samples. Chosen on repeated runs against
   * the minimum, a low quantile and the lower mode (README.md, "The headline estimate").
   */
  estimator: 'median-of-medians' | 'pooled-median';
  /** Clusters of the process medians (detectModes; one mode when fewer than 6 rounds). */
  modes: ModeSummary;
}

export interface BootstrapOptions {
  confidence?: number;
  /** bootstrap resamples; default 2000 (Efron & Tibshirani 1993 ch. 13: >= 1000 for percentile intervals) */
  resamples?: number;
  /** PRNG seed; results are deterministic given the seed */
  seed?: number;
}

export const bootstrapDefaults = { resamples: 2000, seed: 0x5eed } as const;
/** Below this many rounds the bootstrap over rounds has too few distinct resamples to be trusted. */
export const MIN_ROUNDS_FOR_BOOTSTRAP = 5;

/**
 * Percentile interval (Efron & Tibshirani 1993, §13.3) of bootstrap
 * replicates: type-7 quantiles at (1-confidence)/2 and (1+confidence)/2.
 * Sorts `replicates` in place.
 */
export function percentileInterval(replicates: Float64Array, confidence: number): [number, number] {
  replicates.sort();
  const a = (1 - confidence) / 2;
  return [quantileSorted(replicates, a), quantileSorted(replicates, 1 - a)];
}

/** Widen [lo, hi] just enough to contain the point estimate (a percentile interval can miss it by a hair). */
export function coverEstimate(ci: [number, number], estimate: number): [number, number] {
  return [Math.min(ci[0], estimate), Math.max(ci[1], estimate)];
}

/**
 * Pooled descriptive statistics of all samples (spread, quantiles, mean,
 * outliers), per-round medians, and the estimate with its CI.
 *
 * With >= 5 rounds the estimate is the median of the round medians — the
 * typical process — and its CI is a percentile bootstrap that resamples whole
 * rounds (a cluster bootstrap: Davison & Hinkley 1997 §3.8; Field & Welsh
 * 2007). On a shared machine a minority of processes can run far slower for
 * reasons outside the runtime (a noisy neighbour for a few seconds); the
 * median of processes is robust to them, while a pooled median and a
 * two-stage bootstrap let one such process in five swing both estimate and
 * CI by tens of percent (measured on this project's machine).
 * With fewer rounds: the pooled median and the order-statistics CI of the
 * pooled samples (which ignores between-process variance; ciMethod says so).
 */
export function summarizeRounds(
  rounds: readonly (readonly number[])[],
  opts: BootstrapOptions = {},
): RoundsSummary {
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'summarizeRounds');
  const resamples = checkResamples(opts.resamples ?? bootstrapDefaults.resamples, 'summarizeRounds');
  const seed = opts.seed ?? bootstrapDefaults.seed;
  if (rounds.length === 0) throw new RangeError('summarizeRounds: no rounds');
  let total = 0;
  for (const [i, r] of rounds.entries()) {
    if (r.length === 0) throw new RangeError(`summarizeRounds: round ${i} has no samples`);
    checkFinite(r, 'summarizeRounds');
    total += r.length;
  }
  const pooled = new Float64Array(total);
  let off = 0;
  for (const r of rounds) {
    pooled.set(r, off);
    off += r.length;
  }
  pooled.sort();
  const base = summarizeSorted(pooled, confidence);
  const roundMedians = rounds.map((r) => medianInPlace(Float64Array.from(r), r.length));
  const modes = modesOfMedians(roundMedians);

  if (rounds.length < MIN_ROUNDS_FOR_BOOTSTRAP) {
    return { ...base, rounds: rounds.length, roundMedians, ciMethod: 'order-statistics', estimator: 'pooled-median', modes };
  }

  const median = medianInPlace(Float64Array.from(roundMedians), roundMedians.length);
  const replicates = roundMedianReplicates(roundMedians, resamples, createRandom(seed));
  const ci = coverEstimate(percentileInterval(replicates, confidence), median);
  return {
    ...base,
    median,
    rsd: relativeTo(base.p75 - base.p25, median),
    ci,
    ciHalfWidthRel: relativeTo((ci[1] - ci[0]) / 2, median),
    rounds: rounds.length,
    roundMedians,
    ciMethod: 'round-medians-bootstrap',
    estimator: 'median-of-medians',
    modes,
  };
}

/** Modes of the process medians; timings of zero or below (not expected) are not tested. */
function modesOfMedians(roundMedians: number[]): ModeSummary {
  if (roundMedians.every((m) => m > 0)) return detectModes(roundMedians);
  const sorted = [...roundMedians].sort((a, b) => a - b);
  const center = medianInPlace(Float64Array.from(sorted), sorted.length);
  return { modes: [{ center, count: sorted.length, low: sorted[0]!, high: sorted[sorted.length - 1]! }], method: 'not tested (a median <= 0)' };
}

/** Medians of `resamples` resamples of the round medians (drawn with replacement). */
function roundMedianReplicates(roundMedians: readonly number[], resamples: number, random: () => number): Float64Array {
  const R = roundMedians.length;
  const buf = new Float64Array(R);
  const replicates = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < R; i++) buf[i] = roundMedians[Math.floor(random() * R)] as number;
    replicates[b] = medianInPlace(buf, R);
  }
  return replicates;
}
