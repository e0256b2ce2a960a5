/**
 * The page's charts, drawn with Observable Plot. Each mark carries a class
 * (rt-…) so the browser test can count what was drawn. Colours are given as
 * CSS colours, which Plot uses as they are.
 */
import * as Plot from '@observablehq/plot';
import { formatMetric } from '../../format.ts';
import { counted } from '../../text.ts';
import type { ChartUnit, PageCell, PageData, PageVariant, VerdictName } from '../page-data.ts';
import { wrapLabel } from './labels.ts';

/** Colour-blind-safe categorical colours (Tableau 10), one per variant in order. */
const VARIANT_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export const VERDICT_COLOURS: Record<VerdictName, string> = {
  faster: '#1a9850',
  slower: '#d73027',
  small: '#5b8fa8',
  equivalent: '#6b7280',
  inconclusive: '#d99a00',
};

export function variantColour(variants: PageVariant[], key: string): string {
  const i = variants.findIndex((v) => v.key === key);
  return VARIANT_COLOURS[(i < 0 ? 0 : i) % VARIANT_COLOURS.length]!;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';

/** Left margin for a list of labels: wide enough for most, never more than a third of the chart. */
function labelMargin(labels: string[], width: number): number {
  const longest = labels.reduce((n, l) => Math.max(n, l.length), 0);
  return Math.max(80, Math.min(Math.round(width / 3), 16 + longest * 6.2));
}

/**
 * The facets' variant labels, wrapped to the left margin (never cut in the
 * middle: see labels.ts), with the full label as a tooltip.
 */
function variantAxis(labels: Map<string, string>, marginLeft: number): Plot.Markish {
  const chars = (marginLeft - 14) / 6.2;
  return Plot.axisFy({
    anchor: 'left',
    tickFormat: (k: string) => wrapLabel(labels.get(k) ?? k, chars),
    title: (k: string) => labels.get(k) ?? k,
    className: 'rt-facet-label',
    label: null,
  });
}

/** 0.5×, 1×, 1.25×: ratio axis ticks. */
export function ratioTick(r: number): string {
  return `${+r.toPrecision(3)}×`;
}

/** Round ratios a reader can place: 1, 1.1, 1.25, 1.5, 2, … and their reciprocals' neighbours, per decade. */
const ROUND_RATIOS = [-2, -1, 0, 1].flatMap((k) => [1, 1.1, 1.2, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9].map((m) => +(m * 10 ** k).toPrecision(3)));
ROUND_RATIOS.push(0.95, 1.05, 0.98, 1.02);
ROUND_RATIOS.sort((a, b) => a - b);

/**
 * Ticks for a log axis over [lo, hi]: the anchor, then candidates outwards
 * from it, at least 1/parts of the axis apart. (Plot's own log ticks leave
 * narrow domains, e.g. 0.8–1.3, mostly unlabelled.)
 */
function spreadTicks(candidates: number[], lo: number, hi: number, anchorOf: (inRange: number[]) => number, parts = 9): number[] {
  const inRange = candidates.filter((x) => x >= lo && x <= hi);
  if (!inRange.length) return [lo, hi];
  const gap = Math.log(hi / lo) / parts;
  const anchor = anchorOf(inRange);
  const ticks = [anchor];
  let last = anchor;
  for (const x of inRange.filter((v) => v > anchor)) if (Math.log(x / last) >= gap) ticks.push((last = x));
  last = anchor;
  for (const x of inRange.filter((v) => v < anchor).reverse()) if (Math.log(last / x) >= gap) ticks.push((last = x));
  return ticks.sort((a, b) => a - b);
}

/** Ratio ticks: 1 (or the nearest round ratio to it), then round ratios outwards, at least 1/parts of the axis apart. */
export function ratioTicks(lo: number, hi: number, parts = 9): number[] {
  return spreadTicks(ROUND_RATIOS, lo, hi, (xs) => xs.reduce((best, x) => (Math.abs(Math.log(x)) < Math.abs(Math.log(best)) ? x : best)), parts);
}

/** A value on a case's charts, written as the tables write its unit (format.ts). */
const valueText =
  (unit: ChartUnit) =>
  (v: number): string =>
    formatMetric(v, { unit });

/** The label of a case's value axis. */
const AXIS_LABEL: Readonly<Record<ChartUnit, string>> = {
  ns: 'time per operation (log scale) →',
  instructions: 'instructions per operation (log scale) →',
  switches: 'context switches per request (log scale) →',
};

/** Round-value ticks (durations in ns, or counts), anchored on a power of ten when one is in range. */
export function timeTicks(lo: number, hi: number, parts = 9): number[] {
  const candidates: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8]) candidates.push(+(m * 10 ** k).toPrecision(3));
  }
  return spreadTicks(candidates, lo, hi, (xs) => xs.find((x) => Number.isInteger(Math.log10(x))) ?? xs[Math.floor(xs.length / 2)]!, parts);
}

