/**
 * The CPU-per-request table (views/cpu-per-request.ts) as one column list:
 * its heads and cells for the terminal, markdown and the HTML page alike.
 * A column sits in the CPU grid or in the latency grid beside it (the
 * terminal and markdown draw the two apart so the first keeps its width;
 * the page's table beside its chart takes the columns marked for it).
 */
import { REQUEST_QUANTILES, type Estimate, type RequestQuantileName } from '@rtbench/stats';
import { formatDuration, formatPercent } from '../format.ts';
import { cpuMedian, type CpuPerRequestRow, type CpuPerRequestSection } from '../views/cpu-per-request.ts';

/** ms with three significant digits. */
export const requestMs = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toPrecision(3));

/** A CPU limit as a duration in its own unit: "10 ms", "500 µs", "1.5 s". */
export const limitText = (ms: number): string => formatDuration(ms * 1e6);

/** A share of requests, two decimals of a percent. */
const requestShare = (v: number): string => formatPercent(v, 2);

/** "1.16 [1.10–1.22]": the figure and its interval over processes (none with too few processes). */
export function withInterval(e: Estimate, text: (v: number) => string): string {
  return e.ci ? `${text(e.value)} [${text(e.ci[0])}–${text(e.ci[1])}]` : text(e.value);
}

/** The share over the limit with its interval and how many requests: "0.80% [0.50%–1.20%] (12)". */
export function overLimitText(over: Estimate & { count: number }): string {
  return `${withInterval(over, requestShare)} (${over.count})`;
}

export interface CpuColumn {
  /** Its head; the limit's names the section's limit. */
  head(section: CpuPerRequestSection): string;
  /** The grid it sits in: CPU per request, or the client's latency beside it. */
  grid: 'cpu' | 'latency';
  /** Whether the page's table beside the chart shows it. */
  page: boolean;
  /** Whether the section has it at all (absent: always). */
  shown?(section: CpuPerRequestSection): boolean;
  /** A figure with its interval, in `text` (the terminal puts the interval under it; markdown and the page in brackets). */
  figure?(row: CpuPerRequestRow): Estimate | undefined;
  text?(v: number): string;
  /** A cell of words instead of a figure, or the words markdown and the page give a figure. */
  words?(row: CpuPerRequestRow): string;
  /** Which a narrow terminal leaves out first (grid.ts fitGrid); markdown and the page keep every column. */
  drop?: number;
  /** The page's class for its cells beside `num`. */
  pageClass?: string;
}

const hasDistribution = (section: CpuPerRequestSection): boolean => section.rows.some((r) => r.distribution);

/**
 * The quantiles a narrow terminal leaves out first: those between the ones
 * a reader asks for first (p50, p99) and the first request.
 */
const DROP_ORDER: Partial<Record<RequestQuantileName, number>> = { 'p99.9': 1, max: 2, p90: 3 };

const quantileColumn = (name: RequestQuantileName): CpuColumn => ({
  head: () => name,
  grid: 'cpu',
  page: name === 'p50' || name === 'p99',
  // The median is every row's; the others are a distribution's.
  ...(name === 'p50' ? {} : { shown: hasDistribution }),
  figure: (row) => (name === 'p50' ? cpuMedian(row) : row.distribution?.quantiles[name]),
  text: requestMs,
  ...(DROP_ORDER[name] !== undefined ? { drop: DROP_ORDER[name] } : {}),
});

/** Latency p50 over CPU p50: how many requests' CPU a request waited for, its own included. */
const latencyOverCpu = (row: CpuPerRequestRow): string => (row.latency && row.distribution && row.distribution.quantiles.p50.value > 0 ? `${(row.latency.p50.value / row.distribution.quantiles.p50.value).toFixed(1)}×` : '—');

