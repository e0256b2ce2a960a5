/**
 * Ratios of one variant's time to a baseline's, per case: the one analysis
 * behind both the bench table's relative column and a comparison's verdicts.
 *
 * Paired (one run): round i of every variant of a case ran together — a
 * lockstep set of live processes sampled in turn, or fresh processes back to
 * back — so round i forms a pair and its ratio cancels what the two shared
 * (machine state, a neighbour's burst); stats' pairRounds makes the pairs.
 * Unpaired (two saved runs): their rounds were not interleaved; the per-round
 * medians of each run are two independent samples.
 */
import { asCost, TIME_PER_OP, type CaseResult, type Metric } from '@rtbench/core/schema';
import { applyFdr, comparePaired, comparePairedT, compareUnpairedT, pairRounds, compareUnpaired, geometricMeanRatio, geometricMeanRatioUnpaired, median, DEFAULT_THRESHOLD, type Comparison } from '@rtbench/stats';
import { firstLine } from '../text.ts';
import type { ArmStat, RatioComparison } from './types.ts';

export interface RatioOptions {
  /** Relative noise threshold, e.g. 0.01 = 1%. */
  threshold: number;
  /** Confidence of the intervals; the FDR level is 1 - confidence. */
  confidence: number;
}

export const DEFAULT_RATIO_OPTIONS: RatioOptions = { threshold: DEFAULT_THRESHOLD, confidence: 0.95 };

export const PAIRED_METHOD = 'paired: Hodges–Lehmann estimate of the per-round log ratios ln(candidate/baseline) (a lockstep round: the Hodges–Lehmann estimate of its per-turn ratios), CI by inverting the Wilcoxon signed-rank test';
export const COUNTED_METHOD = 'paired: mean of the per-round log ratios of instructions per operation, Student t CI (counts barely vary between rounds)';
export const COUNTED_UNPAIRED_METHOD = 'unpaired: difference of the mean per-round log instructions per operation, Welch t CI (counts barely vary between rounds)';
export const UNPAIRED_METHOD = 'unpaired: two-sample Hodges–Lehmann shift of the per-round log times, CI by inverting the Mann–Whitney test';

/** One candidate against the baseline on one case, before the FDR step. */
export interface PairedCase {
  baseline?: ArmStat;
  candidate?: ArmStat;
  /** The two did different work (digests differ). */
  digests?: { baseline: string; candidate: string };
  /** Why there is no comparison, or what the reader should know about it. */
  note?: string;
  raw?: Comparison;
  /** Paired: per-round log ratios; unpaired: each arm's log times (for the geomean). */
  logRatios?: number[];
  logTimes?: { baseline: number[]; candidate: number[] };
}

/** Per-round medians keyed by round index (the pairing key). */
export function roundMedians(result: CaseResult | undefined): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of result?.rounds ?? []) if (r.samples.length) out.set(r.round, median(r.samples));
  return out;
}

/** Why a case cannot be compared, from the results of both arms. */
function unusableReason(label: (r: CaseResult) => string, ...results: (CaseResult | undefined)[]): string | undefined {
  for (const r of results) {
    if (!r) return 'not measured';
    if (r.status === 'unsupported') return `unsupported on ${label(r)}: ${r.failures[0]?.message ?? ''}`;
    if (!r.rounds.length) {
      const f = r.failures[r.failures.length - 1];
      return `no rounds on ${label(r)}${f ? ` (${f.kind}: ${firstLine(f.message, 100)})` : ''}`;
    }
  }
  return undefined;
}

function digestOf(r: CaseResult | undefined): string | undefined {
  return r?.rounds[0]?.digest.hash;
}

function failedRounds(r: CaseResult | undefined): number {
  return r?.failures.filter((f) => f.kind !== 'unsupported' && f.kind !== 'digest-mismatch' && f.kind !== 'warning').length ?? 0;
}

const positive = (xs: number[]): boolean => xs.every((x) => x > 0);
const ZERO_NOTE = 'a round median is 0 ns (below the clock resolution): no ratio';

