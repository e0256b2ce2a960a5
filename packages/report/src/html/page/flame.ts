/**
 * Flame graphs of the run's profiles (`--profile`), when the page data has
 * them: per case an icicle per variant (root on top, each frame as wide as its
 * share of the sampling phase, coloured by category), and for a comparison
 * each other arm's icicle coloured by how each frame's share moved from the
 * baseline, with the functions whose self time moved most. Allocation profiles
 * get the same charts by bytes: one icicle code, parametrised by the tree's
 * unit (Measure). Laid out with d3-hierarchy's partition, drawn with
 * Observable Plot; a click zooms into a frame; each chart scrolls in its box.
 */
import * as Plot from '@observablehq/plot';
import { hierarchy, partition, type HierarchyRectangularNode } from 'd3-hierarchy';
import { formatBytes, treeAmount, type CallTree, type CallTreeNode, type CallTreeUnit, type ProfileCategory } from '@rtbench/core/call-tree';
import type { DiffFrame, PageFlame, PageFlameDiff, PageProfiles } from '../flame-data.ts';
import type { PageData } from '../page-data.ts';
import { variantColour } from './charts.ts';
import { el, replace, swatch } from './dom.ts';

/** Light enough for black labels; the harness grey and idle pale, so the suite's own code stands out. */
const CATEGORY_COLOURS: Record<ProfileCategory, string> = {
  benchmark: '#f5a65b',
  harness: '#c9c9c9',
  runtime: '#8cd3c7',
  engine: '#9ec3e6',
  gc: '#f08a8a',
  idle: '#ececec',
};

const CATEGORY_NOTES: Record<ProfileCategory, string> = {
  benchmark: "the suite's code",
  harness: "rtbench's timing loop",
  runtime: "the runtime's JavaScript",
  engine: 'builtins and native code',
  gc: 'garbage collector',
  idle: 'idle',
};

const ROW = 18;
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';
/** Average width of a label character at 11 px, for deciding what fits. */
const CHAR_PX = 6.4;
/** Narrower than this, a chart scrolls sideways inside its box. */
const MIN_WIDTH = 480;

type Frame<U extends CallTreeUnit> = CallTreeNode<U> | DiffFrame<U>;
type Laid<F> = HierarchyRectangularNode<F>;

function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : value >= 1 ? `${value.toFixed(1)} ms` : `${value.toFixed(2)} ms`;
}

/** What a chart's frames weigh, and how the page writes it. */
interface Measure<U extends CallTreeUnit> {
  unit: U;
  amount: (value: number) => string;
  /** "share of <of>" */
  of: string;
}

const TIME: Measure<'Ms'> = { unit: 'Ms', amount: ms, of: 'time' };
const BYTES: Measure<'Bytes'> = { unit: 'Bytes', amount: formatBytes, of: 'allocated bytes' };

const amountOf = <U extends CallTreeUnit>(f: Frame<U>, which: 'self' | 'total' | 'folded', m: Measure<U>): number => treeAmount(f, which, m.unit);

function pct(share: number): string {
  const v = share * 100;
  return v !== 0 && v < 0.1 ? `${v.toPrecision(1)}%` : `${v.toFixed(1)}%`;
}

function points(delta: number): string {
  const v = Math.abs(delta * 100);
  return `${delta < 0 ? '−' : '+'}${v !== 0 && v < 0.1 ? v.toPrecision(1) : v.toFixed(1)} pt`;
}

/** What a frame holds besides its drawn children (its self amount and folded callees), so partition's sums are its total. */
function ownValue<U extends CallTreeUnit>(f: Frame<U>, m: Measure<U>): number {
  return Math.max(0, amountOf(f, 'total', m) - (f.children as Frame<U>[]).reduce((n, c) => n + amountOf(c, 'total', m), 0));
}

/** The frame's lines of the tooltip shared by both views; `ops`: the case's calls in the window, for bytes per call. */
function frameLines<U extends CallTreeUnit>(f: Frame<U>, total: number, m: Measure<U>, ops?: number): string[] {
  const [all, self, folded] = [amountOf(f, 'total', m), amountOf(f, 'self', m), amountOf(f, 'folded', m)];
  return [
    f.name,
    f.location ?? '(native: no source location)',
    `category: ${f.category}`,
    `total ${m.amount(all)} (${pct(all / total)}), self ${m.amount(self)} (${pct(self / total)})`,
    ...(ops ? [`per call: total ${m.amount(all / ops)}, self ${m.amount(self / ops)}`] : []),
    ...(folded ? [`${m.amount(folded)} in callees too small to draw`] : []),
  ];
}