/** The warm-up: requests before the steady point and their CPU (medians over processes), and processes never steady, marked. */
function warmupText(row: CpuPerRequestRow): string {
  const p = row.phases;
  if (!p) return '—';
  const warm = p.warmupRequests !== undefined && p.warmupMs !== undefined ? `${+p.warmupRequests.toFixed(1)} req, ${requestMs(p.warmupMs)} ms` : '';
  const never = p.unsteady ? `~ ${p.unsteady} of ${p.processes} never steady` : '';
  return [warm, never].filter(Boolean).join('; ') || '—';
}

const hasPhases = (section: CpuPerRequestSection): boolean => section.rows.some((r) => r.phases);
const hasAfter = (section: CpuPerRequestSection): boolean => section.rows.some((r) => r.after !== undefined);

/** Warm requests in processes, or a load case's responses in rounds. */
function requestsText(row: CpuPerRequestRow): string {
  if (row.distribution) return `${row.distribution.requests} in ${row.distribution.processes}`;
  return row.windows ? `${row.windows.responses ?? '—'} in ${row.windows.rounds}` : '—';
}

const hasLatency = (section: CpuPerRequestSection): boolean => section.rows.some((r) => r.latency);

/** Every column of the table, in order. */
const CPU_COLUMNS: readonly CpuColumn[] = [
  ...REQUEST_QUANTILES.map((q) => quantileColumn(q.name)),
  { head: () => 'first', grid: 'cpu', page: false, shown: hasDistribution, figure: (row) => row.distribution?.first, text: requestMs },
  { head: () => 'warm-up', grid: 'cpu', page: true, shown: hasPhases, words: warmupText, drop: 4 },
  { head: () => 'after', grid: 'cpu', page: false, shown: hasAfter, figure: (row) => (row.after === undefined ? undefined : { value: row.after }), text: requestMs, drop: 5 },
  {
    head: (section) => `> ${limitText(section.limitMs!)}`,
    grid: 'cpu',
    page: true,
    shown: (section) => section.limitMs !== undefined,
    figure: (row) => row.distribution?.overLimit,
    text: requestShare,
    words: (row) => (row.distribution?.overLimit ? overLimitText(row.distribution.overLimit) : '—'),
    pageClass: 'over-limit',
  },
  { head: () => 'requests', grid: 'cpu', page: true, words: requestsText },
  { head: () => 'latency p50', grid: 'latency', page: true, shown: hasLatency, figure: (row) => row.latency?.p50, text: requestMs },
  { head: () => 'latency p99', grid: 'latency', page: true, shown: hasLatency, figure: (row) => row.latency?.p99, text: requestMs },
  { head: () => 'CPU p50', grid: 'latency', page: false, shown: hasLatency, figure: (row) => row.distribution?.quantiles.p50, text: requestMs },
  { head: () => 'p50 ÷ CPU', grid: 'latency', page: false, shown: hasLatency, words: latencyOverCpu },
];

/** The columns a layout shows of the section: a grid's (terminal, markdown) or the page's. */
export function cpuColumns(section: CpuPerRequestSection, place: 'cpu' | 'latency' | 'page'): CpuColumn[] {
  return CPU_COLUMNS.filter((c) => (place === 'page' ? c.page : c.grid === place) && (c.shown?.(section) ?? true));
}

/** A cell in one line, as markdown and the page print it: the figure with its interval in brackets, or the column's words; "—" where the row has none. */
export function cpuCell(column: CpuColumn, row: CpuPerRequestRow): string {
  if (column.words) return column.words(row);
  const e = column.figure!(row);
  return e ? withInterval(e, column.text!) : '—';
}

/** A cell in two lines, as the terminal prints it: the figure, and under it its interval ("" for words, or a figure without one). */
export function cpuCellLines(column: CpuColumn, row: CpuPerRequestRow): [string, string] {
  if (!column.figure) return [column.words!(row), ''];
  const e = column.figure(row);
  if (!e) return ['—', ''];
  const text = column.text!;
  return [text(e.value), e.ci ? `${text(e.ci[0])}–${text(e.ci[1])}` : ''];
}
