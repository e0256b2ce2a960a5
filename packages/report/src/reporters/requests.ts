/**
 * CPU per request (views/requests.ts) as a terminal table or markdown: per
 * case a heading, per variant its quantiles, first request and share over
 * the limit, each with its interval over processes; then the client's
 * latency beside CPU per request (a grid of its own, so the first keeps its
 * width); then how requests ended where any did not end normally. This
 * file only lays the section out.
 */
import { REQUEST_QUANTILES } from '@rtbench/stats';
import type { Estimate } from '@rtbench/stats';
import { limitText, overLimitText, requestMs as ms, requestShare as share, withInterval } from '../cells/requests.ts';
import { fitGrid, fitLine, renderGrid, wrapWords, type GridColumn, type GridRow } from './grid.ts';
import { markdownCell } from '../text.ts';
import type { RequestRow, RequestsSection } from '../views/requests.ts';

function heads(section: RequestsSection): string[] {
  return [...REQUEST_QUANTILES.map((q) => q.name), 'first', ...(section.limitMs !== undefined ? [`> ${limitText(section.limitMs)}`] : []), 'requests'];
}

function cells(row: RequestRow, section: RequestsSection): string[] {
  const d = row.distribution;
  const over = d.overLimit ? [overLimitText(d.overLimit)] : section.limitMs !== undefined ? ['—'] : [];
  return [...REQUEST_QUANTILES.map((q) => withInterval(d.quantiles[q.name], ms)), withInterval(d.first, ms), ...over, `${d.requests} in ${d.processes}`];
}

/** Lines on requests that did not end normally, and on a JavaScript thread that was not the main one. */
function outcomeLines(section: RequestsSection): string[] {
  const out: string[] = [];
  for (const row of section.rows) {
    const o = row.outcomes;
    const parts = [o.threw ? `${o.threw} threw` : '', o.notAResponse ? `${o.notAResponse} answered no Response` : '', o.timedOut ? `${o.timedOut} got no response in time (no figure)` : '', o.serverError ? `${o.serverError} answered 5xx` : ''].filter(Boolean);
    if (parts.length) out.push(`${row.variantId} · ${row.caseId}: of ${o.ok + o.serverError + o.threw + o.notAResponse + o.timedOut} requests ${parts.join(', ')}`);
    if (!row.jsThread.main) out.push(`${row.variantId} · ${row.caseId}: the JavaScript ran on ${row.jsThread.names.join(', ')}, not the main thread`);
    if (row.threadClockRatio !== undefined && row.caseId.includes('js thread')) out.push(`${row.variantId} · ${row.caseId}: its own thread clock read ${row.threadClockRatio.toFixed(3)}× the host's reading (median over requests)`);
  }
  return out;
}

const SAME_WORK_WORDS = { masked: "same work: the responses' changing spans masked (--same-work masked)", strict: 'same work: every byte of every body (--same-work strict)' } as const;

function keyLine(section: RequestsSection): string {
  const confidence = section.rows[0] ? `${Math.round(section.rows[0].distribution.confidence * 100)}% intervals` : 'intervals';
  return `${section.method}; ${confidence} in brackets${section.limitMs !== undefined ? `; > ${limitText(section.limitMs)}: the share of requests over the limit (how many)` : ''}; requests: warm requests in processes${section.sameWork ? `; ${SAME_WORK_WORDS[section.sameWork]}` : ''}`;
}

/** The latency grid's heading: how many requests were in flight. */
function latencyTitle(section: RequestsSection): string {
  return `Client latency beside CPU per request (ms), ${section.concurrency === 1 ? 'one request at a time' : `${section.concurrency} requests in flight`} to each server`;
}

const LATENCY_HEADS = ['latency p50', 'latency p99', 'CPU p50', 'p50 ÷ CPU'];

/** Latency p50 over CPU p50: how many requests' CPU a request waited for, its own included. */
const latencyOverCpu = (row: RequestRow): string => (row.latency && row.distribution.quantiles.p50.value > 0 ? `${(row.latency.p50.value / row.distribution.quantiles.p50.value).toFixed(1)}×` : '—');

const LATENCY_KEY =
  "latency: the client's, from sending a request to the end of its body, over the same warm requests, pooled, intervals over processes as above; with requests in flight it grows with the queue while CPU per request holds";

