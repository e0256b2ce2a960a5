/**
 * The history view in text: the terminal (per case a table of the runs with a
 * column per variant, or a block per variant when that is too wide, and a
 * sparkline per variant when it fits), markdown, and csv (one row per point).
 * The json reporter writes the view as it is; html is html/history-page.ts.
 */
import pc from 'picocolors';
import { TIME_PER_OP } from '@rtbench/core/metric';
import { formatMetric, formatMetricRange, formatRatio } from '../format.ts';
import { markdownCell, markdownCode } from '../text.ts';
import { csvTable } from '../columns/fields.ts';
import { HISTORY_FIELDS, historyPoints } from '../columns/history.ts';
import { changePoints, runFileName, runLabel } from '../views/history.ts';
import type { HistoryCase, HistoryPoint, HistoryRun, HistoryView, Note } from '../views/types.ts';
import { binaryChangeLines, caseTable, changeLine, historyHeadline, historyLegend, historyLevel, pointInterval, pointText, sparkline } from '../cells/history.ts';
import { naturalGridWidth, renderGrid, wrapWords, type Cell, type GridColumn, type GridRow, type Paint } from './grid.ts';
import type { ReporterOptions } from './reporter.ts';
import { displayWidth, padToWidth } from '../width.ts';

type Colors = ReturnType<typeof pc.createColors>;
const DEFAULT_COLUMNS = 100;

function wrapped(text: string, columns: number, paint: Paint, indent = 0): string[] {
  return wrapWords(text, columns - indent).map((line, i) => paint(i === 0 ? line : ' '.repeat(indent) + line.trimStart()));
}

function noteLines(note: Note, c: Colors, columns: number): string[] {
  const paint = note.level === 'error' ? c.red : note.level === 'warning' ? c.yellow : c.dim;
  const mark = note.level === 'error' ? '✗' : note.level === 'warning' ? '!' : '·';
  return wrapped(`${mark} ${note.text}`, columns, paint, 2);
}

function date(iso: string): string {
  return iso.slice(0, 10);
}

/** "abc1234", "abc1234-dirty", or "—" for a run that recorded no commit. */
function commitText(run: HistoryRun): string {
  return run.commit || run.label ? runLabel(run) : '—';
}

/** The runs the view shows: every one, or its window's. */
function shownRuns(view: HistoryView): HistoryRun[] {
  return view.window ? view.window.runs.map((i) => view.runs[i]!) : view.runs;
}

function pointPaint(point: HistoryPoint | undefined, c: Colors): Paint {
  if (point?.changePoint === 'slower') return c.red;
  if (point?.changePoint === 'faster') return c.green;
  return (s) => s;
}

/** The case as one table: a row per run, a column per variant. */
function wideGrid(view: HistoryView, hc: HistoryCase, c: Colors): { columns: GridColumn[]; rows: GridRow[] } {
  const { runs, at } = caseTable(hc);
  const columns: GridColumn[] = [
    { head: '#', align: 'right' },
    { head: 'commit', align: 'left' },
    { head: 'date', align: 'left' },
    ...hc.series.map((s) => ({ head: s.variantId, align: 'left' as const })),
  ];
  const rows: GridRow[] = runs.map((i) => {
    const run = view.runs[i]!;
    return {
      cells: [String(i + 1), commitText(run), date(run.startedAt), ...hc.series.map((s): Cell => ({ text: pointText(at(s, i), hc), paint: pointPaint(at(s, i), c) }))],
    };
  });
  return { columns, rows };
}

/** The case as one block per variant: a row per run with the figure, its CI and the change. */
function longGrid(view: HistoryView, hc: HistoryCase, c: Colors): { columns: GridColumn[]; rows: GridRow[] } {
  const metric = hc.metric ?? TIME_PER_OP;
  // The CI at the screen's one level, which the legend names.
  const level = historyLevel(view);
  const columns: GridColumn[] = [
    { head: '#', align: 'right' },
    { head: 'commit', align: 'left' },
    { head: 'date', align: 'left' },
    { head: 'median', align: 'left' },
    { head: 'CI', align: 'right' },
    { head: 'vs previous', align: 'right' },
  ];
  const rows: GridRow[] = [];
  for (const s of hc.series) {
    rows.push({ heading: c.bold(s.variantId) });
    for (const p of s.points) {
      const run = view.runs[p.run]!;
      const ci = pointInterval(p, level);
      rows.push({
        cells: [String(p.run + 1), commitText(run), date(run.startedAt), { text: pointText(p, hc), paint: pointPaint(p, c) }, ci ? formatMetricRange(ci[0], ci[1], metric) : '', p.change ? `${formatRatio(p.change.ratio)}×` : ''],
      });
    }
  }
  return { columns, rows };
}

function sparkLines(hc: HistoryCase, columns: number, c: Colors): string[] {
  const { runs, at } = caseTable(hc);
  if (runs.length < 3) return [];
  const metric = hc.metric ?? TIME_PER_OP;
  const width = Math.max(...hc.series.map((s) => displayWidth(s.variantId)));
  const out: string[] = [];
  for (const s of hc.series) {
    const values = runs.map((i) => at(s, i)?.median);
    const xs = values.filter((v): v is number => v !== undefined);
    if (xs.length < 2) continue;
    const range = `${formatMetric(Math.min(...xs), metric)} – ${formatMetric(Math.max(...xs), metric)}`;
    const line = `  ${padToWidth(s.variantId, width)}  ${sparkline(values)}  ${range}`;
    // Only when it fits: a sparkline cut or wrapped says nothing.
    if (displayWidth(line) > columns) return [];
    out.push(`  ${c.bold(padToWidth(s.variantId, width))}  ${sparkline(values)}  ${c.dim(range)}`);
  }
  return out;
}