/** Grid and axis of a case's value scale; labels as the axis's text channel (see ratioAxes). */
function valueAxes(domain: [number, number], unit: ChartUnit, label: string | null, width: number): Plot.Markish[] {
  // About one label per 110 px, so that "150 µs" and "200 µs" never touch in a narrow window.
  const ticks = timeTicks(domain[0], domain[1], Math.max(3, Math.min(9, Math.floor(width / 110))));
  return [Plot.gridX(ticks), Plot.axisX(ticks, { anchor: 'bottom', text: valueText(unit), label, labelAnchor: 'right' })];
}

/**
 * One case: a histogram of every sample of each variant (shared log-spaced
 * bins, so bars line up across variants), one row per variant.
 */
export function samplesChart(cells: PageCell[], data: PageData, width: number, domain: [number, number], unit: ChartUnit): SVGSVGElement | HTMLElement {
  const text = valueText(unit);
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const keys = cells.map((cell) => cell.variant);
  const bars = cells.flatMap((cell) =>
    cell.histogram.map((b) => ({ ...b, variant: cell.variant, colour: variantColour(data.variants, cell.variant) })),
  );
  const medians = cells.filter((cell) => cell.median !== undefined);
  const marginLeft = labelMargin([...labels.values()], width);
  return Plot.plot({
    width,
    height: 28 + 44 * keys.length,
    marginLeft,
    marginTop: 6,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', domain },
    y: { type: 'sqrt', axis: null },
    fy: { domain: keys, label: null, padding: 0.12 },
    marks: [
      Plot.frame({ stroke: '#e5e7eb', anchor: 'bottom' }),
      ...valueAxes(domain, unit, null, width),
      Plot.rectY(bars, {
        x1: 'x1',
        x2: 'x2',
        y: 'share',
        fy: 'variant',
        fill: 'colour',
        fillOpacity: 0.75,
        insetLeft: 0.5,
        className: 'rt-samples',
        title: (b: (typeof bars)[number]) => `${labels.get(b.variant)}: ${counted(b.count, 'sample')} in ${text(b.x1)}–${text(b.x2)}`,
      }),
      Plot.tickX(medians, { x: 'median', fy: 'variant', stroke: '#111827', strokeWidth: 1.5, className: 'rt-sample-median' }),
      variantAxis(labels, marginLeft),
    ],
  });
}

/**
 * One case: each process's median as a dot (a beeswarm per variant, so
 * clusters of processes — modes — and lone slow processes stand out), the
 * variant's median as a bar and its CI as a band.
 */
export function processChart(cells: PageCell[], data: PageData, width: number, domain: [number, number], unit: ChartUnit): SVGSVGElement | HTMLElement {
  const text = valueText(unit);
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const keys = cells.map((cell) => cell.variant);
  const dots = cells.flatMap((cell) =>
    cell.processMedians.map((p) => ({ ...p, variant: cell.variant, colour: variantColour(data.variants, cell.variant) })),
  );
  const withStats = cells.filter((cell) => cell.median !== undefined && cell.ci !== undefined).map((cell) => ({ ...cell, lo: cell.ci![0], hi: cell.ci![1], colour: variantColour(data.variants, cell.variant) }));
  const modes = cells.flatMap((cell) => (cell.modes ?? []).map((m) => ({ ...m, variant: cell.variant })));
  const marginLeft = labelMargin([...labels.values()], width);
  // A beeswarm of n dots piles up to about n/2 rows around the middle: room for that.
  // Modes get a strip of their own under the swarm (the swarm is lifted by half of it), so their labels never sit on the dots.
  const modeStrip = modes.length ? 16 : 0;
  const facetHeight = Math.max(40, 8 + 3.4 * Math.max(0, ...cells.map((cell) => cell.processMedians.length))) + modeStrip;
  return Plot.plot({
    width,
    height: 44 + keys.length * facetHeight,
    marginLeft,
    marginTop: 4,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', domain },
    // Within a facet: 0 is the bottom, 1 the top (the beeswarm places its dots in pixels on its own).
    y: { domain: [0, 1], axis: null },
    fy: { domain: keys, label: null, padding: 0.1 },
    marks: [
      ...valueAxes(domain, unit, AXIS_LABEL[unit], width),
      Plot.ruleY(withStats, { fy: 'variant', y: () => 0.5, dy: -modeStrip / 2, x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 14, strokeOpacity: 0.18, className: 'rt-median-ci' }),
      Plot.dot(
        dots,
        Plot.dodgeY('middle', {
          x: 'ns',
          fy: 'variant',
          r: 3,
          stroke: 'colour',
          fill: 'colour',
          fillOpacity: 0.35,
          dy: -modeStrip / 2,
          className: 'rt-process-median',
          title: (d: (typeof dots)[number]) => `${labels.get(d.variant)}, round ${d.round + 1}: process median ${text(d.ns)}`,
        }),
      ),
      Plot.tickX(withStats, { x: 'median', fy: 'variant', stroke: '#111827', strokeWidth: 2, className: 'rt-median' }),
      // Modes: a bracket in the strip under the swarm from each cluster's lowest to highest process median, its count to the right.
      Plot.ruleY(modes, { fy: 'variant', y: () => 0, dy: -2, x1: 'low', x2: 'high', stroke: '#374151', strokeWidth: 2, className: 'rt-mode', title: (m: (typeof modes)[number]) => `mode: ${m.count} processes around ${text(m.center)} (${text(m.low)}–${text(m.high)})` }),
      Plot.text(modes, { fy: 'variant', y: () => 0, dy: -3, dx: 4, x: 'high', textAnchor: 'start', text: (m: (typeof modes)[number]) => `×${m.count}`, fill: '#374151', fontSize: 10, className: 'rt-mode-label' }),
      variantAxis(labels, marginLeft),
    ],
  });
}

