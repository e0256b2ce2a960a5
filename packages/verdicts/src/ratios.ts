/**
 * Ratios of one variant's cost to a baseline's, per case: the one analysis
 * behind the bench table's relative column, a comparison's verdicts and the
 * CI gate, for times and instruction counts alike. Paired (one run): round i
 * of every variant of a case ran together (a lockstep set, or fresh processes
 * back to back), so its ratio cancels what they shared; stats' pairRounds makes
 * the pairs, and rounds served by the same processes are one unit (the process
 * pair). Unpaired (two saved runs): each run's processes are its arm's units.
 */
import { headlineSamples } from '@rtbench/core/cpu-per-request';
import type { CaseResult, MaskedAnswer, Metric, RunRecord, WorkDifference } from '@rtbench/core/schema';
import { asCost, TIME_PER_OP } from '@rtbench/core/metric';
import { applyEbh, applyFdr, armMoments, classify, compareMoments, comparePaired, pairRounds, processesOf, compareUnpaired, geometricMeanRatio, geometricMeanRatioUnpaired, median, pValueOf, welchOfMoments, DEFAULT_THRESHOLD, type ArmMoments, type CaseValues, type Comparison } from '@rtbench/stats';
import { counted, firstLine } from '@rtbench/core/words';
import { answersDifference, standingRound } from '@rtbench/core/same-work';
import { pairable, requestAnswers, requestsOf } from '@rtbench/measurer-records/readers';
import { workAnswers } from './work-answers.ts';

/** A paired (or, between two saved runs, unpaired) ratio with its verdict. */
export type RatioComparison = Comparison & {
  /** Benjamini–Hochberg q-value across every comparison in the view. */
  qValue: number;
};

/** One arm's figure in a comparison. */
export interface ArmStat {
  /** Median of the per-round medians, ns per operation. */
  median: number;
  rounds: number;
}

/** A geometric mean of ratios over cases, and the cases it leaves out (geomeanOf). */
export interface Geomean {
  ratio: number;
  ci: [number, number];
  cases: number;
  /** Compared cases left out: the arms did different work (digests differ). */
  excluded: number;
  /** Compared cases left out: an arm did no work the harness could see (report's views/without-work.ts). */
  withoutWork: number;
}

export interface RatioOptions {
  /** Relative noise threshold, e.g. 0.01 = 1%. */
  threshold: number;
  /** Confidence of the intervals; the FDR level is 1 - confidence. */
  confidence: number;
  /**
   * How a paired table's intervals are read: 'fixed' (absent), Student t at
   * the Benjamini–Hochberg level, for rounds planned up front or added for
   * precision; 'anytime', confidence sequences at the e-BH level, for a run
   * whose cells stopped when decided (stats' applyEbh; docs/comparing.md,
   * "Stopping when decided").
   */
  design?: 'fixed' | 'anytime';
}

export const DEFAULT_RATIO_OPTIONS: RatioOptions = { threshold: DEFAULT_THRESHOLD, confidence: 0.95 };

/** How a run's paired table is read: on confidence sequences when its cases stopped when decided, else fixed-design. */
export function designOfRun(options: Pick<RunRecord['options'], 'adaptive'>): 'fixed' | 'anytime' {
  return options.adaptive?.rule === 'decided' ? 'anytime' : 'fixed';
}

/** One candidate against the baseline on one case, before the FDR step. */
export interface PairedCase {
  baseline?: ArmStat;
  candidate?: ArmStat;
  /** The two did different work (digests differ), with where their masked answers first differ (a request case). */
  digests?: { baseline: string; candidate: string; where?: WorkDifference };
  /** An arm did no work the harness could see: its ratio compares empty calls (views/without-work.ts). */
  withoutWork?: true;
  /** Why there is no comparison, or what the reader should know about it. */
  note?: string;
  raw?: Comparison;
  /** Paired: per-set log ratios and their units; unpaired: each arm's log values and units (for the geomean). */
  logRatios?: CaseValues;
  logTimes?: { baseline: CaseValues; candidate: CaseValues };
}

