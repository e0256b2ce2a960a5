/**
 * `--metrics <view>`: an engine-metrics section printed after the main view
 * by the formats that print sections (json, csv and html carry the run,
 * whose rounds hold the metrics). Only "gc" exists: GC by kind, allocation
 * per op, heap state; under a comparison, their change next to the change in
 * time.
 */
import { UsageError } from './errors.ts';

type MetricsView = 'gc';

export function parseMetricsView(value: unknown): MetricsView | undefined {
  if (value === undefined) return undefined;
  if (value === 'gc') return 'gc';
  throw new UsageError(`--metrics ${String(value)}: expected gc (GC by kind, allocation per op and heap state)`);
}
