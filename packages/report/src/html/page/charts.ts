/**
 * The page's charts, drawn with Observable Plot. Each mark carries a class
 * (rt-…) so the browser test can count what was drawn. Colours are given as
 * CSS colours, which Plot uses as they are.
 */
import * as Plot from '@observablehq/plot';
import { formatDuration } from '../../format.ts';
import type { ForestSection, PageCase, PageCell, PageData, PageVariant, VerdictName } from '../page-data.ts';

/** Colour-blind-safe categorical colours (Tableau 10), one per variant in order. */
const VARIANT_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export const VERDICT_COLOURS: Record<VerdictName, string> = {
  faster: '#1a9850',
  slower: '#d73027',
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

/** Plot measures axis label widths in ems of the 11 px font. */
function labelEms(marginLeft: number): number {
  return Math.max(6, (marginLeft - 24) / 12.5);
}

/** 0.5×, 1×, 1.25×: ratio axis ticks. */
function ratioTick(r: number): string {
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

/** Ratio ticks: 1 (or the nearest round ratio to it), then round ratios outwards. */
export function ratioTicks(lo: number, hi: number): number[] {
  return spreadTicks(ROUND_RATIOS, lo, hi, (xs) => xs.reduce((best, x) => (Math.abs(Math.log(x)) < Math.abs(Math.log(best)) ? x : best)));
}

/** Time ticks (ns): round durations, anchored on a power of ten when one is in range. */
export function timeTicks(lo: number, hi: number, parts = 9): number[] {
  const candidates: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8]) candidates.push(+(m * 10 ** k).toPrecision(3));
  }
  return spreadTicks(candidates, lo, hi, (xs) => xs.find((x) => Number.isInteger(Math.log10(x))) ?? xs[Math.floor(xs.length / 2)]!, parts);
}

/** Grid and axis of a time scale; labels as the axis's text channel (see ratioAxes). */
function timeAxes(domain: [number, number], label: string | null): Plot.Markish[] {
  const ticks = timeTicks(domain[0], domain[1]);
  return [Plot.gridX(ticks), Plot.axisX(ticks, { anchor: 'bottom', text: (d: number) => formatDuration(d), label, labelAnchor: 'right' })];
}

/**
 * Grid and axes of a ratio scale, labelled at ratioTicks. The labels go in as
 * the axis's text channel: given a tickFormat, Plot's log axis would blank
 * any tick whose mantissa is above a threshold (0.8, 0.9, …).
 */
function ratioAxes(lo: number, hi: number, label: string, anchors: ('top' | 'bottom')[]): Plot.Markish[] {
  const ticks = ratioTicks(lo, hi);
  return [
    Plot.gridX(ticks),
    ...anchors.map((anchor) => Plot.axisX(ticks, { anchor, text: (d: number) => ratioTick(d), label: anchor === 'bottom' ? label : null, labelAnchor: 'right' })),
  ];
}

function ratioExtent(values: number[], threshold: number): [number, number] {
  const all = [...values, 1 / (1 + threshold), 1 + threshold];
  return [Math.min(...all), Math.max(...all)];
}

/**
 * One case: a histogram of every sample of each variant (shared log-spaced
 * bins, so bars line up across variants), one row per variant.
 */
export function samplesChart(cells: PageCell[], data: PageData, width: number, domain: [number, number]): SVGSVGElement | HTMLElement {
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
      ...timeAxes(domain, null),
      Plot.rectY(bars, {
        x1: 'x1',
        x2: 'x2',
        y: 'share',
        fy: 'variant',
        fill: 'colour',
        fillOpacity: 0.75,
        insetLeft: 0.5,
        className: 'rt-samples',
        title: (b: (typeof bars)[number]) => `${labels.get(b.variant)}: ${b.count} sample${b.count === 1 ? '' : 's'} in ${formatDuration(b.x1)}–${formatDuration(b.x2)}`,
      }),
      Plot.tickX(medians, { x: 'median', fy: 'variant', stroke: '#111827', strokeWidth: 1.5, className: 'rt-sample-median' }),
      Plot.axisFy({ anchor: 'left', tickFormat: (k: string) => labels.get(k) ?? k, textOverflow: 'ellipsis-middle', lineWidth: labelEms(marginLeft), label: null }),
    ],
  });
}

