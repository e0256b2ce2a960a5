/**
 * A request run in brief for the terminal (views/request-summary.ts): per
 * request a heading and one line per runtime, its net p50 and p99 with
 * their intervals, the server's own cost and the verdict; a key of one or
 * two lines; and, with --explain, each figure said in plain words.
 */
import { relativeText } from '../cells/run.ts';
import { limitText, overLimitText, requestMs, withInterval } from '../cells/cpu-per-request.ts';
import { rowProblems } from './cpu-per-request.ts';
import { formatPercent } from '../format.ts';
import type { CpuPerRequestSection } from '../views/cpu-per-request.ts';
import type { RequestSummary, RequestSummaryRow } from '../views/request-summary.ts';
import { counted } from '../text.ts';
import { naturalGridWidth, renderGrid, wrapWords, type GridColumn, type GridRow, type Paint } from './grid.ts';

/** The verdict cell: the bench table's words for a ratio, taken of the net p50s. */
function verdictText(row: RequestSummaryRow, differentWork: boolean): string {
  if (differentWork) return relativeText({ isBaseline: row.isBaseline, relative: row.relative }, true).relative;
  if (row.isBaseline) return 'baseline';
  if (!row.relative) return row.relativeNote ? '—' : '';
  return relativeText({ isBaseline: false, relative: row.relative }, false).relative;
}

const percent = (confidence: number): string => `${+(confidence * 100).toFixed(2)}%`;

/**
 * "95.83% intervals (95% over 6 ratios)": the one level every interval of the lines was read at, and the level over
 * the ratios; with the tables behind the lines, "(95% over 24 ratios, 18 of them in --explain's table)".
 */
function levels(summary: RequestSummary): string {
  const behind = summary.behind ? `, ${summary.behind} of them in --explain's table` : '';
  const over = summary.ratios > 1 ? ` (${percent(summary.tableConfidence)} over ${counted(summary.ratios, 'ratio')}${behind})` : '';
  return `${percent(summary.confidence)} intervals${over}`;
}

/** The share of a row's requests over the CPU limit (the JavaScript thread's requests as measured, as a platform counts them), with its interval or without. */
function overLimitCell(section: CpuPerRequestSection, caseId: string, variantId: string, interval: boolean): string {
  const over = section.rows.find((r) => r.caseId === caseId && r.variantId === variantId)?.distribution?.overLimit;
  if (!over) return '—';
  return interval ? overLimitText(over) : `${formatPercent(over.value, 2)} (${over.count})`;
}

/** The brief grid; the share over the limit with its interval where the line holds it. */
function briefGrid(summary: RequestSummary, section: CpuPerRequestSection, baseline: string, bold: Paint, verdictPaint: (row: RequestSummaryRow) => Paint, intervals: boolean): { columns: GridColumn[]; rows: GridRow[] } {
  const limit = section.limitMs;
  const columns: GridColumn[] = [
    { head: 'runtime', align: 'left' },
    { head: 'p50 net', align: 'right' },
    { head: 'p99 net', align: 'right' },
    { head: 'server', align: 'right' },
    ...(limit !== undefined ? [{ head: `> ${limitText(limit)}`, align: 'right' as const }] : []),
    { head: `vs ${baseline} (p50 net)`, align: 'left' },
  ];
  const rows: GridRow[] = [];
  for (const c of summary.cases) {
    rows.push({ heading: bold(c.label) });
    for (const row of c.rows) {
      const over = limit !== undefined ? [overLimitCell(section, c.caseId, row.variantId, intervals)] : [];
      rows.push({ cells: [row.variantId, withInterval(row.net.p50, requestMs), withInterval(row.net.p99, requestMs), requestMs(row.net.server.value), ...over, { text: verdictText(row, c.differentWork), paint: verdictPaint(row) }] });
    }
  }
  return { columns, rows };
}

