/** One level of interval a screen: the statistics a view shows, read at the level its ratios were adjusted to. */
import type { CaseStats } from '@rtbench/core/schema';
import { processMedianInterval } from '@rtbench/stats';

/**
 * A row's statistics with the median's interval read at `level` (the
 * table's), from the same bootstrap over its processes: a row without an
 * interval (too few processes) or without its process medians keeps what it has.
 */
export function atLevel(stats: CaseStats, level: number): CaseStats {
  const ci = stats.ci && stats.processMedians && stats.median > 0 ? processMedianInterval(stats.processMedians, level) : undefined;
  return ci ? { ...stats, ci, ciHalfWidthRel: (ci[1] - ci[0]) / 2 / stats.median } : stats;
}

/** The level a view's ratios were read at once adjusted for their number, or `confidence` when it has none. */
export function viewLevel(adjusted: readonly ({ confidence: number } | undefined)[], confidence: number): number {
  return adjusted.find((a) => a)?.confidence ?? confidence;
}