/** Per-round medians keyed by round index (the pairing key). */
export function roundMedians(result: CaseResult | undefined): Map<number, number> {
  const out = new Map<number, number>();
  // A request round saved with phases: its steady requests (core headlineSamples).
  // A round cut short after its first request has no steady requests, and no median.
  for (const r of result?.rounds ?? []) {
    const headline = headlineSamples(r.samples, requestsOf(r)?.phases);
    if (headline.length) out.set(r.round, median([...headline]));
  }
  return out;
}

/**
 * An arm's median: of its round medians (`steady`, roundMedians). When every
 * round was cut short after its first request (a time-out in flight), none
 * has steady requests: the median of the rounds' own medians stands in.
 */
function armMedian(result: CaseResult, steady: ReadonlyMap<number, number> = roundMedians(result)): number {
  if (steady.size) return median([...steady.values()]);
  return median(result.rounds.filter((r) => r.samples.length).map((r) => median(r.samples)));
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

function failedRounds(r: CaseResult | undefined): number {
  return r?.failures.filter((f) => f.kind !== 'unsupported' && f.kind !== 'digest-mismatch' && f.kind !== 'warning').length ?? 0;
}

const positive = (xs: number[]): boolean => xs.every((x) => x > 0);
const ZERO_NOTE = 'a round median is 0 ns (below the clock resolution): no ratio';

/**
 * What of an arm's work its comparisons read: the digest of its standing
 * round (and that digest rounded), and a request case's masked answers. Kept
 * apart from the rounds so that a history read from a results store compares
 * points without their samples.
 */
export interface ArmWork {
  variantId: string;
  digest?: string;
  rounded?: string;
  answers?: readonly MaskedAnswer[];
  withoutWork?: true;
}

function armWork(r: CaseResult): ArmWork {
  const standing = standingRound(r.rounds, requestAnswers);
  const answers = workAnswers(r.rounds);
  return {
    variantId: r.variantId,
    ...(standing?.digest.hash !== undefined ? { digest: standing.digest.hash } : {}),
    ...(standing?.digest.rounded !== undefined ? { rounded: standing.digest.rounded } : {}),
    ...(answers ? { answers } : {}),
    ...(r.withoutWork ? { withoutWork: true as const } : {}),
  };
}

/**
 * Whether the arms' digests differ as different work: request cases' masked
 * answers that differ only where a process's responses changed are the same
 * work (core's same-work), as the run's record judged them.
 */
function differentWork(baseline: ArmWork, candidate: ArmWork): PairedCase['digests'] {
  const [db, dc] = [baseline.digest, candidate.digest];
  if (!db || !dc || db === dc) return undefined;
  // Values that agree once rounded (fractions' last bits) are the same work, as the run's record judged them.
  const [rb, rc] = [baseline.rounded, candidate.rounded];
  if (rb !== undefined && rb === rc) return undefined;
  const [ab, ac] = [baseline.answers, candidate.answers];
  const where = ab && ac ? answersDifference({ [baseline.variantId]: ab, [candidate.variantId]: ac }) : undefined;
  if (ab && ac && !where) return undefined;
  return { baseline: db, candidate: dc, ...(where ? { where } : {}) };
}

/** What the two arms' work says about their ratio: different work (digests), or an arm without work. */
function noteWork(out: PairedCase, baseline: ArmWork, candidate: ArmWork): void {
  const digests = differentWork(baseline, candidate);
  if (digests) out.digests = digests;
  if (baseline.withoutWork || candidate.withoutWork) out.withoutWork = true;
}

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
  const { rounds, baseline: b, candidate: c, units } = pairRounds(baseline!.rounds.map(pairable), candidate!.rounds.map(pairable), (m) => asCost(m, metric));
  const out: PairedCase = {
    baseline: { median: armMedian(baseline!, mb), rounds: mb.size },
    candidate: { median: armMedian(candidate!, mc), rounds: mc.size },
  };
  noteWork(out, armWork(baseline!), armWork(candidate!));
  if (!rounds.length) return { ...out, note: 'no round in which both arms finished' };
  if (!positive(b) || !positive(c)) return { ...out, note: ZERO_NOTE };
  const lost = failedRounds(baseline) + failedRounds(candidate);
  if (lost) out.note = `${counted(lost, 'failed round')}; compared ${rounds.length} pairs`;
  // Sets served by the same processes are one unit: the interval counts process pairs, not sets.
  const raw = comparePaired(b, c, units ? { ...options, units } : options);
  // For the geomean, unlabelled rounds of one index are taken as one unit across cases: warm processes serve every case of a set.
  return { ...out, raw, logRatios: { values: b.map((x, i) => Math.log(c[i]! / x)), units: units ?? rounds.map((r) => `round ${r}`) } };
}

