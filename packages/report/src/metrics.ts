/**
 * The GC view's numbers and cells, from the engine metrics saved per round:
 * collections by kind per 1,000 operations, GC pause time as a share of the
 * sampling time, bytes allocated per operation, and the heap's state at the
 * end of sampling. Pure: a run (or a case result) in, numbers and strings out.
 *
 * Per 1,000 operations (not per second) so that variants that run at
 * different speeds compare by the work done: a faster variant that does the
 * same work with fewer scavenges shows fewer per 1k ops.
 */
import { formatBytes as formatBytesOf } from '@rtbench/core/call-tree';
import type { EngineMetrics } from '@rtbench/core/engine-metrics';
import type { CaseResult, RoundRecord, RunRecord } from '@rtbench/core/schema';
import { formatChange, formatThreshold, percentText } from './format.ts';

type GcKind = 'minor' | 'major' | 'incremental';

export interface MetricsSummary {
  /** Rounds with metrics / all rounds with samples. */
  rounds: number;
  roundsWithMetrics: number;
  /** Where the numbers came from (the first round's source). */
  source?: string;
  /** Collections per 1,000 operations, by kind; absent when the runtime could not say. */
  per1k?: Partial<Record<GcKind, number>>;
  /** GC pause time over sampling time (0–1). */
  gcShare?: number;
  bytesPerOp?: number;
  /** True when any round's allocation was derived rather than counted by the engine. */
  allocationEstimate?: boolean;
  /** Medians over rounds of the heap at the end of sampling (bytes). */
  heap?: { youngSizeBytes?: number; youngPeakSizeBytes?: number; oldUsedBytes?: number; heapUsedBytes?: number; externalBytes?: number };
  /** Why a part is n/a: the first reason a round gave (or that no round recorded metrics). */
  reasons: Partial<Record<'gc' | 'allocation' | 'heap', string>>;
}

/** Operations in a round's sampling phase: what its metrics cover. */
function samplingIterations(round: RoundRecord): number {
  return round.samples.length * round.iterationsPerSample;
}

/** Sampling time of a round in ms (the sum of its samples' batches). */
function samplingMs(round: RoundRecord): number {
  return (round.samples.reduce((sum, s) => sum + s, 0) * round.iterationsPerSample) / 1e6;
}

