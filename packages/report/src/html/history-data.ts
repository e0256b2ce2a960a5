/**
 * What the history page (page/history.ts) is given: the history view reduced
 * to what its charts and tables show, every text already formatted here so the
 * page only lays it out. Pure.
 */
import { counted } from '../text.ts';
import { TIME_PER_OP } from '@rtbench/core/metric';
import { formatMetric, formatMetricRange } from '../format.ts';
import { binaryChangeLines, changeLine, historyLegend, historyLevel, pointInterval } from '../cells/history.ts';
import { changePoints, runFileName, runLabel } from '../views/history.ts';
import type { HistoryCase, HistoryPoint, HistorySeries, HistoryView } from '../views/types.ts';

interface HistoryPagePoint {
  /** Index into HistoryPageData.runs. */
  run: number;
  median: number;
  lo?: number;
  hi?: number;
  /** "1.23 µs [1.20–1.25 µs]" */
  text: string;
  change?: { kind: 'faster' | 'slower'; text: string };
  /** What about the binary changed since the previous point. */
  binary?: string;
  /** The case's digest changed since the previous point. */
  workChanged?: boolean;
}

interface HistoryPageSeries {
  variant: string;
  points: HistoryPagePoint[];
}

export interface HistoryPageCase {
  key: string;
  /** "parse / small", with "suite: " in front when the page holds several suites. */
  title: string;
  /** "time per operation (ns)" */
  measure: string;
  /** The y axis is the figure in this unit's scale: ns, ms, req/s or instructions. */
  unit: string;
  series: HistoryPageSeries[];
  changes: { kind: 'faster' | 'slower'; text: string }[];
}

export interface HistoryPageData {
  kind: 'history';
  title: string;
  subtitle: string;
  /** label: the commit ("abc1234-dirty") or, without one, the start time; commit: the commit or "—". */
  runs: { label: string; commit: string; started: string; file: string; rtbench: string; host: string }[];
  /** Every variant, in the order of first appearance (their colours follow it). */
  variants: string[];
  cases: HistoryPageCase[];
  binaryChanges: string[];
  notes: { level: 'error' | 'warning' | 'info'; text: string }[];
  legend: string[];
}

/** A point with a figure as the page draws it: its interval at the screen's `level`, and its change point's line. */
function pagePoint(view: HistoryView, hc: HistoryCase, s: HistorySeries, p: HistoryPoint, median: number, level: number): HistoryPagePoint {
  const metric = hc.metric ?? TIME_PER_OP;
  const ci = pointInterval(p, level);
  return {
    run: p.run,
    median,
    ...(ci ? { lo: ci[0], hi: ci[1] } : {}),
    text: `${formatMetric(median, metric)}${ci ? ` [${formatMetricRange(ci[0], ci[1], metric)}]` : ''}`,
    ...(p.changePoint ? { change: { kind: p.changePoint, text: changeLine(view, hc, s, p) } } : {}),
    ...(p.binaryChanged ? { binary: p.binaryChanged } : {}),
    ...(p.digestChanged ? { workChanged: true } : {}),
  };
}

export function historyPageData(view: HistoryView): HistoryPageData {
  const severalSuites = new Set(view.runs.map((r) => r.suite)).size > 1;
  const variants = [...new Set(view.cases.flatMap((hc) => hc.series.map((s) => s.variantId)))];
  const found = changePoints(view);
  // Every interval at the one level the legend names.
  const level = historyLevel(view);
  return {
    kind: 'history',
    title: `history of ${[...new Set(view.runs.map((r) => r.suite))].join(', ')}`,
    subtitle: `${counted(view.runs.length, 'run')}, ordered ${view.order.reason}; ${counted(found.length, 'change point')}`,
    runs: view.runs.map((r) => ({ label: runLabel(r), commit: r.commit || r.label ? runLabel(r) : '—', started: r.startedAt.slice(0, 16).replace('T', ' '), file: runFileName(r) ?? '', rtbench: r.rtbenchVersion ?? '', host: r.host })),
    variants,
    cases: view.cases.map((hc, i) => {
      const metric = hc.metric ?? TIME_PER_OP;
      return {
        key: `c${i}`,
        title: `${severalSuites ? `${hc.suite}: ` : ''}${hc.label}`,
        measure: `${metric.name} (${metric.unit}, ${metric.direction === 'lower-is-better' ? 'lower is better' : 'higher is better'})`,
        unit: metric.unit,
        series: hc.series.map((s) => ({
          variant: s.variantId,
          points: s.points.flatMap((p) => (p.median === undefined ? [] : [pagePoint(view, hc, s, p, p.median, level)])),
        })),
        changes: hc.series.flatMap((s) => s.points.filter((p) => p.changePoint).map((p) => ({ kind: p.changePoint!, text: changeLine(view, hc, s, p) }))),
      };
    }),
    binaryChanges: binaryChangeLines(view),
    notes: view.notes,
    legend: historyLegend(view),
  };
}
