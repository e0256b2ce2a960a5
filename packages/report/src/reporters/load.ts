/**
 * HTTP load (views/load.ts) as a terminal table or markdown: per measurement
 * and variant one line of medians (requests/s, the latency line, the
 * server's CPU per request) and the error rate. This file only lays the
 * section out.
 */
import { formatMetric, formatOps, formatPercent } from '../format.ts';
import { renderGrid, wrapWords, type GridColumn, type GridRow } from './grid.ts';
import { errorRate, type LoadColumn, type LoadRow, type LoadSection } from '../views/load.ts';

function figure(row: LoadRow, column: LoadColumn): string {
  const value = row.medians[column.label];
  if (value === undefined) return '—';
  // The unit is in the head; the cells stay narrow.
  return column.metric.unit === 'req/s' ? formatOps(value) : formatMetric(value, column.metric);
}

const head = (column: LoadColumn): string => (column.metric.unit === 'req/s' ? 'req/s' : column.label);

/** "0", or the error rate and what the errors were. */
function errorsText(row: LoadRow): string {
  const o = row.outcomes;
  if (!o) return '—';
  const errors = o.errorStatus + o.socketErrors + o.timeouts;
  return errors === 0 ? '0' : formatPercent(errorRate(o), 2);
}

/** Lines on rows whose requests did not all end well: how many of each kind. */
function errorLines(section: LoadSection): string[] {
  const out: string[] = [];
  for (const row of section.rows) {
    const o = row.outcomes;
    if (!o) continue;
    const parts = [o.errorStatus ? `${o.errorStatus} error statuses` : '', o.socketErrors ? `${o.socketErrors} socket errors` : '', o.timeouts ? `${o.timeouts} timeouts` : ''].filter(Boolean);
    if (parts.length) out.push(`${row.variantId} · ${row.measurement}: of ${o.responses + o.socketErrors + o.timeouts} requests ${parts.join(', ')}`);
  }
  return out;
}

const loadText = (row: LoadRow): string => (row.connections === undefined ? '' : `${row.connections}${row.pipelining !== undefined && row.pipelining > 1 ? ` ×${row.pipelining}` : ''}`);

export function loadTerminal(section: LoadSection, maxWidth: number, bold: (s: string) => string, dim: (s: string) => string): string[] {
  const columns: GridColumn[] = [{ head: 'runtime', align: 'left' }, { head: 'conns', align: 'right' }, ...section.columns.map((c): GridColumn => ({ head: head(c), align: 'right' })), { head: 'errors', align: 'right' }];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.measurement !== previous) rows.push({ heading: bold(row.measurement) });
    rows.push({ cells: [row.variantId, loadText(row), ...section.columns.map((c) => figure(row, c)), errorsText(row)] });
    previous = row.measurement;
  }
  const lines = ['', bold('HTTP load (medians over rounds)'), ...renderGrid(columns, rows, { maxWidth, bold, dim })];
  for (const line of errorLines(section)) lines.push(...wrapWords(line, maxWidth));
  lines.push(...wrapWords(`conns: connections (×: requests pipelined on each); ${section.method}`, maxWidth).map(dim));
  return lines;
}

const escapeCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function loadMarkdown(section: LoadSection): string[] {
  const heads = ['conns', ...section.columns.map(head), 'errors'];
  const lines = ['', '#### HTTP load (medians over rounds)', '', `| case | runtime | ${heads.join(' | ')} |`, `|---|---|${heads.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of section.rows) {
    const cells = [loadText(row), ...section.columns.map((c) => figure(row, c)), errorsText(row)];
    lines.push(`| ${row.measurement === previous ? '' : escapeCell(row.measurement)} | ${escapeCell(row.variantId)} | ${cells.join(' | ')} |`);
    previous = row.measurement;
  }
  for (const line of errorLines(section)) lines.push('', `> ${escapeCell(line)}`);
  lines.push('', `<sub>${escapeCell(`conns: connections (×: requests pipelined on each); ${section.method}`)}</sub>`);
  return lines;
}
