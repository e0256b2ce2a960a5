/**
 * Whether a cell's figure is a property of its case and runtime (bench
 * --self-check): each cell of a table held against the same case on the
 * same runtime alone (runs of that runtime only: each case has processes of
 * its own, so no other case and no other runtime shares its machine time)
 * and against a long loop (a fresh process calling the case back to back,
 * its figure time over calls: what a long-running program pays). A cell
 * whose table ÷ alone lies outside 1 ± ALONE_TOLERANCE with 95% confidence,
 * its whole interval out there, carries its company; one whose whole
 * interval lies inside is within; one whose interval reaches across a bound
 * is undecided.
 *
 * The interval holds the minutes between runs, not only the processes of
 * one run. Two tables of the same cases minutes apart differ by more than
 * their processes' spread says (the floor in docs/measurements/independence.md):
 * each cell × run has a level of its own, which an interval over one table's
 * and one alone run's processes misses, so such an interval marks cells for
 * the drift between the runs. So each runtime alone is measured in halves,
 * one before the table and one after, in mirrored order (the first
 * runtime's halves outermost): a steady drift falls on both sides of the
 * table and cancels in the halves' mean, and the spread between the halves
 * measures what is left, the between-run variance, which the interval then
 * carries (a random-effects interval: halvesSpread, aloneRatio).
 *
 * How many processes a half takes is designed from the first half's own
 * spread (halfDesign): the halves' process spread is the one part of the
 * interval that more processes alone narrow; the table's processes and the
 * drift between runs are not.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { pairable } from '@rtbench/measurer-records/readers';
import { MIN_UNITS, meanOf, median, normalQuantile, pooledVariance, studentTQuantile, sumOfComponents, summarizeArm, type VarianceComponent } from '@rtbench/stats';
import { machineStatesDiffer } from './machine-state.ts';

/** A table's cell may read this far from its case alone (±10%) before its company is said to move it. */
export const ALONE_TOLERANCE = 0.1;
/** An allocating case in a table may read this far from a long loop of it (±20%): a loop also pays what the collector does between samples. */
export const LOOP_TOLERANCE = 0.2;
/** The confidence of a cell's table ÷ alone interval. */
export const ALONE_CONFIDENCE = 0.95;

/**
 * How a cell with an interval reads beside its case alone: `company`, the
 * whole interval outside 1 ± ALONE_TOLERANCE; `within`, the whole interval
 * inside; `undecided`, the interval reaching across 0.9 or 1.1 (the check
 * cannot tell, and does not say within).
 */
export type AloneReading = 'company' | 'within' | 'undecided';

/** One cell's three figures, ns per call, and what they say. */
export interface CompanyRow {
  caseId: string;
  variantId: string;
  /** The table's headline: the median over processes. */
  tableNs: number;
  /** The same case on its runtime alone: the median over the processes of every run alone; absent where no run alone has a figure for it. */
  aloneNs?: number;
  /** Table ÷ alone (aloneRatio), where the case has a figure alone. */
  alone?: AloneRatio;
  /** A long loop's time over calls: per process the mean of its back-to-back samples, the median over processes. */
  loopNs?: number;
  /** What the interval says (AloneReading), where the cell has one and the machine was alike in the runs. */
  reading?: AloneReading;
  /** The table's figure depends on what ran beside it: reading `company`. */
  company: boolean;
  /**
   * The runs met different machine states (other work beside them), in
   * one line: their absolute figures then follow the machine, and a cell
   * apart from its case alone is not said to carry its company.
   */
  machineMoved?: string;
  /** The table's figure is more than LOOP_TOLERANCE from the long loop's. */
  apartFromLoop: boolean;
}

/** A long loop's figure of a case × variant: each process's mean per call over its back-to-back samples, the median over processes. */
export function loopFigure(result: RunRecord['results'][number]): number | undefined {
  const means = result.rounds.filter((r) => r.samples.length > 0).map((r) => r.samples.reduce((sum, x) => sum + x, 0) / r.samples.length);
  return means.length ? median(means) : undefined;
}

/** A cell's table ÷ alone and its interval (aloneRatio). */
export interface AloneRatio {
  ratio: number;
  /** Absent with fewer than MIN_UNITS processes in the table or alone, or with fewer than two runs alone (nothing then measures the drift between runs). */
  ci?: readonly [number, number];
  /** How far its runtime's halves alone scatter, a standard deviation on the log scale pooled over the table's cases (halvesSpread): what the interval carries for the minutes between runs; absent without an interval. */
  betweenRuns?: number;
}

type Result = RunRecord['results'][number];

/**
 * The log of each process's figure of a result, as the headline reads it
 * (its median, or its mean where the samples are read by the mean): as the
 * run recorded them with its headline, else from its rounds.
 */