function latencyTerminal(section: RequestsSection, maxWidth: number, bold: (s: string) => string, dim: (s: string) => string): string[] {
  const withLatency = section.rows.filter((r) => r.latency);
  if (!withLatency.length) return [];
  const columns: GridColumn[] = [{ head: 'runtime', align: 'left' }, ...LATENCY_HEADS.map((head): GridColumn => ({ head, align: 'right' }))];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of withLatency) {
    if (row.caseId !== previous) rows.push({ heading: bold(row.caseId) });
    const figures = [valueAndInterval(row.latency!.p50, ms), valueAndInterval(row.latency!.p99, ms), valueAndInterval(row.distribution.quantiles.p50, ms)];
    rows.push({ cells: [row.variantId, ...figures.map((f) => f[0]), latencyOverCpu(row)] });
    // Painted as a cell: the grid measures what shows (as in the CPU table).
    if (figures.some((f) => f[1])) rows.push({ cells: ['', ...figures.map((f) => ({ text: f[1], paint: dim })), ''] });
    previous = row.caseId;
  }
  return ['', ...fitLine(latencyTitle(section), maxWidth, bold), ...renderGrid(columns, rows, { maxWidth, bold, dim }), ...wrapWords(LATENCY_KEY, maxWidth).map(dim)];
}

function latencyMarkdown(section: RequestsSection): string[] {
  const withLatency = section.rows.filter((r) => r.latency);
  if (!withLatency.length) return [];
  const lines = ['', `#### ${latencyTitle(section)}`, '', `| case | runtime | ${LATENCY_HEADS.join(' | ')} |`, `|---|---|${LATENCY_HEADS.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of withLatency) {
    const figures = [withInterval(row.latency!.p50, ms), withInterval(row.latency!.p99, ms), withInterval(row.distribution.quantiles.p50, ms), latencyOverCpu(row)];
    lines.push(`| ${row.caseId === previous ? '' : markdownCell(row.caseId)} | ${markdownCell(row.variantId)} | ${figures.join(' | ')} |`);
    previous = row.caseId;
  }
  lines.push('', `<sub>${markdownCell(LATENCY_KEY)}</sub>`);
  return lines;
}

/** A figure's value, and under it its interval (a terminal row each, so the table fits 100 columns). */
function valueAndInterval(e: Estimate | undefined, text: (v: number) => string): [string, string] {
  if (!e) return ['—', ''];
  return [text(e.value), e.ci ? `${text(e.ci[0])}–${text(e.ci[1])}` : ''];
}

/**
 * Which figure columns a narrow terminal leaves out first (grid.ts fitGrid):
 * the quantiles between the ones a reader asks for first (p50, p99) and the
 * first request; markdown and the page keep every column.
 */
const DROP_ORDER: Readonly<Record<string, number>> = { 'p99.9': 1, max: 2, p90: 3 };

export function requestsTerminal(section: RequestsSection, maxWidth: number, bold: (s: string) => string, dim: (s: string) => string): string[] {
  const h = heads(section).slice(0, -1);
  const columns: GridColumn[] = [{ head: 'runtime', align: 'left' }, ...h.map((head): GridColumn => ({ head, align: 'right', ...(DROP_ORDER[head] !== undefined ? { drop: DROP_ORDER[head] } : {}) })), { head: 'requests', align: 'right' }];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.caseId !== previous) rows.push({ heading: bold(row.caseId) });
    const d = row.distribution;
    const figures = [...REQUEST_QUANTILES.map((q) => valueAndInterval(d.quantiles[q.name], ms)), valueAndInterval(d.first, ms), ...(section.limitMs !== undefined ? [valueAndInterval(d.overLimit, share)] : [])];
    rows.push({ cells: [row.variantId, ...figures.map((f) => f[0]), `${d.requests} in ${d.processes}`] });
    // Painted as a cell, not as escape codes in its text: the grid measures what shows, so each interval sits under its figure.
    if (figures.some((f) => f[1])) rows.push({ cells: ['', ...figures.map((f) => ({ text: f[1], paint: dim })), ''] });
    previous = row.caseId;
  }
  const fitted = fitGrid(columns, rows, maxWidth);
  const lines = ['', bold('CPU per request (ms)'), ...renderGrid(fitted.columns, fitted.rows, { maxWidth, bold, dim })];
  for (const line of outcomeLines(section)) lines.push(...wrapWords(line, maxWidth));
  const left = fitted.dropped.length ? `; ${fitted.dropped.join(', ')}: left out to fit ${maxWidth} columns (≥ ${fitted.fullWidth} shows them; --format markdown has every column)` : '';
  lines.push(...wrapWords(keyLine(section).replace('in brackets', 'under each figure') + left, maxWidth).map(dim));
  lines.push(...latencyTerminal(section, maxWidth, bold, dim));
  return lines;
}

export function requestsMarkdown(section: RequestsSection): string[] {
  const h = heads(section);
  const lines = ['', '#### CPU per request (ms)', '', `| case | runtime | ${h.join(' | ')} |`, `|---|---|${h.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of section.rows) {
    lines.push(`| ${row.caseId === previous ? '' : markdownCell(row.caseId)} | ${markdownCell(row.variantId)} | ${cells(row, section).join(' | ')} |`);
    previous = row.caseId;
  }
  for (const line of outcomeLines(section)) lines.push('', `> ${markdownCell(line)}`);
  lines.push('', `<sub>${markdownCell(keyLine(section))}</sub>`);
  lines.push(...latencyMarkdown(section));
  return lines;
}
