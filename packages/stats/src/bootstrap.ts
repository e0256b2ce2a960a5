/**
 * Summary of a hierarchical measurement: rounds of samples from several
 * processes (a process may serve several rounds). The process is the unit of replication: JIT decisions,
 * heap layout, CPU placement and whatever else shares the machine at that
 * moment are fixed per process, so samples from one process are correlated
 * and pooling them as if independent makes the CI too narrow. A cluster
 * bootstrap over processes puts that between-process variance into the CI;
 * its distribution is computed exactly (median-bootstrap.ts), not drawn.
 */
import { type ProcessStatistic } from './amortized.ts';
import { meanOf } from './variance-components.ts';
import { detectModes, type ModeSummary } from './modes.ts';
import { medianInPlace, quantileInPlace } from './quantile.ts';
import { medianBootstrapInterval } from './median-bootstrap.ts';
import { summarizeSorted, type Summary } from './summary.ts';
import { checkConfidence, checkFinite, relativeTo } from './validate.ts';

export interface RoundsSummary extends Omit<Summary, 'ci' | 'ciHalfWidthRel'> {
  rounds: number;
  roundMedians: number[];
  /** Independent processes behind the rounds (rounds without a process label are each their own). */
  processes: number;
  /** Each process's figure (the median of its pooled samples, or their mean: `estimator`), in the order processes first appear. */
  processMedians: number[];
  /** The median's interval: a bootstrap over processes; absent with fewer than MIN_ROUNDS_FOR_BOOTSTRAP processes. */
  ci?: [number, number];
  ciHalfWidthRel?: number;
  ciMethod: 'process-medians-bootstrap' | 'none: too few processes';
  /**
   * What `median` is: the median of the process medians with >= 5 processes,
   * else the median of the pooled samples. Chosen on repeated runs against
   * the minimum, a low quantile and the lower mode (README.md, "The headline estimate").
   * Read by the mean (samples that could not span the case's collections,
   * amortized.ts): the median of the process means, else the pooled mean.
   */
  estimator: 'median-of-medians' | 'pooled-median' | 'median-of-means' | 'pooled-mean';
  /** Clusters of the process medians (detectModes; one mode when fewer than 6 processes). */
  modes: ModeSummary;
}

export interface RoundsOptions {
  /** The interval's confidence; default 0.95. */
  confidence?: number;
}

/** Below this many processes the bootstrap has too few distinct resamples to be trusted, and no interval is given. */
export const MIN_ROUNDS_FOR_BOOTSTRAP = 5;

/**
 * Percentile interval (Efron & Tibshirani 1993, §13.3) of bootstrap
 * replicates: type-7 quantiles at (1-confidence)/2 and (1+confidence)/2.
 * Reorders `replicates` in place.
 */
export function percentileInterval(replicates: Float64Array, confidence: number): [number, number] {
  const a = (1 - confidence) / 2;
  return [quantileInPlace(replicates, a), quantileInPlace(replicates, 1 - a)];
}

/** Widen [lo, hi] just enough to contain the point estimate (a percentile interval can miss it by a hair). */
function coverEstimate(ci: [number, number], estimate: number): [number, number] {
  return [Math.min(ci[0], estimate), Math.max(ci[1], estimate)];
}

/** The samples of each process, pooled over its rounds, in the order processes first appear. */
function samplesByProcess(rounds: readonly (readonly number[])[], processes: readonly (string | number)[] | undefined): number[][] {
  if (!processes) return rounds.map((r) => [...r]);
  if (processes.length !== rounds.length) throw new RangeError(`summarizeRounds: ${rounds.length} rounds but ${processes.length} process labels`);
  const by = new Map<string | number, number[]>();
  rounds.forEach((r, i) => {
    const key = processes[i]!;
    const list = by.get(key);
    if (list) list.push(...r);
    else by.set(key, [...r]);
  });
  return [...by.values()];
}

/**
 * Pooled descriptive statistics of all samples, per-round and per-process
 * medians, and the estimate with its interval. The process is the unit:
 * rounds served by one process share its state, so they pool into one
 * process median. With >= 5 processes the estimate is the median of the
 * process medians and its interval a cluster bootstrap over processes; with
 * fewer, the pooled median and no interval (README.md, `summarizeRounds`).
 */
export function summarizeRounds(
  rounds: readonly (readonly number[])[],
  opts: RoundsOptions & { processes?: readonly (string | number)[]; statistic?: ProcessStatistic } = {},
): RoundsSummary {
  const byMean = opts.statistic === 'mean';
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'summarizeRounds');
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
  const { ci: _ci, ciHalfWidthRel: _half, ...base } = summarizeSorted(pooled, confidence);
  const roundMedians = rounds.map((r) => medianInPlace(Float64Array.from(r), r.length));
  const processMedians = samplesByProcess(rounds, opts.processes).map((s) => (byMean ? meanOf(s) : medianInPlace(Float64Array.from(s), s.length)));
  const modes = modesOfMedians(processMedians);
  const shared = { rounds: rounds.length, roundMedians, processes: processMedians.length, processMedians, modes };

  if (processMedians.length < MIN_ROUNDS_FOR_BOOTSTRAP) {
    if (byMean) return { ...base, ...shared, median: base.mean, rsd: relativeTo(base.p75 - base.p25, base.mean), ciMethod: 'none: too few processes', estimator: 'pooled-mean' };
    return { ...base, ...shared, ciMethod: 'none: too few processes', estimator: 'pooled-median' };
  }

  const { median, ci } = medianWithInterval(processMedians, confidence);
  return {
    ...base,
    ...shared,
    median,
    rsd: relativeTo(base.p75 - base.p25, median),
    ci,
    ciHalfWidthRel: relativeTo((ci[1] - ci[0]) / 2, median),
    ciMethod: 'process-medians-bootstrap',
    estimator: byMean ? 'median-of-means' : 'median-of-medians',
  };
}

/**
 * The interval of the median of process medians at another level than the
 * one it was summarized at, computed the same exact way (median-bootstrap.ts):
 * at the summary's own level it is the summary's interval. A table whose
 * ratios are read at an adjusted level reads its medians' intervals there
 * too, so one screen has one level. Undefined below MIN_ROUNDS_FOR_BOOTSTRAP.
 */
export function processMedianInterval(processMedians: readonly number[], confidence: number): [number, number] | undefined {
  checkConfidence(confidence, 'processMedianInterval');
  if (processMedians.length < MIN_ROUNDS_FOR_BOOTSTRAP) return undefined;
  return medianWithInterval(processMedians, confidence).ci;
}

/** The median of the process medians and its exact bootstrap interval, widened to hold the median. */
function medianWithInterval(processMedians: readonly number[], confidence: number): { median: number; ci: [number, number] } {
  const median = medianInPlace(Float64Array.from(processMedians), processMedians.length);
  return { median, ci: coverEstimate(medianBootstrapInterval(processMedians, confidence), median) };
}

/** Modes of the process medians; timings of zero or below (not expected) are not tested. */
function modesOfMedians(roundMedians: number[]): ModeSummary {
  if (roundMedians.every((m) => m > 0)) return detectModes(roundMedians);
  const sorted = [...roundMedians].sort((a, b) => a - b);
  const center = medianInPlace(Float64Array.from(sorted), sorted.length);
  return { modes: [{ center, count: sorted.length, low: sorted[0]!, high: sorted[sorted.length - 1]! }], method: 'not tested (a median <= 0)' };
}
