/**
 * The history page's script (bundled with Observable Plot by html/bundle.ts
 * instead of main.ts for a history view): per case a line chart of each
 * variant's figure across the runs, its CI as a vertical bar, change points
 * as triangles, a new binary as a dashed line. Everything from the runs is
 * inserted as text (dom.ts). Each mark carries a class (rt-history-…) so the
 * browser test can count what was drawn.
 */
import * as Plot from '@observablehq/plot';
import type { HistoryPageCase, HistoryPageData } from '../history-data.ts';
import { el, replace, swatch } from './dom.ts';

const data = JSON.parse(document.getElementById('rtbench-data')!.textContent!) as HistoryPageData;

/** Colour-blind-safe categorical colours (Tableau 10), one per variant in order. */
const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const CHANGE_COLOURS = { slower: '#d73027', faster: '#1a9850' } as const;
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';

const colourOf = (variant: string): string => COLOURS[Math.max(0, data.variants.indexOf(variant)) % COLOURS.length]!;

function chartWidth(): number {
  const main = document.querySelector('main');
  return Math.max(480, Math.min(1100, (main?.clientWidth ?? 1100) - 2));
}

/** A figure on the y axis: the unit's own scale (ns shown as ns/µs/ms). */
function axisText(value: number, unit: string): string {
  if (unit === 'ns') {
    if (value >= 1e6) return `${+(value / 1e6).toPrecision(3)} ms`;
    if (value >= 1e3) return `${+(value / 1e3).toPrecision(3)} µs`;
    return `${+value.toPrecision(3)} ns`;
  }
  return `${+value.toPrecision(3)}`;
}

/** What the filters show: variants ticked, and cases whose title contains the search text. */
const state = { variants: new Set(data.variants), search: '' };

function caseChart(hc: HistoryPageCase): SVGSVGElement | HTMLElement {
  const series = hc.series.filter((s) => state.variants.has(s.variant));
  if (series.length === 0) return el('p', { class: 'hint' }, 'no variant of this case is ticked');
  const points = series.flatMap((s) => s.points.map((p) => ({ ...p, variant: s.variant, label: data.runs[p.run]!.label })));
  const withCi = points.filter((p) => p.lo !== undefined && p.hi !== undefined);
  const changes = points.filter((p) => p.change);
  const binaries = points.filter((p) => p.binary);
  const runIndices = [...new Set(points.map((p) => p.run))].sort((a, b) => a - b);
  const width = chartWidth();
  return Plot.plot({
    width,
    height: 260,
    marginLeft: 70,
    marginBottom: 40,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: {
      label: 'run',
      // A tick per run while they fit; the label is the run's commit (or date).
      ticks: runIndices.length <= Math.floor(width / 70) ? runIndices : undefined,
      tickFormat: (i: number) => (Number.isInteger(i) && data.runs[i] ? `${i + 1} ${data.runs[i]!.label}` : ''),
      tickRotate: runIndices.length > 8 ? -20 : 0,
    },
    y: { label: hc.measure, grid: true, nice: true, tickFormat: (v: number) => axisText(v, hc.unit) },
    color: { domain: series.map((s) => s.variant), range: series.map((s) => colourOf(s.variant)), legend: series.length > 1 },
    marks: [
      Plot.ruleX(binaries, { x: 'run', stroke: '#9ca3af', strokeDasharray: '4,3', className: 'rt-history-binary', title: (p: (typeof binaries)[number]) => `${p.variant}: new binary (${p.binary})` }),
      Plot.ruleX(withCi, { x: 'run', y1: 'lo', y2: 'hi', stroke: 'variant', strokeOpacity: 0.45, strokeWidth: 3, className: 'rt-history-ci' }),
      Plot.line(points, { x: 'run', y: 'median', z: 'variant', stroke: 'variant', strokeWidth: 1.5, className: 'rt-history-line' }),
      Plot.dot(points, { x: 'run', y: 'median', fill: 'variant', r: 2.5, className: 'rt-history-point', title: (p: (typeof points)[number]) => `${p.variant}, run ${p.run + 1} (${p.label}): ${p.text}` }),
      Plot.dot(changes, {
        x: 'run',
        y: 'median',
        symbol: 'triangle',
        rotate: (p: (typeof changes)[number]) => (p.change!.kind === 'slower' ? 0 : 180),
        r: 7,
        fill: 'none',
        stroke: (p: (typeof changes)[number]) => CHANGE_COLOURS[p.change!.kind],
        strokeWidth: 2,
        className: 'rt-history-change',
        title: (p: (typeof changes)[number]) => p.change!.text,
      }),
    ],
  });
}