/**
 * One case: each process's median as a dot (a beeswarm per variant, so
 * clusters of processes — modes — and lone slow processes stand out), the
 * variant's median as a bar and its CI as a band.
 */
export function processChart(cells: PageCell[], data: PageData, width: number, domain: [number, number]): SVGSVGElement | HTMLElement {
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const keys = cells.map((cell) => cell.variant);
  const dots = cells.flatMap((cell) =>
    cell.processMedians.map((p) => ({ ...p, variant: cell.variant, colour: variantColour(data.variants, cell.variant) })),
  );
  const withStats = cells.filter((cell) => cell.median !== undefined && cell.ci !== undefined).map((cell) => ({ ...cell, lo: cell.ci![0], hi: cell.ci![1], colour: variantColour(data.variants, cell.variant) }));
  const modes = cells.flatMap((cell) => (cell.modes ?? []).map((m) => ({ ...m, variant: cell.variant })));
  const marginLeft = labelMargin([...labels.values()], width);
  // A beeswarm of n dots piles up to about n/2 rows around the middle: room for that.
  const facetHeight = Math.max(40, 8 + 3.4 * Math.max(0, ...cells.map((cell) => cell.processMedians.length))) + (modes.length ? 14 : 0);
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
      ...timeAxes(domain, 'time per operation (log scale) →'),
      Plot.ruleY(withStats, { fy: 'variant', y: () => 0.5, x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 14, strokeOpacity: 0.18, className: 'rt-median-ci' }),
      Plot.dot(
        dots,
        Plot.dodgeY('middle', {
          x: 'ns',
          fy: 'variant',
          r: 3,
          stroke: 'colour',
          fill: 'colour',
          fillOpacity: 0.35,
          className: 'rt-process-median',
          title: (d: (typeof dots)[number]) => `${labels.get(d.variant)}, round ${d.round + 1}: process median ${formatDuration(d.ns)}`,
        }),
      ),
      Plot.tickX(withStats, { x: 'median', fy: 'variant', stroke: '#111827', strokeWidth: 2, className: 'rt-median' }),
      // Modes: a bracket under the swarm from each cluster's lowest to highest process median.
      Plot.ruleY(modes, { fy: 'variant', y: () => 0, dy: -2, x1: 'low', x2: 'high', stroke: '#374151', strokeWidth: 2, className: 'rt-mode', title: (m: (typeof modes)[number]) => `mode: ${m.count} processes around ${formatDuration(m.center)} (${formatDuration(m.low)}–${formatDuration(m.high)})` }),
      Plot.text(modes, { fy: 'variant', y: () => 0, dy: -10, x: 'center', text: (m: (typeof modes)[number]) => `×${m.count}`, fill: '#374151', fontSize: 10 }),
      Plot.axisFy({ anchor: 'left', tickFormat: (k: string) => labels.get(k) ?? k, textOverflow: 'ellipsis-middle', lineWidth: labelEms(marginLeft), label: null }),
    ],
  });
}

/**
 * One case, for runs that recorded when each sample started: every process's
 * samples in the order taken (one line per process), so switches between a
 * fast and a slow state inside a process show as steps.
 */