export function requestSummaryTerminal(summary: RequestSummary, section: CpuPerRequestSection, baseline: string, maxWidth: number, paints: { bold: Paint; dim: Paint; verdict: (row: RequestSummaryRow) => Paint }, explain: boolean): string[] {
  const { bold, dim } = paints;
  const full = briefGrid(summary, section, baseline, bold, paints.verdict, true);
  const fits = naturalGridWidth(full.columns, full.rows) <= maxWidth;
  const grid = fits ? full : briefGrid(summary, section, baseline, bold, paints.verdict, false);
  const lines = [bold("CPU per request (ms), the handler's JavaScript thread less the server's own cost"), ...renderGrid(grid.columns, grid.rows, { maxWidth, bold, dim })];
  for (const c of summary.cases) for (const row of c.rows) if (row.relativeNote && !row.relative) lines.push(...wrapWords(`${row.variantId} · ${c.label}: ${row.relativeNote}`, maxWidth));
  const limit = section.limitMs !== undefined ? `; > ${limitText(section.limitMs)}: the share of requests over the limit as measured, the server's cost in them (how many)${fits ? '' : ', its interval in the table below (--explain)'}` : '';
  const key = `net: the handler's CPU per request less the server's (server: an empty handler's median, served by the same processes); ${levels(summary)} in brackets, over processes${limit}${explain ? '' : '. --explain: what each figure is, and every table'}`;
  lines.push(...wrapWords(key, maxWidth).map(dim));
  return lines;
}

/** What went wrong in the summarised requests, once per request and problem, naming the runtimes it holds for. */
export function requestSummaryProblems(summary: RequestSummary, section: CpuPerRequestSection): string[] {
  const out: string[] = [];
  for (const c of summary.cases) {
    const runtimes = new Map<string, string[]>();
    for (const row of section.rows.filter((r) => r.caseId === c.caseId)) for (const text of rowProblems(row)) runtimes.set(text, [...(runtimes.get(text) ?? []), row.variantId]);
    for (const [text, ids] of runtimes) out.push(`${c.label} (${ids.join(', ')}): ${text}`);
  }
  return out;
}

/** Each figure of the brief lines and of the tables under them said in plain words (--explain). */
export function requestSummaryExplained(summary: RequestSummary, section: CpuPerRequestSection, baseline: string): string[] {
  const clock = section.rows.find((r) => r.threadClockRatio !== undefined && r.figure.threads === 'jsThread');
  return [
    "How to read a request's figures:",
    "- p50 net, p99 net: the CPU one request cost the runtime's JavaScript thread (the thread that ran the handler), read by the host from the kernel's count of that thread's time before the request is sent and once the server is idle after its response, less the server's own cost; the median and the 99th percentile over every process's steady requests (the warm-up before each process's steady point left out). CPU, not wall time: waiting on I/O costs none, as on a platform that bills CPU per request.",
    "- server: the server's own cost per request, the median CPU of requests to an empty handler (200, no body) sent to the same processes between the handler's requests. It is taken off because it is the runtime's HTTP server, not the handler: it differs from runtime to runtime and would otherwise decide a comparison of handlers.",
    `- [low–high]: the interval over processes (${percent(summary.confidence)}): processes drawn again with replacement, each with all its requests, since the requests of one process share its compiled code and heap and are not independent.`,
    `- vs ${baseline}: the ratio of the net p50s, paired process by process, said as a factor of at least 1 and its direction; "faster"/"slower": its interval excludes 1; "=": within the threshold; "undecided": its interval holds both 1 and a change beyond the threshold, so the run cannot tell.`,
    "- the tables below: the JavaScript thread's figures as measured (the server's cost included), every thread's (the engine's collector and compilers too), and the empty handler's; first: a fresh process's first request; warm-up: the requests before the steady point and their CPU; after: CPU a request left to run later; latency: the client's wait, which grows with requests in flight while CPU per request does not.",
    ...(clock
      ? [
          `- its own thread clock read ${clock.threadClockRatio!.toFixed(3)}× the host's reading (${clock.variantId}): the runtime's own count of its thread's CPU (process.threadCpuUsage, read after each response) over the host's count for the same request. It checks that the host read the thread that ran the handler: near 1 the two agree; far from 1 they count the thread's time differently (a clock that counts in coarse ticks reads low), and the figures above are the host's.`,
        ]
      : []),
  ];
}
