/**
 * `--metrics <view>`: an engine-metrics section printed after the main view
 * by the formats that print sections (json, csv and html carry the run,
 * whose rounds hold the metrics). "gc": GC by kind, allocation per op, heap
 * state; under a comparison, their change next to the change in time.
 * "memory": peak resident memory, heap and bytes outside it, growth per call
 * and the leak mark.
 */
import type { MetricsViewName } from '@rtbench/report';
import { UsageError } from './errors.ts';

export function parseMetricsView(value: unknown): MetricsViewName | undefined {
  if (value === undefined) return undefined;
  if (value === 'gc' || value === 'memory') return value;
  throw new UsageError(`--metrics ${String(value)}: expected gc (GC by kind, allocation per op and heap state) or memory (peak resident memory, heap, bytes outside it, growth and leaks)`);
}
