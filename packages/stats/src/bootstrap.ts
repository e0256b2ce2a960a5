/**
 * Summary of a hierarchical measurement: several processes ("rounds"), each
 * giving many samples. The process is the unit of replication: JIT decisions,
 * heap layout and CPU placement are fixed per process, so samples from one
 * process are correlated and pooling them as if independent makes the CI
 * too narrow. The hierarchical bootstrap below puts that between-process
 * variance back into the CI.
 */
import { medianInPlace, quantileSorted } from './quantile.ts';
import { createRandom } from './random.ts';
import { summarizeSorted, type Summary } from './summary.ts';
import { checkConfidence, checkFinite, checkResamples, relativeTo } from './validate.ts';

export interface RoundsSummary extends Summary {
  rounds: number;
  roundMedians: number[];
  ciMethod: 'order-statistics' | 'hierarchical-bootstrap';
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
 * Pooled descriptive statistics of all samples, per-round medians, and a CI
 * of the pooled median.
 *
 * With >= 5 rounds the CI is a two-stage (hierarchical) percentile bootstrap
 * (Davison & Hinkley 1997, "Bootstrap Methods and their Application" §3.8;
 * Ren et al. 2010, "Nonparametric bootstrapping for hierarchical data"):
 * draw rounds with replacement, then samples with replacement within each
 * drawn round, and take the median of the pooled resample. Resampling at both
 * stages slightly overstates the variance (Davison & Hinkley), i.e. it errs
 * on the wide side, which is the safe side for a benchmark verdict.
 * With fewer rounds: the order-statistics CI of the pooled samples (which
 * ignores between-process variance; ciMethod says so).
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
  let maxLen = 0;
  for (const [i, r] of rounds.entries()) {
    if (r.length === 0) throw new RangeError(`summarizeRounds: round ${i} has no samples`);
    checkFinite(r, 'summarizeRounds');
    total += r.length;
    if (r.length > maxLen) maxLen = r.length;
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

  if (rounds.length < MIN_ROUNDS_FOR_BOOTSTRAP) {
    return { ...base, rounds: rounds.length, roundMedians, ciMethod: 'order-statistics' };
  }

  const random = createRandom(seed);
  const R = rounds.length;
  const buf = new Float64Array(R * maxLen);
  const replicates = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let len = 0;
    for (let i = 0; i < R; i++) {
      const round = rounds[Math.floor(random() * R)] as readonly number[];
      const m = round.length;
      for (let j = 0; j < m; j++) buf[len++] = round[Math.floor(random() * m)] as number;
    }
    replicates[b] = medianInPlace(buf, len);
  }
  const ci = coverEstimate(percentileInterval(replicates, confidence), base.median);
  return {
    ...base,
    ci,
    ciHalfWidthRel: relativeTo((ci[1] - ci[0]) / 2, base.median),
    rounds: R,
    roundMedians,
    ciMethod: 'hierarchical-bootstrap',
  };
}