function logProcessFigures(result: Result): number[] {
  const taken = result.rounds.filter((r) => r.samples.length > 0);
  const figures = result.stats?.processMedians ?? (taken.length ? summarizeArm(taken.map(pairable)).processMedians : []);
  return figures.filter((x) => x > 0).map((x) => Math.log(x));
}

/** A cell's log process figures: the table's, and each half alone's that has any (the processes of its runs together). */
interface CellLogs {
  table: number[];
  halves: number[][];
}

/** Whether a cell can take part in an interval: MIN_UNITS processes in the table, and two runs alone or more with a figure. */
function hasRuns(cell: CellLogs): boolean {
  return cell.table.length >= MIN_UNITS && cell.halves.length >= 2;
}

/**
 * How far a runtime's halves alone scatter: per cell the sample variance of
 * its halves' means, pooled over its cells (one degree of freedom a cell
 * with two halves: too few alone). A half's mean scatters by the
 * between-run variance and by its processes' spread; the spread is taken
 * as it comes, not estimated apart and subtracted, so it never reads
 * narrower than the runs are (subtracting it, cells whose processes scatter
 * much drag the estimate below what the quiet cells drift: simulated, marks
 * on 16% of cells a true 1.1× apart). One spread per runtime: runtimes
 * need not drift alike. Undefined where no cell has runs.
 */
function halvesSpread(cells: readonly CellLogs[]): VarianceComponent | undefined {
  return pooledVariance(cells.filter(hasRuns).map((c) => c.halves.map(meanOf)));
}

/**
 * A cell's table ÷ alone: the table's processes' geometric mean over the
 * mean of its halves' geometric means (each half weighs the same, so a
 * steady drift cancels), with its ALONE_CONFIDENCE interval. The unit is
 * the process within a run and the run above it: the table's level is one
 * draw of the between-run variance and its processes' mean carries their
 * spread; the halves' mean carries 1/h of a half's scatter (halvesSpread).
 * Its variance is the table's process spread over its processes plus
 * (1 + 1/h) times the halves' spread, which also bounds the between-run
 * variance the table's level carries; Student's t with Welch–Satterthwaite
 * degrees of freedom (sumOfComponents). A t interval on logs holds its level with the few
 * processes and runs a check has, where a bootstrap over so few has too
 * few distinct resamples. Undefined where the table or every run alone
 * lacks a figure.
 */
function aloneRatio(cell: CellLogs, spread: VarianceComponent | undefined): AloneRatio | undefined {
  if (!cell.table.length || !cell.halves.length) return undefined;
  const estimate = meanOf(cell.table) - meanOf(cell.halves.map(meanOf));
  const ratio = Math.exp(estimate);
  if (!spread || !hasRuns(cell)) return { ratio };
  const tableSpread = pooledVariance([cell.table])!;
  const sum = sumOfComponents([
    { variance: tableSpread.variance / cell.table.length, df: tableSpread.df },
    { variance: spread.variance * (1 + 1 / cell.halves.length), df: spread.df },
  ]);
  const variance = sum.variance;
  // No spread at all: the interval has no width.
  const df = sum.df ?? 1;
  const half = studentTQuantile(1 - (1 - ALONE_CONFIDENCE) / 2, df) * Math.sqrt(variance);
  return { ratio, ci: [Math.exp(estimate - half), Math.exp(estimate + half)], betweenRuns: Math.sqrt(spread.variance) };
}

/** What a ratio's interval says of ±ALONE_TOLERANCE (AloneReading); undefined without an interval. */
function readingOf(r: AloneRatio | undefined): AloneReading | undefined {
  if (r?.ci === undefined) return undefined;
  const [lo, hi] = r.ci;
  if (lo > 1 + ALONE_TOLERANCE || hi < 1 - ALONE_TOLERANCE) return 'company';
  return lo >= 1 - ALONE_TOLERANCE && hi <= 1 + ALONE_TOLERANCE ? 'within' : 'undecided';
}

/** The result of a case × variant that has a figure. */
function figured(run: RunRecord | undefined, caseId: string, variantId: string): Result | undefined {
  return run?.results.find((r) => r.caseId === caseId && r.variantId === variantId && r.stats !== undefined);
}

/** The first way the machine differed between the table and a run alone, in one line. */
function machineMoved(table: RunRecord, runs: readonly RunRecord[], variantId: string): string | undefined {
  for (const [i, run] of runs.entries()) {
    const name = runs.length > 1 ? `${variantId} alone (${i + 1} of ${runs.length})` : `${variantId} alone`;
    const moved = machineStatesDiffer(table.host?.machine?.points, run.host?.machine?.points, table.host?.cores ?? 1, ['the table', name]);
    if (moved) return moved;
  }
  return undefined;
}