interface IcicleOptions<U extends CallTreeUnit, F extends Frame<U>> {
  measure: Measure<U>;
  width: number;
  /** CSS colour (categories) or number (a diverging scale given in `color`). */
  fill: (f: F) => string | number;
  color?: Plot.ScaleOptions;
  title: (f: F) => string;
  className: string;
  /** Label colour (default near-black): white on dark fills. */
  ink?: (f: F) => string;
  onPick: (f: F) => void;
}

/** One icicle: partition() lays the frames out in [0, 1] × depth, Plot draws a rect and (where it fits) a label per frame. */
function icicle<U extends CallTreeUnit, F extends Frame<U>>(root: F, options: IcicleOptions<U, F>): SVGSVGElement | HTMLElement {
  const laid = partition<F>().size([1, 1])(hierarchy<F>(root, (f) => f.children as F[]).sum((f) => ownValue(f, options.measure)));
  const rows = laid.height + 1;
  const { width } = options;
  // Slivers under half a pixel are not drawn (their time is in their parent's width).
  const nodes = laid.descendants().filter((n) => (n.x1 - n.x0) * width >= 0.5);
  const label = (n: Laid<F>): string => {
    const fit = Math.floor(((n.x1 - n.x0) * width - 6) / CHAR_PX);
    const name = n.data.name;
    return fit < 3 ? '' : name.length <= fit ? name : `${name.slice(0, fit - 1)}…`;
  };
  const labelled = nodes.filter((n) => label(n) !== '');
  const svg = Plot.plot({
    width,
    height: rows * ROW,
    margin: 0,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { domain: [0, 1], axis: null },
    y: { domain: [0, 1], range: [0, rows * ROW], axis: null },
    ...(options.color ? { color: options.color } : {}),
    marks: [
      Plot.rect(nodes, {
        x1: (n: Laid<F>) => n.x0,
        x2: (n: Laid<F>) => n.x1,
        y1: (n: Laid<F>) => n.y0,
        y2: (n: Laid<F>) => n.y1,
        fill: (n: Laid<F>) => options.fill(n.data),
        inset: 0.5,
        className: options.className,
        title: (n: Laid<F>) => options.title(n.data),
      }),
      Plot.text(labelled, {
        x: (n: Laid<F>) => n.x0,
        y: (n: Laid<F>) => (n.y0 + n.y1) / 2,
        text: label,
        textAnchor: 'start',
        dx: 4,
        fill: options.ink ? (n: Laid<F>) => options.ink!(n.data) : '#111827',
        pointerEvents: 'none',
        className: 'rt-flame-label',
      }),
    ],
  });
  // Plot draws one rect per datum, in order: a click zooms into that frame.
  const rects = svg.querySelectorAll(`.${options.className} rect`);
  rects.forEach((rect, i) => {
    const node = nodes[i];
    if (!node) return;
    rect.addEventListener('click', () => options.onPick(node.data));
  });
  return svg;
}

/** A chart in its own scrolling box, redrawn when zoomed or the page's width changes. */
/** What the charts' zoom needs of a frame. */
interface Named {
  name: string;
  location?: string;
}

interface Chart<F extends Named> {
  box: HTMLElement;
  crumbs: HTMLElement;
  root: F;
  zoom: F[];
  draw: (root: F, width: number) => SVGSVGElement | HTMLElement;
}

const charts: Chart<Named>[] = [];

function redraw<F extends Named>(chart: Chart<F>, width: number): void {
  const current = chart.zoom.at(-1) ?? chart.root;
  replace(chart.box, chart.draw(current, width));
  if (!chart.zoom.length) return void replace(chart.crumbs);
  const all = el('button', { type: 'button', class: 'flame-unzoom' }, 'whole profile');
  all.addEventListener('click', () => {
    chart.zoom = [];
    redraw(chart, width);
  });
  replace(chart.crumbs, all, ` zoomed into ${current.name}${current.location ? ` (${current.location})` : ''}`);
}

