/**
 * The history of runs one results store answered without their results
 * (@rtbench/results-store series.ts): the store's cursor walks their numbers
 * (the FDR step and the window), and only the runs the window reads are read
 * whole; every run when the view shows every point. The view is the one
 * historyViewOf makes of the whole runs. As JSON, every point is written a
 * series at a time (streamedStoredHistory), never held at once.
 */
import { historyViewOf, orderRuns, seriesPoints } from '@rtbench/report';
import type { HistoryOptions, HistoryOrder, HistoryPoint, HistoryView } from '@rtbench/report';
import type { SeriesFilter, StoredSeries } from '@rtbench/results-store';
import { DEFAULT_RATIO_OPTIONS, type HistoryEntry } from '@rtbench/verdicts';

/** A history's options in its order; `pickedCases` names what its caseFilter picks, so that its walk can be kept. */
type OrderedOptions = HistoryOptions & { order: HistoryOrder } & Pick<SeriesFilter, 'pickedCases'>;

const ratioOf = (options: OrderedOptions) => ({
  threshold: options.threshold ?? DEFAULT_RATIO_OPTIONS.threshold,
  confidence: options.confidence ?? DEFAULT_RATIO_OPTIONS.confidence,
});

export async function storedHistoryView(inputs: readonly HistoryEntry[], series: StoredSeries, options: OrderedOptions): Promise<HistoryView> {
  const ordered = orderRuns(inputs, options.order, (x) => x.record);
  const prewalked = options.last !== undefined ? await series.walk(ordered, options, ratioOf(options), options.last) : undefined;
  const entries = await series.complete(ordered, prewalked?.walked.read);
  return historyViewOf(entries, options, prewalked?.walked.read ? prewalked : undefined);
}

/** A history of every point, written as it is read (report's streamedHistoryJson). */
export interface StreamedHistory {
  /** The view with its cases and series but no points: every other field as historyViewOf makes it. */
  view: HistoryView;
  /** The points of the view's case `caseAt`'s series `seriesAt`, read from the store. */
  pointsOf(caseAt: number, seriesAt: number): Promise<HistoryPoint[]>;
  /** The view as the gate reads it once every series was written: of each series its newest point and one compared point. */
  gated(): HistoryView;
  close(): Promise<void>;
}

/**
 * Every point of a stored history without holding them: the first walk over
 * the store's numbers gives the FDR step (every comparison's p-value) and the
 * series, then each series' points are read and built when asked, each read
 * at that step, as historyViewOf builds them.
 */
export async function streamedStoredHistory(inputs: readonly HistoryEntry[], series: StoredSeries, options: OrderedOptions): Promise<StreamedHistory> {
  const ordered = orderRuns(inputs, options.order, (x) => x.record);
  const prewalked = await series.walk(ordered, options, ratioOf(options));
  const view = historyViewOf(ordered, options, prewalked);
  const results = await series.results(ordered);
  // regressionsOf reads a series' newest point; judgedRatios whether any point was compared.
  const kept = view.cases.map((hc) => hc.series.map((): HistoryPoint[] => []));
  return {
    view,
    async pointsOf(caseAt, seriesAt) {
      const hc = view.cases[caseAt]!;
      const { variantId } = hc.series[seriesAt]!;
      const points = seriesPoints(ordered, variantId, await results.of({ suite: hc.suite, caseId: hc.caseId, variantId }), prewalked.walked, options);
      const compared = points.find((p) => p.change);
      const newest = points.at(-1);
      kept[caseAt]![seriesAt] = [...(compared && compared !== newest ? [compared] : []), ...(newest ? [newest] : [])];
      return points;
    },
    gated: () => ({ ...view, cases: view.cases.map((hc, c) => ({ ...hc, series: hc.series.map((s, i) => ({ ...s, points: kept[c]![i]! })) })) }),
    close: () => results.close(),
  };
}
