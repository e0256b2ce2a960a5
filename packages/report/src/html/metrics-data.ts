/**
 * A case's engine metrics for the page: per variant, GC by kind per 1k ops,
 * GC time share, bytes/op and the heap at the end of sampling, with the
 * cells and change lines of `--metrics gc` (metrics.ts computes; this only
 * picks the results). And the case's memory view: the cells of `--metrics
 * memory` per variant (memory.ts computes).
 */
import type { CaseResult } from '@rtbench/core/schema';
import { METRICS_HEADERS, metricsCells, metricsChange, metricsRowCells, minorGcName, summarizeMetrics } from '../metrics.ts';
import { MEMORY_HEADERS, memoryRowCells, memoryRows } from '../memory.ts';

interface PageMetricsRow {
  variant: string;
  /** The cells under `headers`, as `--metrics gc` prints them ("n/a" where the runtime could not say). */
  cells: string[];
  /** Where the numbers came from, e.g. "node:v8 GCProfiler". */
  source?: string;
  /** Why cells read n/a (empty when none do). */
  note: string;
  /** Against its baseline (comparisons): "−37.0% time, scavenges 243 → 17 per 1k ops, …". */
  change?: string;
}

export interface PageCaseMetrics {
  headers: string[];
  rows: PageMetricsRow[];
}

export interface MetricsInput {
  variant: string;
  result: Pick<CaseResult, 'rounds'>;
  /** For a candidate arm: its baseline's result for the same case and the time ratio between them. */
  against?: { result: Pick<CaseResult, 'rounds'>; timeRatio?: number };
}

/** The case's metrics, or undefined when no variant recorded any (runs made before rtbench recorded them). */
export function caseMetrics(inputs: MetricsInput[]): PageCaseMetrics | undefined {
  const summaries = inputs.map((input) => ({ input, summary: summarizeMetrics(input.result) }));
  if (!summaries.some((s) => s.summary.roundsWithMetrics > 0)) return undefined;
  return {
    headers: [...METRICS_HEADERS],
    rows: summaries.map(({ input, summary }): PageMetricsRow => {
      const base = input.against ? summarizeMetrics(input.against.result) : undefined;
      return {
        variant: input.variant,
        cells: metricsRowCells(summary),
        ...(summary.source !== undefined ? { source: summary.source } : {}),
        note: metricsCells(summary).note,
        ...(base ? { change: metricsChange(input.against!.timeRatio, base, summary, minorGcName(base.source)) } : {}),
      };
    }),
  };
}

/** The case's memory view (the cells of `--metrics memory`), or undefined when no variant's memory was read (runs saved before rtbench read it). */
export function caseMemory(inputs: readonly { variant: string; result: Pick<CaseResult, 'rounds' | 'memory'> }[]): PageCaseMetrics | undefined {
  if (!inputs.some((input) => input.result.memory !== undefined)) return undefined;
  const rows = memoryRows({ results: inputs.map((input) => ({ status: 'ok', failures: [], ...input.result, caseId: '', variantId: input.variant })) as CaseResult[] });
  return {
    headers: [...MEMORY_HEADERS],
    rows: rows.map((row) => ({ variant: row.variantId, cells: memoryRowCells(row), note: row.reasons.join('; ') })),
  };
}
