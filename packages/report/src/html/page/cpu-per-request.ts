/**
 * CPU per request, the page's one section for it (under each case that has
 * it, whichever measurer read it): each runtime's samples as the share of
 * them above each CPU time (both scales log, so the tail a limit cuts is as
 * legible as the body), the run's --cpu-limit as a line, and beside it the
 * table's columns for the page as the terminal prints them
 * (html/cpu-per-request-data.ts). A curve's height where it crosses the
 * line is its share over the limit.
 */
import * as Plot from '@observablehq/plot';
import type { PageData } from '../page-data.ts';
import type { PageCaseRequests, PageRequestCurve } from '../cpu-per-request-data.ts';
import { timeTicks, variantColour } from './charts.ts';
import { el, variantTable } from './dom.ts';

interface Labels {
  variant(key: string): string;
  variantSwatch(key: string): HTMLElement;
}

const LIMIT_COLOUR = '#d73027';
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';
const SHARE_TICKS = [1, 0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6];

const msText = (v: number): string => `${+v.toPrecision(3)} ms`;
const shareText = (v: number): string => `${+(v * 100).toPrecision(3)}%`;

/** The limit in the words of the CLI option. */
const limitText = (limitMs: number): string => `${+limitMs.toFixed(3)} ms`;

/** What the chart draws, by what one sample is. */
const DRAWN = {
  requests: "each runtime's requests after each process's first: the share above each CPU time (log scales)",
  windows: "each runtime's load windows, one a round (a window's CPU over the responses counted in it): the share above each CPU time (log scales)",
} as const;

/** The block under a case's table: its heading, the figures beside each runtime, and the chart's container (drawn by requestsChart). */
export function requestsBlock(requests: PageCaseRequests, labels: Labels): { block: HTMLElement; layout: HTMLElement; chart: HTMLElement; table: HTMLElement } {
  const limit = requests.limitMs;
  const chart = el('div', { class: 'chart requests-chart' });
  const table = variantTable(
    'metrics-table requests-table',
    [el('th', {}, 'runtime'), ...requests.heads.map((head) => el('th', { class: 'num' }, head.text))],
    requests.curves.map((curve) => ({
      variant: curve.variant,
      cells: [
        el('td', { class: 'variant' }, labels.variantSwatch(curve.variant), labels.variant(curve.variant)),
        ...curve.cells.map((cell, i) => el('td', { class: requests.heads[i]?.class ? `num ${requests.heads[i]!.class}` : 'num' }, cell)),
      ],
    })),
  );
  const drawn = DRAWN[requests.samples];
  // A load case's figure is a median over rounds, with no interval.
  const unit = requests.samples === 'windows' ? 'ms' : 'ms, intervals over processes';
  const hint =
    limit !== undefined
      ? ` — ${drawn}; red line: --cpu-limit ${limitText(limit)}, where a curve crosses it is the share over it; ${unit}`
      : ` — ${drawn}; no --cpu-limit was given; ${unit}`;
  const latency = requests.heads.some((h) => h.text.startsWith('latency'));
  const layout = el('div', { class: 'requests-layout' }, chart, el('div', { class: 'scroll' }, table));
  const block = el('div', { class: 'case-requests' }, el('h4', {}, 'CPU per request', el('span', { class: 'hint' }, latency ? `${hint}; latency p50, p99: the client's, from sending a request to the end of its body` : hint)), layout);
  return { block, layout, chart, table };
}

/** The narrowest chart worth drawing beside the figures; narrower, it goes above them at the full width. */
const MIN_BESIDE = 380;

/** The chart's width in its block `width` wide, with the figures' table `tableWidth` wide beside it when both fit (the gap: style.css). */
export function requestsChartWidth(width: number, tableWidth: number): number {
  const beside = width - tableWidth - 20;
  return beside >= MIN_BESIDE ? beside : width;
}

/** The curves of the runtimes shown, and the limit's line. */
export function requestsChart(curves: PageRequestCurve[], limitMs: number | undefined, data: PageData, width: number): SVGSVGElement | HTMLElement {
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const points = curves.flatMap((curve) => curve.points.map(([ms, share]) => ({ ms, share, variant: curve.variant, colour: variantColour(data.variants, curve.variant) })));
  const values = points.map((p) => p.ms).filter((ms) => ms > 0);
  const lo = Math.min(...values, limitMs ?? Infinity);
  const hi = Math.max(...values, limitMs ?? -Infinity);
  const xDomain: [number, number] = [lo / 1.1, hi * 1.1];
  const floor = Math.min(...points.map((p) => p.share));
  const yDomain: [number, number] = [floor / 1.5, 1];
  // Where each curve crosses the limit: the share of its requests above it (none when no request was over).
  const crossings =
    limitMs === undefined
      ? []
      : curves.flatMap((curve) => {
          const above = curve.points.find(([ms]) => ms > limitMs);
          return above ? [{ ms: limitMs, share: above[1], variant: curve.variant, colour: variantColour(data.variants, curve.variant), text: curve.overText ?? '' }] : [];
        });
  const xTicks = timeTicks(xDomain[0], xDomain[1], Math.max(3, Math.min(9, Math.floor(width / 110))));
  const yTicks = SHARE_TICKS.filter((s) => s >= yDomain[0]);
  return Plot.plot({
    width,
    height: 260,
    marginLeft: 56,
    marginTop: 14,
    marginBottom: 34,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', domain: xDomain },
    y: { type: 'log', domain: yDomain },
    marks: [
      Plot.frame({ stroke: '#e5e7eb' }),
      Plot.gridX(xTicks),
      Plot.gridY(yTicks),
      Plot.axisX(xTicks, { text: msText, label: 'CPU per request (log scale) →', labelAnchor: 'right' }),
      Plot.axisY(yTicks, { text: shareText, label: '↑ share of requests above', labelAnchor: 'top' }),
      limitMs !== undefined ? Plot.ruleX([limitMs], { stroke: LIMIT_COLOUR, strokeWidth: 1.5, strokeDasharray: '5,3', className: 'rt-cpu-limit', title: () => `--cpu-limit ${limitText(limitMs)}` }) : null,
      limitMs !== undefined ? Plot.text([limitMs], { x: (d: number) => d, frameAnchor: 'top', dy: -8, text: () => `limit ${limitText(limitMs)}`, fill: LIMIT_COLOUR, textAnchor: 'middle', className: 'rt-cpu-limit-label' }) : null,
      Plot.line(points, { x: 'ms', y: 'share', z: 'variant', stroke: 'colour', strokeWidth: 1.5, curve: 'step-before', className: 'rt-request-curve', title: (p: (typeof points)[number]) => labels.get(p.variant) ?? p.variant }),
      Plot.dot(crossings, { x: 'ms', y: 'share', r: 3.5, fill: 'colour', stroke: '#ffffff', className: 'rt-limit-crossing', title: (c: (typeof crossings)[number]) => `${labels.get(c.variant) ?? c.variant}: ${c.text} of requests over the limit` }),
    ],
  });
}