export function tracesChart(cells: PageCell[], data: PageData, width: number, domain: [number, number]): SVGSVGElement | HTMLElement {
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const withTraces = cells.filter((cell) => cell.traces?.length);
  const keys = withTraces.map((cell) => cell.variant);
  const points = withTraces.flatMap((cell) =>
    cell.traces!.flatMap((trace) => trace.points.map(([t, ns]) => ({ t, ns, round: trace.round, variant: cell.variant, colour: variantColour(data.variants, cell.variant) }))),
  );
  const marginLeft = labelMargin([...labels.values()], width);
  return Plot.plot({
    width,
    height: 40 + 70 * keys.length,
    marginLeft,
    marginRight: 56,
    marginTop: 4,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { label: 'ms since the process’s first sample →', labelAnchor: 'right' },
    y: { type: 'log', domain, axis: null },
    fy: { domain: keys, label: null, padding: 0.12 },
    marks: [
      Plot.frame({ stroke: '#e5e7eb' }),
      Plot.axisY(timeTicks(domain[0], domain[1], 3), { anchor: 'right', text: (d: number) => formatDuration(d), label: null, tickSize: 3 }),
      Plot.line(points, {
        x: 't',
        y: 'ns',
        z: 'round',
        fy: 'variant',
        stroke: 'colour',
        strokeOpacity: 0.45,
        strokeWidth: 1,
        className: 'rt-trace',
        title: (p: (typeof points)[number]) => `${labels.get(p.variant)}, round ${p.round + 1}`,
      }),
      Plot.axisFy({ anchor: 'left', tickFormat: (k: string) => labels.get(k) ?? k, textOverflow: 'ellipsis-middle', lineWidth: labelEms(marginLeft), label: null }),
    ],
  });
}

interface RelativePoint {
  caseKey: string;
  variant: string;
  ratio: number;
  lo: number;
  hi: number;
  colour: string;
  decided: boolean;
  title: string;
}

/**
 * Bench view: every variant's time relative to the baseline, per case, with
 * its CI as whiskers. Filled dots: a difference beyond the noise band was
 * detected; hollow: it was not.
 */
export function relativeChart(cases: PageCase[], variants: Set<string>, data: PageData, width: number): SVGSVGElement | HTMLElement {
  const baseline = data.variants.find((v) => v.isBaseline);
  const points: RelativePoint[] = cases.flatMap((c) =>
    c.cells
      .filter((cell) => cell.relative && variants.has(cell.variant))
      .map((cell) => {
        const r = cell.relative!;
        const label = data.variants.find((v) => v.key === cell.variant)?.label ?? cell.variant;
        return {
          caseKey: c.key,
          variant: cell.variant,
          ratio: r.ratio,
          lo: r.ci[0],
          hi: r.ci[1],
          colour: variantColour(data.variants, cell.variant),
          decided: r.verdict === 'faster' || r.verdict === 'slower',
          title: `${c.id}\n${label}: ${cell.relativeText}; ratio ${r.text}`,
        };
      }),
  );
  const caseKeys = cases.filter((c) => points.some((p) => p.caseKey === c.key)).map((c) => c.key);
  const caseLabels = new Map(cases.map((c) => [c.key, c.id]));
  const variantKeys = data.variants.filter((v) => !v.isBaseline && variants.has(v.key)).map((v) => v.key);
  const marginLeft = labelMargin([...caseLabels.values()], width);
  const [lo, hi] = ratioExtent(points.flatMap((p) => [p.lo, p.hi, p.ratio]), data.threshold);
  return Plot.plot({
    width,
    height: 50 + caseKeys.length * Math.max(18, 10 * variantKeys.length + 6),
    marginLeft,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', domain: [lo, hi] },
    y: { domain: variantKeys, axis: null },
    fy: { domain: caseKeys, label: null, padding: 0.15 },
    marks: [
      noiseBand(data.threshold),
      ...ratioAxes(lo, hi, `time relative to ${baseline?.label ?? 'the baseline'} (log scale; < 1: faster) →`, ['top', 'bottom']),
      Plot.ruleX([1], { stroke: '#111827' }),
      Plot.ruleY(points, { fy: 'caseKey', y: 'variant', x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 1.5, className: 'rt-relative-ci' }),
      Plot.dot(points, { fy: 'caseKey', y: 'variant', x: 'ratio', r: 3.5, stroke: 'colour', fill: (p: RelativePoint) => (p.decided ? p.colour : 'white'), strokeWidth: 1.5, className: 'rt-relative', title: 'title' }),
      Plot.axisFy({ anchor: 'left', tickFormat: (k: string) => caseLabels.get(k) ?? k, textOverflow: 'ellipsis-middle', lineWidth: labelEms(marginLeft), label: null }),
    ],
  });
}

