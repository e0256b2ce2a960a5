/**
 * CPU per request (views/cpu-per-request.ts) as a terminal table or
 * markdown: per case a heading, per variant the CPU grid's columns
 * (cells/cpu-per-request.ts), each figure with its interval over
 * processes; then the client's latency beside CPU per request (a grid of
 * its own, so the first keeps its width); then how requests ended where
 * any did not end normally. This file only lays the section out.
 */
import { cpuCell, cpuCellLines, cpuColumns, limitText, type CpuColumn } from '../cells/cpu-per-request.ts';
import { fitGrid, fitLine, renderGrid, wrapWords, type GridColumn, type GridRow, type Paint } from './grid.ts';
import { markdownCell } from '../text.ts';
import type { CpuPerRequestRow, CpuPerRequestSection } from '../views/cpu-per-request.ts';

/** What went wrong in a row's requests: those that did not end normally, and a JavaScript thread that was not the main one. */
export function rowProblems(row: CpuPerRequestRow): string[] {
  const out: string[] = [];
  const o = row.outcomes;
  const parts = o ? [o.threw ? `${o.threw} threw` : '', o.notAResponse ? `${o.notAResponse} answered no Response` : '', o.timedOut > (o.tooLong ?? 0) ? `${o.timedOut - (o.tooLong ?? 0)} got no response in time (no figure)` : '', o.tooLong ? `${o.tooLong} answered a body over the most rtbench reads of one (no figure)` : '', o.serverError ? `${o.serverError} answered 5xx` : ''].filter(Boolean) : [];
  if (o && parts.length) out.push(`of ${o.ok + o.serverError + o.threw + o.notAResponse + o.timedOut} requests ${parts.join(', ')}`);
  if (row.jsThread && !row.jsThread.main) out.push(`the JavaScript ran on ${row.jsThread.names.join(', ')}, not the main thread`);
  return out;
}

/** Per row its problems, and the runtime's own thread clock against the host's reading. */
function outcomeLines(section: CpuPerRequestSection): string[] {
  return section.rows.flatMap((row) => [
    ...rowProblems(row),
    ...(row.threadClockRatio !== undefined && row.figure.threads === 'jsThread' ? [`its own thread clock read ${row.threadClockRatio.toFixed(3)}× the host's reading (median over requests)`] : []),
  ].map((text) => `${row.variantId} · ${row.caseId}: ${text}`));
}

const SAME_WORK_WORDS = { masked: "same work: the responses' changing spans masked (--same-work masked)", strict: 'same work: every byte of every body (--same-work strict)' } as const;

function keyLine(section: CpuPerRequestSection): string {
  const withIntervals = section.rows.find((r) => r.distribution);
  // Load windows alone: their method says all there is.
  if (!withIntervals) return section.method;
  const confidence = `${+(withIntervals.distribution!.confidence * 100).toFixed(2)}% intervals`;
  return `${section.method}; ${confidence} in brackets${section.limitMs !== undefined ? `; > ${limitText(section.limitMs)}: the share of requests over the limit (how many)` : ''}; requests: ${section.rows.some((r) => r.phases) ? 'steady' : 'warm'} requests in processes${section.sameWork ? `; ${SAME_WORK_WORDS[section.sameWork]}` : ''}`;
}

/** The latency grid's heading: how many requests were in flight. */
function latencyTitle(section: CpuPerRequestSection): string {
  return `Client latency beside CPU per request (ms), ${section.concurrency === 1 ? 'one request at a time' : `${section.concurrency} requests in flight`} to each server`;
}

const LATENCY_KEY =
  "latency: the client's, from sending a request to the end of its body, over the same warm requests, pooled, intervals over processes as above; with requests in flight it grows with the queue while CPU per request holds";

