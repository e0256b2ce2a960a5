/**
 * The history of runs one results store answered without their results
 * (@rtbench/results-store series.ts): the store's cursor walks their numbers
 * (the FDR step and the window), and only the runs the window reads are read
 * whole; every run when the view shows every point. The view is the one
 * historyViewOf makes of the whole runs.
 */
import { historyViewOf, orderRuns, type HistoryOptions, type HistoryOrder, type HistoryView } from '@rtbench/report';
import type { StoredSeries } from '@rtbench/results-store';
import { DEFAULT_RATIO_OPTIONS, type HistoryEntry } from '@rtbench/verdicts';

type OrderedOptions = HistoryOptions & { order: HistoryOrder };

export async function storedHistoryView(inputs: readonly HistoryEntry[], series: StoredSeries, options: OrderedOptions): Promise<HistoryView> {
  const ordered = orderRuns(inputs, options.order, (x) => x.record);
  const ratio = { threshold: options.threshold ?? DEFAULT_RATIO_OPTIONS.threshold, confidence: options.confidence ?? DEFAULT_RATIO_OPTIONS.confidence };
  const prewalked = options.last !== undefined ? await series.walk(ordered, options, ratio, options.last) : undefined;
  const entries = await series.complete(ordered, prewalked?.walked.read);
  return historyViewOf(entries, options, prewalked?.walked.read ? prewalked : undefined);
}