/**
 * One run's arm of an unpaired comparison, as much of its result as the
 * comparison reads: each round's cost (the median of its samples), the
 * process that served each round, the median of its round medians, and its
 * work. A results store keeps it, so a history compares runs without their
 * samples.
 */
export interface UnpairedArm {
  /** Per round with samples: the median of its samples as a cost (lower is better). */
  costs: number[];
  /** The process that served each of those rounds (absent: each round its own). */
  processes?: number[];
  /** The median of the round medians. */
  median: number;
  work: ArmWork;
}

/** `steady`: the result's roundMedians, when the caller has them. */
export function unpairedArm(r: CaseResult, metric: Metric = TIME_PER_OP, steady: ReadonlyMap<number, number> = roundMedians(r)): UnpairedArm {
  const usable = r.rounds.filter((x) => x.samples.length);
  const processes = processesOf(usable.map(pairable));
  return { costs: usable.map((x) => asCost(median(x.samples), metric)), ...(processes ? { processes } : {}), median: armMedian(r, steady), work: armWork(r) };
}

/** The unpaired ratio of two runs' arms (a: baseline, b: candidate), both usable. */
export function compareArms(a: UnpairedArm, b: UnpairedArm, options: RatioOptions): PairedCase {
  const [x, y] = [a.costs, b.costs];
  const [ua, ub] = [a.processes, b.processes];
  const out: PairedCase = { baseline: { median: a.median, rounds: x.length }, candidate: { median: b.median, rounds: y.length } };
  noteWork(out, a.work, b.work);
  if (!positive(x) || !positive(y)) return { ...out, note: ZERO_NOTE };
  const raw = compareUnpaired(x, y, { ...options, ...(ua ? { baselineUnits: ua } : {}), ...(ub ? { candidateUnits: ub } : {}) });
  return { ...out, raw, logTimes: { baseline: { values: x.map(Math.log), ...(ua ? { units: ua } : {}) }, candidate: { values: y.map(Math.log), ...(ub ? { units: ub } : {}) } } };
}

/**
 * What a history's comparison of neighbouring runs reads of an arm, made
 * once when its run is read and kept by a results store as a few columns: the
 * arm's median and rounds, its work, and the moments of its log costs over
 * its processes (stats' armMoments; absent when a round's cost is 0: no
 * ratio). Two summaries compare in constant time (compareSummaries), with
 * the comparison compareArms makes of the whole arms.
 */
export interface ArmSummary {
  median: number;
  rounds: number;
  moments?: ArmMoments;
  work: ArmWork;
}

export function armSummary(arm: UnpairedArm): ArmSummary {
  const logCosts = arm.costs.length && positive(arm.costs) ? { values: arm.costs.map(Math.log), ...(arm.processes ? { units: arm.processes } : {}) } : undefined;
  return { median: arm.median, rounds: arm.costs.length, ...(logCosts ? { moments: armMoments(logCosts) } : {}), work: arm.work };
}