export function renderHistoryTerminal(view: HistoryView, options: ReporterOptions = {}): string {
  const c = pc.createColors(options.color ?? true);
  const columns = options.columns ?? DEFAULT_COLUMNS;
  const out: string[] = [...wrapped(historyHeadline(view), columns, c.bold)];
  const runGrid: GridRow[] = shownRuns(view).map((r) => ({ cells: [String(r.index + 1), commitText(r), r.startedAt.slice(0, 16).replace('T', ' '), r.rtbenchVersion ?? '', runFileName(r) ?? ''] }));
  const runColumns: GridColumn[] = [
    { head: '#', align: 'right' },
    { head: 'commit', align: 'left' },
    { head: 'started (UTC)', align: 'left' },
    { head: 'rtbench', align: 'left' },
    { head: 'file', align: 'left', wrap: true },
  ];
  out.push(...renderGrid(runColumns, runGrid, { maxWidth: columns, bold: c.bold, dim: c.dim }).map((l) => `  ${l}`), '');
  if (!view.cases.length) out.push(c.yellow('no case × variant to show'), '');
  for (const hc of view.cases) {
    const metric = hc.metric ? ` (${hc.metric.name}, ${hc.metric.unit})` : '';
    const suite = new Set(view.runs.map((r) => r.suite)).size > 1 ? `${hc.suite}: ` : '';
    const head = `${suite}${hc.label}`;
    // A request case's metric is a long name: on a line of its own, under the case, when both do not fit one.
    if (displayWidth(head + metric) <= columns) out.push(c.bold(head) + c.dim(metric));
    else out.push(...wrapped(head, columns, c.bold, 2), ...wrapped(`  ${metric.trim()}`, columns, c.dim, 2));
    const wide = wideGrid(view, hc, c);
    const grid = naturalGridWidth(wide.columns, wide.rows) + 2 <= columns ? wide : longGrid(view, hc, c);
    out.push(...renderGrid(grid.columns, grid.rows, { maxWidth: columns - 2, bold: c.bold, dim: c.dim }).map((l) => `  ${l}`));
    out.push(...sparkLines(hc, columns, c));
    for (const s of hc.series) {
      for (const p of s.points) if (p.changePoint) out.push(...wrapped(`  ${changeLine(view, hc, s, p)}`, columns, p.changePoint === 'slower' ? c.red : c.green, 4));
    }
    out.push('');
  }
  for (const line of binaryChangeLines(view)) out.push(...wrapped(line, columns, c.yellow, 2));
  for (const note of view.notes) out.push(...noteLines(note, c, columns));
  for (const line of historyLegend(view)) out.push(...wrapped(line, columns, c.dim));
  return `${out.join('\n')}\n`;
}

// ------------------------------------------------------------------ markdown

export function renderHistoryMarkdown(view: HistoryView): string {
  const out: string[] = [`## rtbench history`, '', markdownCell(historyHeadline(view)), ''];
  out.push('| # | commit | started (UTC) | rtbench | file |', '|---:|---|---|---|---|');
  for (const r of shownRuns(view)) out.push(`| ${r.index + 1} | ${r.commit ? `${markdownCode(runLabel(r))}` : '—'} | ${r.startedAt.slice(0, 16).replace('T', ' ')} | ${markdownCell(r.rtbenchVersion ?? '')} | ${markdownCell(runFileName(r) ?? '')} |`);
  out.push('');
  const found = changePoints(view);
  if (found.length) {
    out.push(`**Change points** (${found.length}):`, '');
    for (const { hc, series, point } of found) out.push(`- ${markdownCell(hc.label)}: ${markdownCell(changeLine(view, hc, series, point))}`);
    out.push('');
  }
  const severalSuites = new Set(view.runs.map((r) => r.suite)).size > 1;
  for (const hc of view.cases) {
    const metric = hc.metric ? ` (${markdownCell(hc.metric.name)}, ${hc.metric.unit})` : '';
    out.push(`### ${markdownCell(`${severalSuites ? `${hc.suite}: ` : ''}${hc.label}`)}${metric}`, '');
    const { runs, at } = caseTable(hc);
    out.push(`| # | commit | date | ${hc.series.map((s) => markdownCell(s.variantId)).join(' | ')} |`, `|---:|---|---|${hc.series.map(() => '---:').join('|')}|`);
    for (const i of runs) {
      const run = view.runs[i]!;
      const cells = hc.series.map((s) => {
        const p = at(s, i);
        const text = markdownCell(pointText(p, hc));
        return p?.changePoint ? `**${text}**` : text;
      });
      out.push(`| ${i + 1} | ${run.commit ? `${markdownCode(runLabel(run))}` : '—'} | ${date(run.startedAt)} | ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  const binaries = binaryChangeLines(view);
  if (binaries.length) out.push(...binaries.map((l) => `- ${markdownCell(l)}`), '');
  if (view.notes.length) out.push(...view.notes.map((n) => `- ${n.level === 'error' ? '✗' : n.level === 'warning' ? '⚠️' : 'ℹ️'} ${markdownCell(n.text)}`), '');
  out.push(...historyLegend(view).map((l) => `<sub>${markdownCell(l)}</sub>`).join('<br>\n').split('\n'), '');
  return `${out.join('\n')}`;
}

// ----------------------------------------------------------------------- csv

/** One row per point: columns/history.ts. */
export const HISTORY_COLUMNS: readonly string[] = HISTORY_FIELDS.map((f) => f.key);

export function renderHistoryCsv(view: HistoryView): string {
  return csvTable(HISTORY_FIELDS, historyPoints(view, historyLevel(view), pointInterval));
}
