/**
 * The history view's words and cells, shared by its terminal, markdown and csv
 * renderers: a point's figure with its marks, a change point in one line, the
 * binary changes, the legend.
 */
import { counted } from '../text.ts';
import type { Metric } from '@rtbench/core/schema';
import { TIME_PER_OP } from '@rtbench/core/metric';
import { formatChange, formatMetric, formatQ, formatRatio, formatThreshold } from '../format.ts';
import { changeSummary, comparisonCount, runLabel } from '../views/history.ts';
import type { HistoryCase, HistoryPoint, HistoryRun, HistorySeries, HistoryView } from '../views/types.ts';
import { verdictWords } from '../verdict-words.ts';
import { processMedianInterval } from '@rtbench/stats';

const HISTORY_MARKS = {
  slower: '▲',
  faster: '▼',
  binary: '†',
  work: '≠',
} as const;

/** "▲+9.8%" for a change point, "" otherwise. */
function changeMark(point: HistoryPoint): string {
  if (!point.changePoint || !point.change) return '';
  return `${HISTORY_MARKS[point.changePoint]}${formatChange(point.change.ratio)}`;
}

/** "1.10 µs ▲+9.8% †": the figure, then the marks the point carries; "—" without a figure. */
export function pointText(point: HistoryPoint | undefined, hc: HistoryCase): string {
  if (!point) return '';
  if (point.median === undefined) return '—';
  const marks = [changeMark(point), point.binaryChanged ? HISTORY_MARKS.binary : '', point.digestChanged ? HISTORY_MARKS.work : ''].filter(Boolean).join(' ');
  return `${formatMetric(point.median, hc.metric ?? TIME_PER_OP)}${marks ? ` ${marks}` : ''}`;
}

/** "run 3 (abc1234)" */
function runName(run: HistoryRun | undefined): string {
  return run ? `run ${run.index + 1} (${runLabel(run)})` : 'run ?';
}

/** What a ratio of costs is a ratio of, for a case's metric: its verdicts' quantity (requests/s compare as time per request). */
function costWord(metric: Metric | undefined): string {
  const m = metric ?? TIME_PER_OP;
  return m.unit === 'req/s' ? 'time per request' : verdictWords(m).quantity;
}

/**
 * The one level every interval of a history screen is read at: the level its
 * comparisons were adjusted to together (one for the view), or the view's
 * confidence when it compared nothing.
 */
export function historyLevel(view: HistoryView): number {
  for (const hc of view.cases) for (const s of hc.series) for (const p of s.points) if (p.change) return p.change.confidence;
  return view.confidence;
}

/** A point's figure's interval at the screen's `level`, from its process medians (as the bench table reads its rows'). */
export function pointInterval(point: HistoryPoint, level: number): [number, number] | undefined {
  if (!point.ci) return undefined;
  return processMedianInterval(point.processMedians, level) ?? point.ci;
}

/** "99.38% intervals (95% over 9 comparisons)": the level the screen's intervals are read at, said once in its legend. */
function historyLevelKey(view: HistoryView): string {
  const compared = comparisonCount(view);
  const level = historyLevel(view);
  const over = compared ? ` (${+(view.confidence * 100).toFixed(1)}% over ${counted(compared, 'comparison')})` : '';
  return `${+(level * 100).toFixed(2)}% intervals${over}`;
}

/** One change point in a line, its interval at the screen's level (the legend names it): "▲ node@24 at run 3 (abc1234): 1.098× [1.071–1.126] against run 2 (def5678), +9.8% time, q <0.001". */
export function changeLine(view: HistoryView, hc: HistoryCase, series: HistorySeries, point: HistoryPoint): string {
  const c = point.change!;
  const work = point.digestChanged ? `; the work changed too (digest ${point.digestChanged.from} → ${point.digestChanged.to})` : '';
  const binary = point.binaryChanged ? `; new binary: ${point.binaryChanged}` : '';
  return `${HISTORY_MARKS[point.changePoint!]} ${series.variantId} at ${runName(view.runs[point.run])}: ${formatRatio(c.ratio)}× [${formatRatio(c.ci[0])}–${formatRatio(c.ci[1])}] against ${runName(view.runs[point.changeFrom!])}, ${formatChange(c.ratio)} ${costWord(hc.metric)}, q ${formatQ(c.qValue)}${binary}${work}`;
}

/** Each variant's binary changes, once per variant and run however many cases show them: "† node@26 at run 3 (abc1234): version 26.0.0 → 26.1.0". */
export function binaryChangeLines(view: HistoryView): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const hc of view.cases) {
    for (const s of hc.series) {
      for (const p of s.points) {
        if (!p.binaryChanged) continue;
        const key = `${s.variantId}\u0000${p.run}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(`${HISTORY_MARKS.binary} ${s.variantId} at ${runName(view.runs[p.run])}: ${p.binaryChanged}`);
      }
    }
  }
  return out;
}

/** The series of a case by variant, and the runs any of them has a point in (in order). */
export function caseTable(hc: HistoryCase): { runs: number[]; at: (series: HistorySeries, run: number) => HistoryPoint | undefined } {
  const runs = [...new Set(hc.series.flatMap((s) => s.points.map((p) => p.run)))].sort((a, b) => a - b);
  const index = new Map(hc.series.map((s) => [s, new Map(s.points.map((p) => [p.run, p]))]));
  return { runs, at: (series, run) => index.get(series)?.get(run) };
}

/** What the view is, in a line: "4 runs, by commit (…)". */
export function historyHeadline(view: HistoryView): string {
  const suites = [...new Set(view.runs.map((r) => r.suite))];
  return `history of ${suites.join(', ')}: ${counted(view.runs.length, 'run')}, ordered ${view.order.reason}`;
}

export function historyLegend(view: HistoryView): string[] {
  return [
    `${changeSummary(view)}.`,
    `${HISTORY_MARKS.slower} slower, ${HISTORY_MARKS.faster} faster: a change point, the figure against the previous point of its series, in cost (time; for req/s its inverse). ${HISTORY_MARKS.binary}: the variant's binary changed since the previous point. ${HISTORY_MARKS.work}: the case computed a different result (its digest changed).`,
    `${historyLevelKey(view)}: every interval here, a figure's and a change's. Figure: the median of the process medians (the bench table's). Change rule: ${view.method}; threshold ${formatThreshold(view.threshold)}.`,
  ];
}

/** A sparkline of a series' figures, one character per run of the case (a space where it has no figure). */
export function sparkline(values: readonly (number | undefined)[]): string {
  const BARS = '▁▂▃▄▅▆▇█';
  const xs = values.filter((v): v is number => v !== undefined);
  if (!xs.length) return '';
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return values
    .map((v) => {
      if (v === undefined) return ' ';
      if (hi === lo) return BARS[3];
      return BARS[Math.min(BARS.length - 1, Math.floor(((v - lo) / (hi - lo)) * BARS.length))];
    })
    .join('');
}