function chartOf<F extends Named>(root: F, kind: string, draw: (root: F, width: number, pick: (f: F) => void) => SVGSVGElement | HTMLElement): { element: HTMLElement; chart: Chart<F> } {
  const box = el('div', { class: `flame-box ${kind}` });
  const crumbs = el('p', { class: 'flame-crumbs' });
  const chart: Chart<F> = {
    box,
    crumbs,
    root,
    zoom: [],
    draw: (r, width) =>
      draw(r, width, (f) => {
        // A click on the zoomed root goes back up one level.
        if (f === (chart.zoom.at(-1) ?? chart.root)) chart.zoom.pop();
        else chart.zoom.push(f);
        redraw(chart, width);
      }),
  };
  charts.push(chart as unknown as Chart<Named>);
  return { element: el('div', { class: 'flame-chart' }, crumbs, box), chart };
}

function categoryLegend(): HTMLElement {
  return el('p', { class: 'legend flame-legend' }, ...(Object.keys(CATEGORY_COLOURS) as ProfileCategory[]).flatMap((c) => [swatch(CATEGORY_COLOURS[c]), el('span', { title: CATEGORY_NOTES[c] }, c)]));
}

/** "12 ms in 480 samples", "4.20 MB allocated (V8's estimate from 812 samples) · 43.0 KB per call" */
function treeMeta<U extends CallTreeUnit>(tree: CallTree<U>, m: Measure<U>, ops?: number): string {
  const total = treeAmount(tree, 'total', m.unit);
  if (m.unit === 'Ms') return `${m.amount(total)} in ${tree.samples} samples`;
  return `${m.amount(total)} allocated (V8's estimate from ${tree.samples} samples)${ops ? ` · ${m.amount(total / ops)} per call` : ''}`;
}

function flameOfVariant<U extends CallTreeUnit>(flame: PageFlame<U>, data: PageData, label: string, m: Measure<U>): HTMLElement {
  const head = el('p', { class: 'flame-head' }, swatch(variantColour(data.variants, flame.variantKey)), el('strong', {}, label));
  if (flame.status !== 'ok' || !flame.tree) {
    return el('div', { class: 'flame', 'data-variant': flame.variantKey }, head, el('p', { class: 'note warning' }, `no profile (${flame.status}${flame.reason ? `: ${flame.reason}` : ''})`));
  }
  const tree = flame.tree;
  const total = treeAmount(tree, 'total', m.unit);
  const { element } = chartOf<CallTreeNode<U>>(tree.root, 'flame-categories', (root, width, pick) =>
    icicle(root, {
      measure: m,
      width,
      fill: (f) => CATEGORY_COLOURS[f.category],
      title: (f) => frameLines(f, total, m, flame.ops).join('\n'),
      className: 'rt-flame-frame',
      onPick: pick,
    }),
  );
  return el(
    'div',
    { class: 'flame', 'data-variant': flame.variantKey },
    head,
    el('p', { class: 'hint flame-meta' }, [treeMeta(tree, m, flame.ops), flame.categoriesText, `frames under ${pct(tree.minShare)} folded into their caller`, flame.method, flame.file].filter(Boolean).join(' · ')),
    flame.resolutionText ? el('p', { class: 'hint flame-resolution' }, flame.resolutionText) : null,
    element,
  );
}

/** The change of a frame's share (of total time) from the baseline; a frame the baseline folded counts from 0. */
interface Moved {
  share: number;
  baseShare?: number;
  children: Moved[];
}

const change = (f: Moved): number => f.share - (f.baseShare ?? 0);

function maxChange(f: Moved): number {
  return f.children.reduce((m, c) => Math.max(m, maxChange(c)), Math.abs(change(f)));
}

