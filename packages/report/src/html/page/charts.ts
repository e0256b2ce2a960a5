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

function timeAxisFormat(ns: number): string {
  return formatDuration(ns);
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
    x: { type: 'log', domain, label: null, tickFormat: timeAxisFormat, ticks: 6 },
    y: { type: 'sqrt', axis: null },
    fy: { domain: keys, label: null, padding: 0.12 },
    marks: [
      Plot.frame({ stroke: '#e5e7eb', anchor: 'bottom' }),
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
      Plot.axisFy({ anchor: 'left', tickFormat: (k: string) => labels.get(k) ?? k, textOverflow: 'ellipsis', lineWidth: labelEms(marginLeft), label: null }),
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
  const marginLeft = labelMargin([...labels.values()], width);
  return Plot.plot({
    width,
    // A beeswarm of n dots piles up to about n/2 rows around the middle: room for that.
    height: 44 + keys.length * Math.max(40, 8 + 3.4 * Math.max(0, ...cells.map((cell) => cell.processMedians.length))),
    marginLeft,
    marginTop: 4,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', domain, label: 'time per operation (log scale) →', tickFormat: timeAxisFormat, ticks: 6, grid: true },
    fy: { domain: keys, label: null, padding: 0.1 },
    marks: [
      Plot.ruleY(withStats, { fy: 'variant', x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 14, strokeOpacity: 0.18, className: 'rt-median-ci' }),
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
      Plot.axisFy({ anchor: 'left', tickFormat: (k: string) => labels.get(k) ?? k, textOverflow: 'ellipsis', lineWidth: labelEms(marginLeft), label: null }),
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
  return Plot.plot({
    width,
    height: 50 + caseKeys.length * Math.max(18, 10 * variantKeys.length + 6),
    marginLeft,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', axis: 'both', label: `time relative to ${baseline?.label ?? 'the baseline'} (log scale; < 1: faster) →`, tickFormat: ratioTick, grid: true },
    y: { domain: variantKeys, axis: null },
    fy: { domain: caseKeys, label: null, padding: 0.15 },
    marks: [
      noiseBand(data.threshold),
      Plot.ruleX([1], { stroke: '#111827' }),
      Plot.ruleY(points, { fy: 'caseKey', y: 'variant', x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 1.5, className: 'rt-relative-ci' }),
      Plot.dot(points, { fy: 'caseKey', y: 'variant', x: 'ratio', r: 3.5, stroke: 'colour', fill: (p: RelativePoint) => (p.decided ? p.colour : 'white'), strokeWidth: 1.5, className: 'rt-relative', title: 'title' }),
      Plot.axisFy({ anchor: 'left', tickFormat: (k: string) => caseLabels.get(k) ?? k, textOverflow: 'ellipsis', lineWidth: labelEms(marginLeft), label: null }),
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
  return Plot.plot({
    width,
    height: 50 + 20 * domain.length,
    marginLeft,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { type: 'log', label: 'candidate time / baseline time (log scale; < 1: faster) →', tickFormat: ratioTick, grid: true },
    y: { domain, label: null, axis: null },
    marks: [
      noiseBand(data.threshold),
      Plot.ruleX([1], { stroke: '#111827' }),
      Plot.ruleY(points, { y: 'row', x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 2, className: 'rt-forest-ci' }),
      Plot.dot(points, { y: 'row', x: 'ratio', r: 4, fill: 'colour', className: 'rt-forest-ratio', title: 'title' }),
      Plot.ruleY(geomean, { y: 'row', x1: 'lo', x2: 'hi', stroke: 'colour', strokeWidth: 2, className: 'rt-geomean-ci' }),
      Plot.dot(geomean, { y: 'row', x: 'ratio', r: 5, symbol: 'diamond', fill: 'colour', className: 'rt-geomean', title: 'title' }),
      Plot.axisY({ tickFormat: (k: string) => labels.get(k) ?? k, textOverflow: 'ellipsis', lineWidth: labelEms(marginLeft), label: null }),
    ],
  });
}

/** The verdicts' noise band: ratios in [1/(1+t), 1+t] are not a change. */
function noiseBand(threshold: number): Plot.Markish {
  return Plot.rectX([{ x1: 1 / (1 + threshold), x2: 1 + threshold }], { x1: 'x1', x2: 'x2', fill: '#e5e7eb', fillOpacity: 0.8, className: 'rt-noise-band' });
}