function median(values: number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function gcPauseMs(gc: NonNullable<EngineMetrics['gc']>): number | undefined {
  const kinds = [gc.minor, gc.major, gc.incremental, gc.other].filter((k) => k !== undefined);
  return kinds.every((k) => k.timeMs !== undefined) ? kinds.reduce((sum, k) => sum + (k.timeMs ?? 0), 0) : undefined;
}

/**
 * Sums over the rounds that have each part, so one process without a figure
 * does not erase the others; a part no round has stays absent, with a reason.
 */
export function summarizeMetrics(result: Pick<CaseResult, 'rounds'>): MetricsSummary {
  const rounds = result.rounds.filter((r) => r.samples.length > 0);
  const measured = rounds.filter((r): r is RoundRecord & { metrics: EngineMetrics } => r.metrics !== undefined);
  const summary: MetricsSummary = { rounds: rounds.length, roundsWithMetrics: measured.length, reasons: {} };
  if (!measured.length) {
    const why = rounds.length ? 'no metrics recorded (a run made before rtbench recorded them, or a runtime without a probe)' : 'no rounds';
    summary.reasons = { gc: why, allocation: why, heap: why };
    return summary;
  }
  summary.source = measured[0]!.metrics.source;
  const reason = (part: 'gc' | 'allocation' | 'heap'): string =>
    measured.map((r) => r.metrics.unavailable?.[part]).find((r) => r !== undefined) ?? 'not reported by this runtime';

  const withGc = measured.filter((r) => r.metrics.gc !== undefined);
  if (withGc.length) {
    const ops = withGc.reduce((sum, r) => sum + samplingIterations(r), 0);
    const per1k: Partial<Record<GcKind, number>> = {};
    for (const kind of ['minor', 'major', 'incremental'] as const) {
      const counted = withGc.filter((r) => r.metrics.gc![kind] !== undefined);
      const kindOps = counted.reduce((sum, r) => sum + samplingIterations(r), 0);
      if (counted.length && kindOps > 0) per1k[kind] = (counted.reduce((sum, r) => sum + r.metrics.gc![kind]!.count, 0) / kindOps) * 1000;
    }
    summary.per1k = per1k;
    const timed = withGc.map((r) => ({ pause: gcPauseMs(r.metrics.gc!), ms: samplingMs(r) })).filter((t) => t.pause !== undefined);
    const totalMs = timed.reduce((sum, t) => sum + t.ms, 0);
    if (timed.length && totalMs > 0 && ops > 0) summary.gcShare = timed.reduce((sum, t) => sum + t.pause!, 0) / totalMs;
  } else summary.reasons.gc = reason('gc');

  const withAllocation = measured.filter((r) => r.metrics.allocation !== undefined);
  const allocationOps = withAllocation.reduce((sum, r) => sum + samplingIterations(r), 0);
  if (withAllocation.length && allocationOps > 0) {
    summary.bytesPerOp = withAllocation.reduce((sum, r) => sum + r.metrics.allocation!.bytes, 0) / allocationOps;
    summary.allocationEstimate = withAllocation.some((r) => r.metrics.allocation!.estimate);
  } else summary.reasons.allocation = reason('allocation');

  const heaps = measured.map((r) => r.metrics.heap).filter((h) => h !== undefined);
  if (heaps.length) {
    const pick = (key: keyof NonNullable<MetricsSummary['heap']>): number | undefined => median(heaps.map((h) => h[key]).filter((v): v is number => v !== undefined));
    const heap: NonNullable<MetricsSummary['heap']> = {};
    for (const key of ['youngSizeBytes', 'youngPeakSizeBytes', 'oldUsedBytes', 'heapUsedBytes', 'externalBytes'] as const) {
      const value = pick(key);
      if (value !== undefined) heap[key] = value;
    }
    summary.heap = heap;
  } else summary.reasons.heap = reason('heap');
  return summary;
}

export interface MetricsRow {
  caseId: string;
  variantId: string;
  summary: MetricsSummary;
}

/** One row per case × variant with samples, in the run's order. */
export function metricsRows(run: RunRecord): MetricsRow[] {
  return run.results.filter((r) => r.rounds.length > 0).map((r) => ({ caseId: r.caseId, variantId: r.variantId, summary: summarizeMetrics(r) }));
}

// ------------------------------------------------------------------ cells

export const NOT_AVAILABLE = 'n/a';

/** Counts per 1k ops: whole numbers from 10 up, two significant digits below. */
function formatRate(value: number | undefined): string {
  if (value === undefined) return NOT_AVAILABLE;
  if (value === 0) return '0';
  if (value >= 10) return value.toFixed(0);
  if (value >= 1) return value.toFixed(1);
  if (value >= 0.01) return value.toFixed(2);
  return value.toExponential(1);
}

/** Bytes as every report writes them (@rtbench/core/call-tree formatBytes), or n/a. */
export function formatBytes(bytes: number | undefined): string {
  return bytes === undefined ? NOT_AVAILABLE : formatBytesOf(bytes);
}

export interface MetricsCells {
  minor: string;
  major: string;
  incremental: string;
  gcShare: string;
  bytesPerOp: string;
  young: string;
  old: string;
  /** Why cells read n/a (empty when none do). */
  note: string;
}

export function metricsCells(summary: MetricsSummary): MetricsCells {
  const heap = summary.heap;
  const young = heap?.youngSizeBytes !== undefined ? formatBytes(heap.youngSizeBytes) + (heap.youngPeakSizeBytes !== undefined && heap.youngPeakSizeBytes > heap.youngSizeBytes ? ` (peak ${formatBytes(heap.youngPeakSizeBytes)})` : '') : NOT_AVAILABLE;
  // Parts that share a reason are named together: "gc, allocation, heap: no metrics recorded …".
  const byReason = new Map<string, string[]>();
  for (const [part, why] of Object.entries(summary.reasons)) byReason.set(why, [...(byReason.get(why) ?? []), part]);
  const reasons = [...byReason].map(([why, parts]) => `${parts.join(', ')}: ${why}`);
  return {
    minor: formatRate(summary.per1k?.minor),
    major: formatRate(summary.per1k?.major),
    incremental: formatRate(summary.per1k?.incremental),
    gcShare: summary.gcShare === undefined ? NOT_AVAILABLE : percentText(summary.gcShare * 100, summary.gcShare < 0.1 ? 1 : 0),
    bytesPerOp: summary.bytesPerOp === undefined ? NOT_AVAILABLE : `${summary.allocationEstimate ? '~' : ''}${formatBytes(summary.bytesPerOp)}`,
    young,
    old: formatBytes(heap?.oldUsedBytes ?? heap?.heapUsedBytes),
    note: [...new Set(reasons)].join('; '),
  };
}

export const METRICS_HEADERS = ['minor GC / 1k ops', 'major GC / 1k ops', 'incr. steps / 1k ops', 'GC time share', 'bytes / op', 'young gen (end)', 'old / heap used (end)'] as const;

export function metricsRowCells(summary: MetricsSummary): string[] {
  const c = metricsCells(summary);
  return [c.minor, c.major, c.incremental, c.gcShare, c.bytesPerOp, c.young, c.old];
}

/** The time change next to the GC change: "−38% time, scavenges 45 → 11 per 1k ops, …" (n/a where a side could not say). */
export function metricsChange(timeRatio: number | undefined, base: MetricsSummary, candidate: MetricsSummary, minorName = 'minor GCs'): string {
  const parts: string[] = [];
  if (timeRatio !== undefined && Number.isFinite(timeRatio)) {
    parts.push(`${formatChange(timeRatio)} time`);
  }
  const arrow = (a: string, b: string): string => (a === b ? a : `${a} → ${b}`);
  parts.push(`${minorName} ${arrow(formatRate(base.per1k?.minor), formatRate(candidate.per1k?.minor))} per 1k ops`);
  parts.push(`major ${arrow(formatRate(base.per1k?.major), formatRate(candidate.per1k?.major))}`);
  const share = (s: MetricsSummary): string => metricsCells(s).gcShare;
  parts.push(`GC time ${arrow(share(base), share(candidate))}`);
  parts.push(`allocated ${arrow(metricsCells(base).bytesPerOp, metricsCells(candidate).bytesPerOp)} per op`);
  return parts.join(', ');
}

/** What the engine calls its minor GC, for the change line ("scavenges" on V8, "eden GCs" on JSC). */
export function minorGcName(source: string | undefined): string {
  if (!source) return 'minor GCs';
  return /JSC/.test(source) ? 'eden GCs' : 'scavenges';
}

// ------------------------------------------------------- machine-readable

/**
 * The engine metrics as numbers for machines: one csv-stats column each, and
 * for those with a `measure`, one BMF measure (bencher tracks each over time
 * on its own, so a change in scavenges shows beside the change in latency).
 * Absent values stay absent (empty cell, no measure), never 0.
 */
export interface EngineMetricField {
  /** csv-stats column. */
  column: string;
  /** BMF measure slug, when the figure is worth tracking over time. */
  measure?: string;
  value(s: MetricsSummary): number | undefined;
}

export const ENGINE_METRIC_FIELDS: readonly EngineMetricField[] = [
  { column: 'gc_minor_per_1k_ops', measure: 'minor-gc-per-1k-ops', value: (s) => s.per1k?.minor },
  { column: 'gc_major_per_1k_ops', measure: 'major-gc-per-1k-ops', value: (s) => s.per1k?.major },
  { column: 'gc_incremental_per_1k_ops', measure: 'incremental-gc-per-1k-ops', value: (s) => s.per1k?.incremental },
  // A fraction (0–1) of the sampling time spent in GC pauses.
  { column: 'gc_time_share', measure: 'gc-time-share', value: (s) => s.gcShare },
  { column: 'bytes_per_op', measure: 'allocated-bytes-per-op', value: (s) => s.bytesPerOp },
  // 1 when bytes_per_op was derived (GC deltas, trace lines) rather than counted by the engine.
  { column: 'bytes_per_op_estimated', value: (s) => (s.allocationEstimate === undefined ? undefined : s.allocationEstimate ? 1 : 0) },
  { column: 'young_gen_bytes', value: (s) => s.heap?.youngSizeBytes },
  { column: 'old_used_bytes', value: (s) => s.heap?.oldUsedBytes },
  { column: 'heap_used_bytes', value: (s) => s.heap?.heapUsedBytes },
  { column: 'metrics_rounds', value: (s) => (s.roundsWithMetrics > 0 ? s.roundsWithMetrics : undefined) },
];

/** Whether any round of any result had its samples grown to span the case's collections (then the tables show the collector's share). */
export function hasSpans(run: Pick<RunRecord, 'results'>): boolean {
  return run.results.some((r) => r.rounds.some((round) => round.span !== undefined));
}

/** Whether any round of any result recorded engine metrics (then csv-stats grows their columns). */
export function hasEngineMetrics(run: Pick<RunRecord, 'results'>): boolean {
  return run.results.some((r) => r.rounds.some((round) => round.metrics !== undefined));
}