function diffTitle<U extends CallTreeUnit>(f: DiffFrame<U>, diff: PageFlameDiff<U>, m: Measure<U>, baseLabel: string, otherLabel: string): string {
  const base = f.baseShare === undefined ? `below ${pct(diff.baseMinShare)} (folded in its tree)` : `${pct(f.baseShare)} (self ${pct(f.baseSelfShare ?? 0)})`;
  return [
    ...frameLines(f, treeAmount(diff, 'total', m.unit), m, diff.ops),
    `share of ${m.of}: ${otherLabel} ${pct(f.share)} (self ${pct(f.selfShare)}), ${baseLabel} ${base}`,
    `change: ${points(change(f))}`,
  ].join('\n');
}

function differential<U extends CallTreeUnit>(diff: PageFlameDiff<U>, labels: Map<string, string>, m: Measure<U>): HTMLElement {
  const [baseLabel, otherLabel] = [labels.get(diff.baselineKey) ?? 'baseline', labels.get(diff.candidateKey) ?? 'candidate'];
  // A symmetric scale, at least ±1 pt: small noise stays pale.
  const extent = Math.max(0.01, maxChange(diff.root));
  const color: Plot.ScaleOptions = { type: 'diverging', scheme: 'rdbu', reverse: true, domain: [-extent, extent], pivot: 0 };
  const legend = Plot.legend({
    color: { ...color, label: `share of ${m.of} vs ${baseLabel}: red more, blue less`, tickFormat: (d: number) => `${d > 0 ? '+' : d < 0 ? '−' : ''}${Math.abs(d * 100).toFixed(1)} pt` },
    width: 320,
    // Room for a tick label centred on either end of the ramp (±1.0 pt when the change is small).
    marginLeft: 24,
    marginRight: 24,
    style: { fontFamily: FONT, fontSize: '11px' },
  });
  const { element } = chartOf<DiffFrame<U>>(diff.root, 'flame-diff', (root, width, pick) =>
    icicle(root, {
      measure: m,
      width,
      fill: change,
      color,
      title: (f) => diffTitle(f, diff, m, baseLabel, otherLabel),
      // The scheme's ends are dark: labels there are white.
      ink: (f) => (Math.abs(change(f)) > 0.55 * extent ? '#ffffff' : '#111827'),
      className: 'rt-flame-diff-frame',
      onPick: pick,
    }),
  );
  const movers = el(
    'table',
    { class: 'flame-movers' },
    el('thead', {}, el('tr', {}, ...['function', 'where', 'category', `self ${baseLabel}`, `self ${otherLabel}`, 'change'].map((h, i) => el('th', { class: i >= 3 ? 'num' : '' }, h)))),
    el(
      'tbody',
      {},
      ...diff.movers.map((m) =>
        el(
          'tr',
          {},
          el('td', { class: 'mono' }, m.name),
          el('td', { class: 'mono path' }, m.location ?? '—'),
          el('td', {}, swatch(CATEGORY_COLOURS[m.category]), m.category),
          el('td', { class: 'num' }, m.baseText),
          el('td', { class: 'num' }, m.otherText),
          el('td', { class: `num ${m.delta > 0 ? 'slower' : m.delta < 0 ? 'faster' : ''}` }, m.deltaText),
        ),
      ),
    ),
  );
  return el(
    'div',
    { class: 'flame-diff-view', 'data-baseline': diff.baselineKey, 'data-candidate': diff.candidateKey },
    el(
      'h4',
      {},
      `Where the ${m.of === 'time' ? 'time' : 'allocated bytes'} moved: ${otherLabel} vs ${baseLabel}`,
      el('span', { class: 'hint' }, ` — ${otherLabel}'s frames, coloured by the change of their share of the ${m.of} from ${baseLabel} at the same call path (shares, not ${m.unit === 'Ms' ? 'ms' : 'bytes'}: the arms ran different numbers of calls)`),
    ),
    el('div', { class: 'flame-legend-box' }, legend),
    element,
    diff.movers.length
      ? el('p', { class: 'hint' }, `The functions whose share of self ${m.unit === 'Ms' ? 'time' : 'bytes'} moved most (by 0.1 pt or more: one profile per arm, smaller moves are noise):`)
      : el('p', { class: 'hint' }, `No function's share of self ${m.unit === 'Ms' ? 'time' : 'bytes'} moved by 0.1 pt or more.`),
    diff.movers.length ? el('div', { class: 'flame-table-box' }, movers) : null,
  );
}