/** A grid's rows: per case a heading, per variant its figures, and under them their intervals (painted as a cell: the grid measures what shows, so each interval sits under its figure). */
function gridRows(rows: readonly CpuPerRequestRow[], columns: readonly CpuColumn[], bold: Paint, dim: Paint): GridRow[] {
  const out: GridRow[] = [];
  let previous: string | undefined;
  for (const row of rows) {
    if (row.caseId !== previous) out.push({ heading: bold(row.caseId) });
    const cells = columns.map((c) => cpuCellLines(c, row));
    out.push({ cells: [row.variantId, ...cells.map((f) => f[0])] });
    if (cells.some((f) => f[1])) out.push({ cells: ['', ...cells.map((f, i) => (columns[i]!.figure ? { text: f[1], paint: dim } : ''))] });
    previous = row.caseId;
  }
  return out;
}

const gridColumns = (section: CpuPerRequestSection, columns: readonly CpuColumn[]): GridColumn[] => [
  { head: 'runtime', align: 'left' },
  ...columns.map((c): GridColumn => ({ head: c.head(section), align: 'right', ...(c.drop !== undefined ? { drop: c.drop } : {}) })),
];

function latencyTerminal(section: CpuPerRequestSection, maxWidth: number, bold: Paint, dim: Paint): string[] {
  const columns = cpuColumns(section, 'latency');
  if (!columns.length) return [];
  const rows = gridRows(section.rows.filter((r) => r.latency), columns, bold, dim);
  return ['', ...fitLine(latencyTitle(section), maxWidth, bold), ...renderGrid(gridColumns(section, columns), rows, { maxWidth, bold, dim }), ...wrapWords(LATENCY_KEY, maxWidth).map(dim)];
}

/** A markdown table of the rows under the columns: the case named on its first row. */
function markdownTable(section: CpuPerRequestSection, rows: readonly CpuPerRequestRow[], columns: readonly CpuColumn[]): string[] {
  const heads = columns.map((c) => c.head(section));
  const lines = [`| case | runtime | ${heads.join(' | ')} |`, `|---|---|${heads.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of rows) {
    lines.push(`| ${row.caseId === previous ? '' : markdownCell(row.caseId)} | ${markdownCell(row.variantId)} | ${columns.map((c) => cpuCell(c, row)).join(' | ')} |`);
    previous = row.caseId;
  }
  return lines;
}

function latencyMarkdown(section: CpuPerRequestSection): string[] {
  const columns = cpuColumns(section, 'latency');
  if (!columns.length) return [];
  return ['', `#### ${latencyTitle(section)}`, '', ...markdownTable(section, section.rows.filter((r) => r.latency), columns), '', `<sub>${markdownCell(LATENCY_KEY)}</sub>`];
}

export function cpuPerRequestTerminal(section: CpuPerRequestSection, maxWidth: number, bold: Paint, dim: Paint): string[] {
  const columns = cpuColumns(section, 'cpu');
  const fitted = fitGrid(gridColumns(section, columns), gridRows(section.rows, columns, bold, dim), maxWidth);
  const lines = ['', bold('CPU per request (ms)'), ...renderGrid(fitted.columns, fitted.rows, { maxWidth, bold, dim })];
  for (const line of outcomeLines(section)) lines.push(...wrapWords(line, maxWidth));
  const left = fitted.dropped.length ? `; ${fitted.dropped.join(', ')}: left out to fit ${maxWidth} columns (≥ ${fitted.fullWidth} shows them; --format markdown has every column)` : '';
  lines.push(...wrapWords(keyLine(section).replace('in brackets', 'under each figure') + left, maxWidth).map(dim));
  lines.push(...latencyTerminal(section, maxWidth, bold, dim));
  return lines;
}

export function cpuPerRequestMarkdown(section: CpuPerRequestSection): string[] {
  const lines = ['', '#### CPU per request (ms)', '', ...markdownTable(section, section.rows, cpuColumns(section, 'cpu'))];
  for (const line of outcomeLines(section)) lines.push('', `> ${markdownCell(line)}`);
  lines.push('', `<sub>${markdownCell(keyLine(section))}</sub>`);
  lines.push(...latencyMarkdown(section));
  return lines;
}
