/**
 * The texts of HTTP load (views/load.ts) that every layout shares: a
 * metric's median, a column's head, the connections, the error rate and
 * what the errors were. The terminal, markdown and the HTML page print the
 * same words.
 */
import { formatMetric, formatOps, formatPercent, formatSwitches } from '../format.ts';
import { errorRate, type LoadColumn, type LoadRow, type LoadSection } from '../views/load.ts';

/** A median in its column's unit, "—" when the row has none. */
function loadFigure(row: LoadRow, column: LoadColumn): string {
  const value = row.medians[column.label];
  if (value === undefined) return '—';
  // The unit is in the head; the cells stay narrow.
  if (column.metric.unit === 'switches') return formatSwitches(value);
  return column.metric.unit === 'req/s' ? formatOps(value) : formatMetric(value, column.metric);
}

const loadHead = (column: LoadColumn): string => (column.metric.unit === 'req/s' ? 'req/s' : column.label);

/** "0", or the error rate and what the errors were. */
function loadErrorsText(row: LoadRow): string {
  const o = row.outcomes;
  if (!o) return '—';
  const errors = o.errorStatus + o.socketErrors + o.timeouts;
  return errors === 0 ? '0' : formatPercent(errorRate(o), 2);
}

/** Lines on rows whose requests did not all end well: how many of each kind. */
export function loadErrorLines(section: LoadSection): string[] {
  const out: string[] = [];
  for (const row of section.rows) {
    const o = row.outcomes;
    if (!o) continue;
    const parts = [o.errorStatus ? `${o.errorStatus} error statuses` : '', o.socketErrors ? `${o.socketErrors} socket errors` : '', o.timeouts ? `${o.timeouts} timeouts` : ''].filter(Boolean);
    if (parts.length) out.push(`${row.variantId} · ${row.measurement}: of ${o.responses + o.socketErrors + o.timeouts} requests ${parts.join(', ')}`);
  }
  return out;
}

/** Connections, and "×10" when each pipelined requests. */
const loadConnsText = (row: LoadRow): string => (row.connections === undefined ? '' : `${row.connections}${row.pipelining !== undefined && row.pipelining > 1 ? ` ×${row.pipelining}` : ''}`);

/** The warm-up's time and requests/s, and the rounds that never settled ("—": a row saved before rounds were phased). */
function loadWarmupText(row: LoadRow): string {
  const w = row.warmup;
  if (!w) return '—';
  const rate = w.requestsPerSecond === undefined ? '' : ` at ${formatOps(w.requestsPerSecond)}/s`;
  return `${(w.ms / 1000).toFixed(2)} s${rate}${w.unsettled ? ` (${w.unsettled} of ${row.rounds} never steady)` : ''}`;
}

const phased = (section: LoadSection): boolean => section.rows.some((r) => r.warmup);

/** The key under every layout of the section. */
export const loadKey = (section: LoadSection): string => `conns: connections (×: requests pipelined on each); ${section.method}`;

/** The heads of a row's figures, after the runtime: connections, each metric, errors, and the warm-up when rounds were phased. */
export const loadHeads = (section: LoadSection): string[] => ['conns', ...section.columns.map(loadHead), 'errors', ...(phased(section) ? ['warm-up'] : [])];

/** A row's figures under loadHeads. */
export const loadCells = (section: LoadSection, row: LoadRow): string[] => [loadConnsText(row), ...section.columns.map((c) => loadFigure(row, c)), loadErrorsText(row), ...(phased(section) ? [loadWarmupText(row)] : [])];
