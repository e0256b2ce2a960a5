/**
 * Whether a cell's figure is a property of its case and runtime (bench
 * --self-check): each cell of a table held against the same case on the
 * same runtime alone (a run of that runtime only: each case has processes
 * of its own, so no other case and no other runtime shares its machine
 * time) and against a long loop (a fresh process calling the case back to
 * back, its figure time over calls: what a long-running program pays). A
 * cell that reads apart from its case alone, beyond both cells' intervals,
 * carries its company.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { median } from '@rtbench/stats';
import { machineStatesDiffer } from './machine-state.ts';

/** A table's cell may read this far from its case alone (±10%) before its company is said to move it. */
export const ALONE_TOLERANCE = 0.1;
/** An allocating case in a table may read this far from a long loop of it (±20%): a loop also pays what the collector does between samples. */
export const LOOP_TOLERANCE = 0.2;

/** One cell's three figures, ns per call, and what they say. */
export interface CompanyRow {
  caseId: string;
  variantId: string;
  /** The table's headline: the median over processes, and its 95% interval where the run had one. */
  tableNs: number;
  tableCi?: readonly [number, number];
  /** The same case on its runtime alone; absent where that run has no figure for it. */
  aloneNs?: number;
  aloneCi?: readonly [number, number];
  /** A long loop's time over calls: per process the mean of its back-to-back samples, the median over processes. */
  loopNs?: number;
  /** The table's figure depends on what ran beside it: table ÷ alone outside ±ALONE_TOLERANCE, the two intervals apart, and the machine alike in both runs. */
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

/** Two intervals that do not overlap (absent ones overlap everything: without an interval nothing is said to be apart). */
function apart(a: readonly [number, number] | undefined, b: readonly [number, number] | undefined): boolean {
  return a !== undefined && b !== undefined && (a[1] < b[0] || b[1] < a[0]);
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
    const aloneStats = figured(aloneRun, caseId, variantId)?.stats;
    const loopResult = figured(loop, caseId, variantId);
    const loopNs = loopResult ? loopFigure(loopResult) : undefined;
    const off = aloneStats ? Math.abs(stats.median / aloneStats.median - 1) > ALONE_TOLERANCE : false;
    const machineMoved = aloneRun ? machineStatesDiffer(table.host?.machine?.points, aloneRun.host?.machine?.points, table.host?.cores ?? 1, ['the table', `${variantId} alone`]) : undefined;
    rows.push({
      caseId,
      variantId,
      tableNs: stats.median,
      ...(stats.ci ? { tableCi: stats.ci } : {}),
      ...(aloneStats ? { aloneNs: aloneStats.median, ...(aloneStats.ci ? { aloneCi: aloneStats.ci } : {}) } : {}),
      ...(loopNs !== undefined ? { loopNs } : {}),
      company: off && apart(stats.ci, aloneStats?.ci) && machineMoved === undefined,
      ...(machineMoved ? { machineMoved } : {}),
      apartFromLoop: loopNs !== undefined && Math.abs(stats.median / loopNs - 1) > LOOP_TOLERANCE,
    });
  }
  return rows;
}