/** One half alone: a run of one variant, or the runs that together make its half on one side of the table (the first and its top-up: halfDesign). */
export type AloneHalf = RunRecord | readonly RunRecord[];

const runsOf = (half: AloneHalf): readonly RunRecord[] => (Array.isArray(half) ? half : [half as RunRecord]);

/**
 * Every cell of the table with a figure, beside its case alone (`alone`:
 * the halves of each variant, matched by variant id, in any order) and its
 * long loop (`loop`, one run holding every variant).
 */
export function companyRows(table: RunRecord, alone: readonly AloneHalf[], loop: RunRecord | undefined): CompanyRow[] {
  const cells = table.results.filter((r) => r.stats).map((result) => {
    const halves = alone.map(runsOf).filter((runs) => runs.some((run) => run.variants.some((v) => v.id === result.variantId)));
    const byHalf = halves.map((runs) => runs.flatMap((run) => figured(run, result.caseId, result.variantId) ?? []));
    const results = byHalf.flat();
    const logs = { table: logProcessFigures(result), halves: byHalf.map((rs) => rs.flatMap(logProcessFigures)).filter((h) => h.length > 0) };
    return { result, runs: halves.flat(), results, logs };
  });
  const spreads = new Map([...new Set(cells.map((c) => c.result.variantId))].map((v) => [v, halvesSpread(cells.filter((c) => c.result.variantId === v).map((c) => c.logs))]));
  return cells.map(({ result, runs, results, logs }): CompanyRow => {
    const { caseId, variantId } = result;
    const ratio = aloneRatio(logs, spreads.get(variantId));
    const loopResult = figured(loop, caseId, variantId);
    const loopNs = loopResult ? loopFigure(loopResult) : undefined;
    const moved = machineMoved(table, runs, variantId);
    const tableNs = result.stats!.median;
    const aloneFigures = results.flatMap((r) => r.stats?.processMedians ?? [r.stats!.median]);
    const reading = moved === undefined ? readingOf(ratio) : undefined;
    return {
      caseId,
      variantId,
      tableNs,
      ...(results.length ? { aloneNs: results.length === 1 ? results[0]!.stats!.median : median(aloneFigures), ...(ratio ? { alone: ratio } : {}) } : {}),
      ...(loopNs !== undefined ? { loopNs } : {}),
      ...(reading ? { reading } : {}),
      company: reading === 'company',
      ...(moved ? { machineMoved: moved } : {}),
      apartFromLoop: loopNs !== undefined && Math.abs(tableNs / loopNs - 1) > LOOP_TOLERANCE,
    };
  });
}

/**
 * The standard error of a cell's log table ÷ alone that decides a cell at 1
 * within ±ALONE_TOLERANCE at ALONE_CONFIDENCE (the normal quantile: the
 * limit of many degrees of freedom): about 0.049.
 */
export const DECIDING_SE = Math.log(1 + ALONE_TOLERANCE) / normalQuantile(1 - (1 - ALONE_CONFIDENCE) / 2);

/** How many processes each half alone of a runtime takes, and why. */
export interface HalfDesign {
  /** Processes a case the first run took (the most of any case). */
  taken: number;
  /** Processes a case in each half: what the spread asks, between what the first run took and the bound. */
  processes: number;
  /** What the spread asks before the bound (at least 1). */
  wanted: number;
  /** The log sd of a process about its run's level, pooled over the runtime's cases; absent where no case had two processes. */
  spread?: number;
}

/**
 * How many processes each half alone of a runtime takes, from the first
 * run's own processes (a two-stage design: the first run's spread sizes the
 * rest). A cell's variance on the log scale is the table's process spread
 * over its processes plus 1.5 times a half mean's (halvesSpread: the
 * between-run variance and the halves' process variance over the
 * processes a half has); the halves' process part, 1.5 σ²/p, is what more
 * processes alone narrow, and it is given half of DECIDING_SE²: p = 3σ² /
 * DECIDING_SE², at least what the first run took and at most `bound`. The
 * rest of DECIDING_SE² is the table's processes' and the drift's, which
 * no count alone narrows: a cell still undecided then says so.
 */
export function halfDesign(first: RunRecord, variantId: string, bound: number): HalfDesign {
  const groups = first.results.filter((r) => r.variantId === variantId && r.stats).map(logProcessFigures);
  const taken = Math.max(0, ...groups.map((g) => g.length));
  const pooled = pooledVariance(groups);
  if (!pooled) return { taken, processes: taken, wanted: taken };
  const wanted = Math.max(1, Math.ceil((3 * pooled.variance) / DECIDING_SE ** 2));
  return { taken, processes: Math.max(taken, Math.min(wanted, bound)), wanted, spread: Math.sqrt(pooled.variance) };
}