/**
 * One case, for runs that recorded when each sample started: every process's
 * samples in the order taken (one line per process), so switches between a
 * fast and a slow state inside a process show as steps.
 */
export function tracesChart(cells: PageCell[], data: PageData, width: number, domain: [number, number], unit: ChartUnit): SVGSVGElement | HTMLElement {
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const withTraces = cells.filter((cell) => cell.traces?.length);
  const points = withTraces.flatMap((cell) =>
    cell.traces!.flatMap((trace) => trace.points.map(([t, ns]) => ({ t, ns, round: trace.round, variant: cell.variant, colour: variantColour(data.variants, cell.variant) }))),
  );
  return processLines({ width, labels, keys: withTraces.map((cell) => cell.variant), domain, unit, xLabel: 'ms since the process’s first sample →', className: 'rt-trace', points, title: (p) => `${labels.get(p.variant)}, round ${p.round + 1}` });
}

/**
 * One case, for runs whose warmups were watched: each process's warmup
 * (ns per call against ms since its warmup began, one line per process,
 * log scale) and a dot where the watch found it steady, per runtime.
 */
export function warmupChart(cells: PageCell[], data: PageData, width: number): SVGSVGElement | HTMLElement {
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const withCurves = cells.filter((cell) => cell.warmups?.length);
  const points = withCurves.flatMap((cell) =>
    cell.warmups!.flatMap((curve) => curve.points.map(([t, ns]) => ({ t, ns, round: curve.round, variant: cell.variant, colour: variantColour(data.variants, cell.variant), what: curve.class ?? '' }))),
  );
  const settled = withCurves.flatMap((cell) =>
    cell.warmups!.flatMap((curve) => {
      if (curve.steadyMs === undefined) return [];
      const at = curve.points.find(([t]) => t >= curve.steadyMs!) ?? curve.points[curve.points.length - 1]!;
      return [{ t: at[0], ns: at[1], variant: cell.variant, round: curve.round }];
    }),
  );
  const values = points.map((p) => p.ns).filter((ns) => ns > 0);
  return processLines({
    width,
    labels,
    keys: withCurves.map((cell) => cell.variant),
    domain: [Math.min(...values), Math.max(...values)],
    // Warmup curves are the loop's own timings, whatever the case's samples count.
    unit: 'ns',
    xLabel: 'ms since the process’s warmup began →',
    className: 'rt-warmup',
    points,
    title: (p) => `${labels.get(p.variant)}, round ${p.round + 1}${p.what ? `: ${p.what}` : ''}`,
    extra: [Plot.dot(settled, { x: 't', y: 'ns', fy: 'variant', r: 2.5, fill: '#111827', title: (p: (typeof settled)[number]) => `${labels.get(p.variant)}, round ${p.round + 1}: steady at ${p.t} ms` })],
  });
}

interface ProcessPoint {
  t: number;
  ns: number;
  round: number;
  variant: string;
  colour: string;
}

/** One line per process (its values over ms, log scale), a facet per runtime: the sample traces and the warmup curves. */
function processLines<P extends ProcessPoint>(o: { width: number; labels: Map<string, string>; keys: string[]; domain: [number, number]; unit: ChartUnit; xLabel: string; className: string; points: P[]; title: (p: P) => string; extra?: Plot.Markish[] }): SVGSVGElement | HTMLElement {
  const marginLeft = labelMargin([...o.labels.values()], o.width);
  return Plot.plot({
    width: o.width,
    height: 40 + 70 * o.keys.length,
    marginLeft,
    marginRight: 56,
    marginTop: 4,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { label: o.xLabel, labelAnchor: 'right' },
    y: { type: 'log', domain: o.domain, axis: null },
    fy: { domain: o.keys, label: null, padding: 0.12 },
    marks: [
      Plot.frame({ stroke: '#e5e7eb' }),
      Plot.axisY(timeTicks(o.domain[0], o.domain[1], 3), { anchor: 'right', text: valueText(o.unit), label: null, tickSize: 3 }),
      Plot.line(o.points, { x: 't', y: 'ns', z: 'round', fy: 'variant', stroke: 'colour', strokeOpacity: 0.45, strokeWidth: 1, className: o.className, title: o.title }),
      ...(o.extra ?? []),
      variantAxis(o.labels, marginLeft),
    ],
  });
}