const SECTIONS = {
  native: {
    kind: 'native',
    title: 'Native profile',
    hint: " — one extra process per variant under perf (the CPU clock, call stacks by frame pointers), its sampling phase only: the engine's and the runtime's own C++ frames beside the JIT's named JavaScript, each as wide as its share of the thread's time; hover for times, click to zoom",
  },
  Ms: {
    kind: 'cpu',
    title: 'CPU profile',
    hint: ' — one extra, profiled process per variant (not a measured one), its sampling phase only: each frame is as wide as its share of the time, its callees below it; hover for times, click to zoom',
  },
  Bytes: {
    kind: 'alloc',
    title: 'Allocation profile',
    hint: " — one extra process per variant under V8's sampling heap profiler, after warmup: each frame is as wide as its share of the bytes allocated with it on the stack, its callees below it (machine frames: code inlined into a caller counts as the caller's); hover for bytes and bytes per call, click to zoom",
  },
} as const;

function caseFlames<U extends CallTreeUnit>(all: { flames: PageFlame<U>[]; diffs: PageFlameDiff<U>[] }, caseKey: string, data: PageData, m: Measure<U>, section: (typeof SECTIONS)[keyof typeof SECTIONS] = SECTIONS[m.unit]): HTMLElement | undefined {
  const flames = all.flames.filter((f) => f.caseKey === caseKey);
  if (!flames.length) return undefined;
  const labels = new Map(data.variants.map((v) => [v.key, v.label]));
  const order = new Map(data.variants.map((v, i) => [v.key, i]));
  flames.sort((a, b) => (order.get(a.variantKey) ?? 0) - (order.get(b.variantKey) ?? 0));
  const diffs = all.diffs.filter((d) => d.caseKey === caseKey);
  return el(
    'section',
    { class: `flames flames-${section.kind}`, 'data-case': caseKey, 'data-kind': section.kind },
    el('h4', {}, section.title, el('span', { class: 'hint' }, section.hint)),
    categoryLegend(),
    ...flames.map((f) => flameOfVariant(f, data, labels.get(f.variantKey) ?? f.variantKey, m)),
    ...diffs.map((d) => differential(d, labels, m)),
  );
}

/**
 * Adds the flame graphs to every case card that has profiles, and keeps them
 * to the page's width and its variant filter. Does nothing when the run has
 * no profiles.
 */
export function mountFlames(data: PageData, chartWidth: () => number): void {
  const profiles = data.profiles;
  if (!profiles) return;
  for (const c of data.cases) {
    const card = document.querySelector(`article.case[data-case="${c.key}"]`);
    const cpu = caseFlames(profiles, c.key, data, TIME);
    const alloc = profiles.allocations ? caseFlames(profiles.allocations, c.key, data, BYTES) : undefined;
    const native = profiles.native ? caseFlames(profiles.native, c.key, data, TIME, SECTIONS.native) : undefined;
    for (const section of [cpu, alloc, native]) if (card && section) card.appendChild(section);
  }
  const width = (): number => Math.max(MIN_WIDTH, chartWidth() - 32);
  // As wide as its box (inside the card's padding and the box's border), never narrower than MIN_WIDTH: then it scrolls.
  const drawAll = (): void => {
    for (const chart of charts) redraw(chart, Math.max(MIN_WIDTH, chart.box.clientWidth || width()));
  };
  drawAll();
  // The variant filter hides a variant's flame graph and any differential view it is part of.
  const filter = (): void => {
    const shown = new Set([...document.querySelectorAll<HTMLInputElement>('input[data-variant]')].filter((b) => b.checked).map((b) => b.dataset.variant!));
    for (const flame of document.querySelectorAll<HTMLElement>('.flames .flame[data-variant]')) flame.hidden = !shown.has(flame.dataset.variant!);
    for (const view of document.querySelectorAll<HTMLElement>('.flames .flame-diff-view')) view.hidden = !shown.has(view.dataset.baseline!) || !shown.has(view.dataset.candidate!);
  };
  document.addEventListener('change', (event) => {
    if ((event.target as Element | null)?.matches?.('input[data-variant]')) filter();
  });
  let last = width();
  let timer: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (width() !== last) {
        last = width();
        drawAll();
      }
    }, 150);
  });
}