interface ForestPoint {
  row: string;
  ratio: number;
  lo: number;
  hi: number;
  colour: string;
  title: string;
}

const GEOMEAN_ROW = 'geomean';

/** Comparison view: one candidate's ratios against the baseline, with CIs, the noise band and verdict colours. */
export function forestChart(section: ForestSection, caseKeys: Set<string>, data: PageData, width: number): SVGSVGElement | HTMLElement {
  const rows = section.rows.filter((r) => caseKeys.has(r.caseKey));
  const points: ForestPoint[] = rows
    .filter((r) => r.ratio)
    .map((r) => ({
      row: r.caseKey,
      ratio: r.ratio!.ratio,
      lo: r.ratio!.ci[0],
      hi: r.ratio!.ci[1],
      colour: VERDICT_COLOURS[r.ratio!.verdict],
      title: `${r.caseLabel}\n${r.texts.ratio}: ${r.texts.verdict} ${r.texts.detail}`,
    }));
  const g = section.geomean;
  const geomean: ForestPoint[] = g ? [{ row: GEOMEAN_ROW, ratio: g.ratio, lo: g.ci[0], hi: g.ci[1], colour: '#111827', title: `geometric mean over ${g.cases} cases: ${g.text}` }] : [];
  const labels = new Map<string, string>(rows.map((r) => [r.caseKey, r.caseLabel]));
  labels.set(GEOMEAN_ROW, 'geometric mean (all cases)');
  const domain = [...rows.map((r) => r.caseKey), ...(g ? [GEOMEAN_ROW] : [])];
  const marginLeft = labelMargin([...labels.values()], width);
  const [lo, hi] = ratioExtent([...points, ...geomean].flatMap((p) => [p.lo, p.hi, p.ratio]), data.threshold);
  return Plot.plot({
    width,
    height: 50 + 20 * domain.length,
    marginLeft,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', domain: [lo, hi] },
    y: { domain, label: null, axis: null },
    marks: [
      noiseBand(data.threshold),
      ...ratioAxes(lo, hi, 'candidate time / baseline time (log scale; < 1: faster) →', ['bottom']),
      Plot.ruleX([1], { stroke: '#111827' }),
      Plot.ruleY(points, { y: 'row', x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 2, className: 'rt-forest-ci' }),
      Plot.dot(points, { y: 'row', x: 'ratio', r: 4, fill: 'colour', className: 'rt-forest-ratio', title: 'title' }),
      Plot.ruleY(geomean, { y: 'row', x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 2, className: 'rt-geomean-ci' }),
      Plot.dot(geomean, { y: 'row', x: 'ratio', r: 5, symbol: 'diamond', fill: 'colour', className: 'rt-geomean', title: 'title' }),
      Plot.axisY({ tickFormat: (k: string) => labels.get(k) ?? k, textOverflow: 'ellipsis-middle', lineWidth: labelEms(marginLeft), label: null }),
    ],
  });
}

/** The verdicts' noise band: ratios in [1/(1+t), 1+t] are not a change. */
function noiseBand(threshold: number): Plot.Markish {
  return Plot.rectX([{ x1: 1 / (1 + threshold), x2: 1 + threshold }], { x1: 'x1', x2: 'x2', fill: '#e5e7eb', fillOpacity: 0.8, className: 'rt-noise-band' });
}