/** compareArms of the arms these summaries are of (without the log values a geomean reads). */
export function compareSummaries(a: ArmSummary, b: ArmSummary, options: RatioOptions): PairedCase {
  const out: PairedCase = { baseline: { median: a.median, rounds: a.rounds }, candidate: { median: b.median, rounds: b.rounds } };
  noteWork(out, a.work, b.work);
  if (!a.moments || !b.moments) return { ...out, note: ZERO_NOTE };
  return { ...out, raw: compareMoments(a.moments, b.moments, options) };
}

/**
 * The p-value of compareSummaries' comparison where adjustAll counts it (both
 * arms have moments and did the same work), undefined where it does not;
 * no interval is read, so a history can put every neighbour comparison in
 * its FDR step and read only those it shows.
 */
export function summariesPValue(a: ArmSummary, b: ArmSummary): number | undefined {
  if (!a.moments || !b.moments || differentWork(a.work, b.work)) return undefined;
  return pValueOf(welchOfMoments(a.moments, b.moments));
}

/** The unpaired ratio of one case between two runs (a: baseline, b: candidate). */
export function unpairedCase(a: CaseResult | undefined, b: CaseResult | undefined, options: RatioOptions, label: (r: CaseResult) => string, metric: Metric = TIME_PER_OP): PairedCase {
  const why = unusableReason(label, a, b);
  if (why) return { note: why };
  return compareArms(unpairedArm(a!, metric), unpairedArm(b!, metric), options);
}

/** Every comparison given read at the table's adjusted level (stats' applyFdr); undefined where there was none. */
export function adjustAll(cases: readonly PairedCase[], options: RatioOptions): (RatioComparison | undefined)[] {
  // Different work has no verdict (nor a place in the family): its ratio compares different computations.
  const withRaw = cases.map((c, i) => ({ c, i })).filter(({ c }) => c.raw && !c.digests);
  const adjust = options.design === 'anytime' ? applyEbh : applyFdr;
  const adjusted = adjust(withRaw.map(({ c }) => c.raw!), { alpha: 1 - options.confidence });
  const out: (RatioComparison | undefined)[] = cases.map(() => undefined);
  withRaw.forEach(({ i }, k) => (out[i] = adjusted[k]!));
  return out;
}

/** Geometric mean of the ratios over the compared cases that did the same work and some work (fewer than 2: none). */
export function geomeanOf(cases: readonly PairedCase[], options: RatioOptions, pairing: 'paired' | 'unpaired'): (Geomean & { units: number }) | undefined {
  const usable = cases.filter((p) => p.raw && !p.digests && !p.withoutWork);
  const excluded = cases.filter((p) => p.raw && p.digests).length;
  const withoutWork = cases.filter((p) => p.raw && !p.digests && p.withoutWork).length;
  if (usable.length < 2) return undefined;
  const agg =
    pairing === 'paired'
      ? geometricMeanRatio(usable.map((p) => p.logRatios!), { confidence: options.confidence })
      : geometricMeanRatioUnpaired(usable.map((p) => p.logTimes!), { confidence: options.confidence });
  return { ratio: agg.geomean, ci: agg.ci, cases: agg.cases, units: agg.units, excluded, withoutWork };
}

/** The word a geomean's interval reads as, by the rule a ratio's does (stats' classify); undefined without a finite interval. */
export function geomeanVerdict(g: Pick<Geomean, 'ratio' | 'ci'>, threshold: number): Comparison['verdict'] | undefined {
  if (!(g.ratio > 0 && g.ci[0] > 0 && Number.isFinite(g.ci[1]))) return undefined;
  return classify(Math.log(g.ratio), [Math.log(g.ci[0]), Math.log(g.ci[1])], threshold);
}

/**
 * Half-width of a ratio's CI relative to the ratio, its wider side
 * (0.02 = ±2%): the measure adaptive rounds stop on (stats' pairedStopping).
 */
export function ratioHalfWidth(c: Pick<Comparison, 'ratio' | 'ci'>): number {
  return Math.max(c.ci[1] / c.ratio - 1, 1 - c.ci[0] / c.ratio);
}
