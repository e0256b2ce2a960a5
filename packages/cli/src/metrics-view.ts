/** `--metrics <view>`: which engine-metrics view to print beside the timings. Only "gc" exists. */
import { UsageError } from './errors.ts';

export type MetricsView = 'gc';

export function parseMetricsView(value: unknown): MetricsView | undefined {
  if (value === undefined) return undefined;
  if (value === 'gc') return 'gc';
  throw new UsageError(`--metrics ${String(value)}: expected gc (GC by kind, allocation per op and heap state)`);
}