/** The paired ratio candidate/baseline of one case in one run. */
export function pairedCase(
  baseline: CaseResult | undefined,
  candidate: CaseResult | undefined,
  options: RatioOptions,
  label: (r: CaseResult) => string = (r) => r.variantId,
  metric: Metric = TIME_PER_OP,
): PairedCase {
  const why = unusableReason(label, baseline, candidate);
  if (why) return { note: why };
  const mb = roundMedians(baseline);
  const mc = roundMedians(candidate);
  // Costs (lower is better) for every metric, so a ratio < 1 is faster: req/s compare as time per request.
  // Lockstep rounds pair turn by turn (stats' pairRounds).
  const { rounds, baseline: b, candidate: c, clusters } = pairRounds(baseline!.rounds, candidate!.rounds, (m) => asCost(m, metric));
  const out: PairedCase = {
    baseline: { median: median([...mb.values()]), rounds: mb.size },
    candidate: { median: median([...mc.values()]), rounds: mc.size },
  };
  const db = digestOf(baseline);
  const dc = digestOf(candidate);
  if (db && dc && db !== dc) out.digests = { baseline: db, candidate: dc };
  if (!rounds.length) return { ...out, note: 'no round in which both arms finished' };
  if (!positive(b) || !positive(c)) return { ...out, note: ZERO_NOTE };
  const lost = failedRounds(baseline) + failedRounds(candidate);
  if (lost) out.note = `${lost} failed round${lost === 1 ? '' : 's'}; compared ${rounds.length} pairs`;
  // Counts barely vary between rounds: a t interval on the log ratios (stats' comparePairedT) decides from 3 rounds.
  // Sets served by the same warm processes are not independent: comparePaired widens the interval by their design effect.
  const raw = metric.unit === 'instructions' ? comparePairedT(b, c, options) : comparePaired(b, c, clusters ? { ...options, clusters } : options);
  return { ...out, raw, logRatios: b.map((x, i) => Math.log(c[i]! / x)) };
}

/** The unpaired ratio of one case between two runs (a: baseline, b: candidate). */
export function unpairedCase(a: CaseResult | undefined, b: CaseResult | undefined, options: RatioOptions, label: (r: CaseResult) => string, metric: Metric = TIME_PER_OP): PairedCase {
  const why = unusableReason(label, a, b);
  if (why) return { note: why };
  const x = [...roundMedians(a).values()].map((m) => asCost(m, metric));
  const y = [...roundMedians(b).values()].map((m) => asCost(m, metric));
  const out: PairedCase = { baseline: { median: median([...roundMedians(a).values()]), rounds: x.length }, candidate: { median: median([...roundMedians(b).values()]), rounds: y.length } };
  const da = digestOf(a);
  const db = digestOf(b);
  if (da && db && da !== db) out.digests = { baseline: da, candidate: db };
  if (!positive(x) || !positive(y)) return { ...out, note: ZERO_NOTE };
  // Counts barely vary between rounds: Welch's t on the log counts (stats' compareUnpairedT) decides from 3 rounds a side.
  const raw = metric.unit === 'instructions' ? compareUnpairedT(x, y, options) : compareUnpaired(x, y, options);
  return { ...out, raw, logTimes: { baseline: x.map(Math.log), candidate: y.map(Math.log) } };
}

/** Benjamini–Hochberg across every comparison given; undefined where there was none. */
export function adjustAll(cases: readonly PairedCase[], options: RatioOptions): (RatioComparison | undefined)[] {
  const withRaw = cases.map((c, i) => ({ c, i })).filter(({ c }) => c.raw);
  const adjusted = applyFdr(withRaw.map(({ c }) => c.raw!), { alpha: 1 - options.confidence });
  const out: (RatioComparison | undefined)[] = cases.map(() => undefined);
  withRaw.forEach(({ i }, k) => (out[i] = adjusted[k]!));
  return out;
}

/** Geometric mean of the ratios over the compared cases that did the same work (fewer than 2: none). */
export function geomeanOf(cases: readonly PairedCase[], options: RatioOptions, pairing: 'paired' | 'unpaired'): { ratio: number; ci: [number, number]; cases: number; excluded: number } | undefined {
  const usable = cases.filter((p) => p.raw && !p.digests);
  const excluded = cases.filter((p) => p.raw && p.digests).length;
  if (usable.length < 2) return undefined;
  const agg =
    pairing === 'paired'
      ? geometricMeanRatio(usable.map((p) => p.logRatios!), { confidence: options.confidence })
      : geometricMeanRatioUnpaired(usable.map((p) => p.logTimes!), { confidence: options.confidence });
  return { ratio: agg.geomean, ci: agg.ci, cases: agg.cases, excluded };
}

/**
 * Half-width of a ratio's CI relative to the ratio, its wider side
 * (0.02 = ±2%): the measure adaptive rounds stop on (stats' pairedStopping).
 */
export function ratioHalfWidth(c: Pick<Comparison, 'ratio' | 'ci'>): number {
  return Math.max(c.ci[1] / c.ratio - 1, 1 - c.ci[0] / c.ratio);
}
