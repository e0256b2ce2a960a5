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

  if (rounds.length < MIN_ROUNDS_FOR_BOOTSTRAP) {
    return { ...base, rounds: rounds.length, roundMedians, ciMethod: 'order-statistics' };
  }

  const replicates = hierarchicalMedians(rounds, pooled, total, resamples, createRandom(seed));
  const ci = coverEstimate(percentileInterval(replicates, confidence), base.median);
  return {
    ...base,
    ci,
    ciHalfWidthRel: relativeTo((ci[1] - ci[0]) / 2, base.median),
    rounds: rounds.length,
    roundMedians,
    ciMethod: 'hierarchical-bootstrap',
  };
}

/**
 * Medians of `resamples` two-stage bootstrap resamples. Instead of copying
 * values and selecting, each sample is replaced by its rank in the sorted
 * pooled data and a resample is a histogram of ranks: the median is found by
 * a scan over 64-wide blocks of counts. Same result as sorting each resample
 * (the value order is the rank order) at a fraction of the cost, which
 * matters with thousands of samples per round.
 */
function hierarchicalMedians(
  rounds: readonly (readonly number[])[],
  pooledSorted: Float64Array,
  total: number,
  resamples: number,
  random: () => number,
): Float64Array {
  const R = rounds.length;
  // Global rank of every sample: sort sample positions by value (ties broken arbitrarily, which is harmless).
  const values = new Float64Array(total);
  const roundRanks: Int32Array[] = [];
  let off = 0;
  for (const r of rounds) {
    values.set(r, off);
    roundRanks.push(new Int32Array(r.length));
    off += r.length;
  }
  const order = Array.from({ length: total }, (_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  const roundOf = new Int32Array(total);
  const posIn = new Int32Array(total);
  off = 0;
  rounds.forEach((r, ri) => {
    for (let j = 0; j < r.length; j++) {
      roundOf[off + j] = ri;
      posIn[off + j] = j;
    }
    off += r.length;
  });
  order.forEach((sampleIndex, rank) => {
    (roundRanks[roundOf[sampleIndex] as number] as Int32Array)[posIn[sampleIndex] as number] = rank;
  });

  const counts = new Int32Array(total);
  const blocks = new Int32Array((total >> 6) + 1);
  const replicates = new Float64Array(resamples);
  const rankAt = (t: number): number => {
    let b = 0;
    let cum = 0;
    while (cum + (blocks[b] as number) <= t) cum += blocks[b++] as number;
    let k = b << 6;
    while (cum + (counts[k] as number) <= t) cum += counts[k++] as number;
    return k;
  };
  for (let b = 0; b < resamples; b++) {
    counts.fill(0);
    blocks.fill(0);
    let len = 0;
    for (let i = 0; i < R; i++) {
      const ranks = roundRanks[Math.floor(random() * R)] as Int32Array;
      const m = ranks.length;
      for (let j = 0; j < m; j++) {
        const k = ranks[Math.floor(random() * m)] as number;
        counts[k] = (counts[k] as number) + 1;
        blocks[k >> 6] = (blocks[k >> 6] as number) + 1;
      }
      len += m;
    }
    const lowT = (len - 1) >> 1;
    const lower = pooledSorted[rankAt(lowT)] as number;
    if (len % 2 === 1) replicates[b] = lower;
    else {
      const upper = pooledSorted[rankAt(lowT + 1)] as number;
      replicates[b] = lower + (upper - lower) / 2;
    }
  }
  return replicates;
}