function runsTable(): HTMLTableElement {
  return el(
    'table',
    { class: 'runs-table' },
    el('thead', {}, el('tr', {}, ...['#', 'commit', 'started (UTC)', 'rtbench', 'host', 'file'].map((h) => el('th', {}, h)))),
    el('tbody', {}, ...data.runs.map((r, i) => el('tr', {}, el('td', { class: 'num' }, String(i + 1)), el('td', { class: 'mono' }, r.commit), el('td', {}, r.started), el('td', {}, r.rtbench), el('td', {}, r.host), el('td', { class: 'path' }, r.file)))),
  );
}

const charts: { host: HTMLElement; hc: HistoryPageCase }[] = [];

function caseSection(hc: HistoryPageCase): HTMLElement {
  const host = el('div', { class: 'chart history-chart' });
  charts.push({ host, hc });
  return el(
    'section',
    { class: 'case', 'data-case': hc.key },
    el('h3', {}, hc.title),
    host,
    hc.changes.length ? el('ul', { class: 'changes' }, ...hc.changes.map((c) => el('li', { class: `change ${c.kind}` }, c.text))) : el('p', { class: 'hint' }, 'no change point'),
  );
}

function caseShown(hc: HistoryPageCase): boolean {
  const q = state.search.trim().toLowerCase();
  return q === '' || hc.title.toLowerCase().includes(q);
}

function draw(): void {
  let shown = 0;
  for (const { host, hc } of charts) {
    const section = host.closest('section')!;
    section.hidden = !caseShown(hc);
    if (section.hidden) continue;
    shown++;
    replace(host, caseChart(hc));
  }
  const count = document.getElementById('case-count');
  if (count) count.textContent = `${shown} of ${charts.length} cases`;
}

/** Variants to draw, and a search over case titles: a long history is read one runtime or group at a time. */
function filters(): HTMLElement {
  const boxes = data.variants.map((variant) => {
    const box = el('input', { type: 'checkbox', 'data-variant': variant });
    box.checked = true;
    box.addEventListener('change', () => {
      if (box.checked) state.variants.add(variant);
      else state.variants.delete(variant);
      draw();
    });
    return el('label', { class: 'pick' }, box, swatch(colourOf(variant)), variant);
  });
  const search = el('input', { type: 'search', id: 'case-search', placeholder: 'cases containing…', 'aria-label': 'show cases containing this text' });
  search.addEventListener('input', () => {
    state.search = search.value;
    draw();
  });
  return el(
    'nav',
    { class: 'filters', 'aria-label': 'filters' },
    el('div', { class: 'filter-row' }, el('span', { class: 'filter-title' }, 'Variants'), ...boxes),
    el('div', { class: 'filter-row' }, el('span', { class: 'filter-title' }, 'Cases'), search, el('span', { id: 'case-count', class: 'count' })),
  );
}

function page(): HTMLElement {
  const changes = data.cases.flatMap((hc) => hc.changes.map((c) => ({ ...c, title: hc.title })));
  return el(
    'main',
    {},
    el('header', {}, el('h1', {}, data.title), el('p', { class: 'subtitle' }, data.subtitle)),
    data.notes.length ? el('ul', { class: 'notes' }, ...data.notes.map((n) => el('li', { class: `note ${n.level}` }, n.text))) : null,
    el('h2', {}, 'Change points'),
    changes.length ? el('ul', { class: 'changes', id: 'change-list' }, ...changes.map((c) => el('li', { class: `change ${c.kind}` }, `${c.title}: ${c.text}`))) : el('p', { class: 'hint', id: 'change-list' }, 'none'),
    data.binaryChanges.length ? el('ul', { class: 'binaries' }, ...data.binaryChanges.map((b) => el('li', {}, b))) : null,
    el('h2', {}, 'Cases'),
    filters(),
    ...data.cases.map(caseSection),
    el('h2', {}, 'Runs'),
    runsTable(),
    el('footer', {}, ...data.legend.map((l) => el('p', { class: 'method' }, l))),
  );
}

document.body.appendChild(page());
draw();
// The browser test waits for this.
document.body.dataset.ready = 'true';
let resizeTimer: number | undefined;
window.addEventListener('resize', () => {
  window.clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(draw, 150);
});
