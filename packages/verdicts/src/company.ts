/**
 * Whether a cell's figure is a property of its case and runtime (bench
 * --self-check): each cell of a table held against the same case on the
 * same runtime alone (a run of that runtime only: each case has processes
 * of its own, so no other case and no other runtime shares its machine
 * time) and against a long loop (a fresh process calling the case back to
 * back, its figure time over calls: what a long-running program pays). A
 * cell whose table ÷ alone lies outside 1 ± ALONE_TOLERANCE with 95%
 * confidence, its whole interval over processes out there, carries its
 * company.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { pairable } from '@rtbench/measurer-records';
import { intervalAt, median, summarizeArm, welchInference } from '@rtbench/stats';
import { machineStatesDiffer } from './machine-state.ts';

/** A table's cell may read this far from its case alone (±10%) before its company is said to move it. */
export const ALONE_TOLERANCE = 0.1;
/** An allocating case in a table may read this far from a long loop of it (±20%): a loop also pays what the collector does between samples. */
export const LOOP_TOLERANCE = 0.2;
/** The confidence of a cell's table ÷ alone interval. */
export const ALONE_CONFIDENCE = 0.95;

/** One cell's three figures, ns per call, and what they say. */
export interface CompanyRow {
  caseId: string;
  variantId: string;
  /** The table's headline: the median over processes. */
  tableNs: number;
  /** The same case on its runtime alone; absent where that run has no figure for it. */
  aloneNs?: number;
  /** Table ÷ alone over processes (aloneRatio), where the case has a figure alone. */
  alone?: AloneRatio;
  /** A long loop's time over calls: per process the mean of its back-to-back samples, the median over processes. */
  loopNs?: number;
  /** The table's figure depends on what ran beside it: table ÷ alone's whole interval outside 1 ± ALONE_TOLERANCE, and the machine alike in both runs. */
  company: boolean;
  /**
   * The two runs met different machine states (other work beside them), in
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
  /** Absent with fewer than MIN_UNITS processes in either run. */
  ci?: readonly [number, number];
}

/**
 * The log of each process's figure of a result, as the headline reads it
 * (its median, or its mean where the samples are read by the mean): as the
 * run recorded them with its headline, else from its rounds.
 */
function logProcessFigures(result: RunRecord['results'][number]): number[] {
  const taken = result.rounds.filter((r) => r.samples.length > 0);
  const figures = result.stats?.processMedians ?? (taken.length ? summarizeArm(taken.map(pairable)).processMedians : []);
  return figures.filter((x) => x > 0).map((x) => Math.log(x));
}

/**
 * A cell's table ÷ alone: the ratio of its processes' geometric means (the
 * table's over the run alone's) with its ALONE_CONFIDENCE interval, Welch's
 * t on the log process figures (stats units.ts welchInference). The process
 * is the unit of replication (samples of one process share its heap and its
 * tier-up), the two runs are not paired, and a run has a handful of
 * processes: a t interval on logs holds its level with five or six units a
 * side where a bootstrap over so few has too few distinct resamples.
 * Undefined where either run has no process with a figure.
 */
function aloneRatio(table: RunRecord['results'][number], alone: RunRecord['results'][number]): AloneRatio | undefined {
  const [a, t] = [logProcessFigures(alone), logProcessFigures(table)];
  if (!a.length || !t.length) return undefined;
  const inference = welchInference({ values: a }, { values: t });
  const ci = intervalAt(inference, ALONE_CONFIDENCE);
  return { ratio: Math.exp(inference.estimate), ...(ci ? { ci: [Math.exp(ci[0]), Math.exp(ci[1])] as const } : {}) };
}

/** Whether a ratio's whole interval lies outside 1 ± ALONE_TOLERANCE: the company moved the cell by more than the tolerance, at ALONE_CONFIDENCE. */
function outsideTolerance(r: AloneRatio | undefined): boolean {
  return r?.ci !== undefined && (r.ci[0] > 1 + ALONE_TOLERANCE || r.ci[1] < 1 - ALONE_TOLERANCE);
}

/** The result of a case × variant that has a figure. */
function figured(run: RunRecord | undefined, caseId: string, variantId: string): RunRecord['results'][number] | undefined {
  return run?.results.find((r) => r.caseId === caseId && r.variantId === variantId && r.stats !== undefined);
}

/**
 * Every cell of the table with a figure, beside its case alone (the run of
 * its variant alone: `alone`, one run per variant, matched by variant id)
 * and its long loop (`loop`, one run holding every variant).
 */
export function companyRows(table: RunRecord, alone: readonly RunRecord[], loop: RunRecord | undefined): CompanyRow[] {
  const rows: CompanyRow[] = [];
  for (const result of table.results) {
    const stats = result.stats;
    if (!stats) continue;
    const { caseId, variantId } = result;
    const aloneRun = alone.find((run) => run.variants.some((v) => v.id === variantId));
    const aloneResult = figured(aloneRun, caseId, variantId);
    const ratio = aloneResult ? aloneRatio(result, aloneResult) : undefined;
    const loopResult = figured(loop, caseId, variantId);
    const loopNs = loopResult ? loopFigure(loopResult) : undefined;
    const machineMoved = aloneRun ? machineStatesDiffer(table.host?.machine?.points, aloneRun.host?.machine?.points, table.host?.cores ?? 1, ['the table', `${variantId} alone`]) : undefined;
    rows.push({
      caseId,
      variantId,
      tableNs: stats.median,
      ...(aloneResult?.stats ? { aloneNs: aloneResult.stats.median, ...(ratio ? { alone: ratio } : {}) } : {}),
      ...(loopNs !== undefined ? { loopNs } : {}),
      company: outsideTolerance(ratio) && machineMoved === undefined,
      ...(machineMoved ? { machineMoved } : {}),
      apartFromLoop: loopNs !== undefined && Math.abs(stats.median / loopNs - 1) > LOOP_TOLERANCE,
    });
  }
  return rows;
}
