/**
 * The HTML report's page script (bundled with Observable Plot into the file
 * by html/bundle.ts). It reads the page data from the inert JSON block,
 * builds the page once, and redraws the charts when the runtime or case
 * filters change. Everything from the run is inserted as text (dom.ts).
 */
import type { PageCase, PageCell, PageData } from '../page-data.ts';
import { processChart, samplesChart, tracesChart, variantColour, warmupChart } from './charts.ts';
import { el, replace, swatch, variantTable } from './dom.ts';
import { loadSection } from './load.ts';
import { caseMetricsBlock, MEMORY_HEADING } from './metrics.ts';
import { requestsBlock, requestsChart, requestsChartWidth } from './cpu-per-request.ts';
import { forestTable, summarySection, verdictLegend } from './summary.ts';
import { mountFlames } from './flame.ts';

const data = JSON.parse(document.getElementById('rtbench-data')!.textContent!) as PageData;

const state = {
  variants: new Set(data.variants.map((v) => v.key)),
  cases: new Set(data.cases.map((c) => c.key)),
  search: '',
};

const variantLabel = new Map(data.variants.map((v) => [v.key, v.label]));

function chartWidth(): number {
  const main = document.querySelector('main');
  return Math.max(280, Math.min(1100, (main?.clientWidth ?? 1100) - 2));
}

function caseShown(c: PageCase): boolean {
  if (!state.cases.has(c.key)) return false;
  const q = state.search.trim().toLowerCase();
  return q === '' || c.id.toLowerCase().includes(q);
}

// --------------------------------------------------------------- header

function header(): HTMLElement {
  return el(
    'header',
    {},
    el('h1', {}, data.title),
    el('p', { class: 'subtitle' }, data.subtitle),
    data.notes.length ? el('ul', { class: 'notes' }, ...data.notes.map((n) => el('li', { class: `note ${n.level}` }, n.text))) : null,
  );
}

// -------------------------------------------------------------- filters

function filters(): HTMLElement {
  const variantBoxes = data.variants.map((v) => {
    const box = el('input', { type: 'checkbox', 'data-variant': v.key });
    box.checked = true;
    box.addEventListener('change', () => {
      if (box.checked) state.variants.add(v.key);
      else state.variants.delete(v.key);
      update();
    });
    return el('label', { class: 'pick' }, box, swatch(variantColour(data.variants, v.key)), v.label, v.isBaseline ? el('span', { class: 'tag' }, 'baseline') : null);
  });

  const caseBoxes = data.cases.map((c) => {
    const box = el('input', { type: 'checkbox', 'data-case': c.key });
    box.checked = true;
    box.addEventListener('change', () => {
      if (box.checked) state.cases.add(c.key);
      else state.cases.delete(c.key);
      update();
    });
    return el('label', { class: 'pick case-pick' }, box, c.label);
  });
  const setAll = (on: boolean): void => {
    for (const box of document.querySelectorAll<HTMLInputElement>('input[data-case]')) box.checked = on;
    state.cases = new Set(on ? data.cases.map((c) => c.key) : []);
    update();
  };
  const search = el('input', { type: 'search', id: 'case-search', placeholder: 'cases containing…', 'aria-label': 'show cases containing this text' });
  search.addEventListener('input', () => {
    state.search = search.value;
    update();
  });
  const all = el('button', { type: 'button', id: 'cases-all' }, 'all');
  all.addEventListener('click', () => setAll(true));
  const none = el('button', { type: 'button', id: 'cases-none' }, 'none');
  none.addEventListener('click', () => setAll(false));

  return el(
    'nav',
    { class: 'filters', 'aria-label': 'filters' },
    el('div', { class: 'filter-row' }, el('span', { class: 'filter-title' }, `${data.table.variantHead[0]!.toUpperCase()}${data.table.variantHead.slice(1)}s`), ...variantBoxes),
    el(
      'div',
      { class: 'filter-row' },
      el('span', { class: 'filter-title' }, 'Cases'),
      search,
      all,
      none,
      el('span', { id: 'case-count', class: 'count' }),
      el('details', { class: 'case-list' }, el('summary', {}, 'pick cases'), el('div', { class: 'case-picks' }, ...caseBoxes)),
    ),
  );
}

// ------------------------------------------------------------- overview

const labels = {
  variant: (key: string): string => variantLabel.get(key) ?? key,
  variantSwatch: (key: string): HTMLElement => swatch(variantColour(data.variants, key)),
  caseId: (key: string): string => data.cases.find((c) => c.key === key)?.label ?? key,
};

/** Comparisons: one forest plot per candidate arm, on the summary's scale, in the table the terminal prints. */
function overview(): HTMLElement | null {
  if (!data.sections.length) return null;
  const parts = data.sections.map((section) =>
    el(
      'div',
      { class: 'section', 'data-candidate': section.candidate },
      el('h3', {}, `${variantLabel.get(section.candidate) ?? ''} vs ${variantLabel.get(section.baseline) ?? ''}`),
      forestTable(section, data, labels),
    ),
  );
  return el(
    'section',
    { id: 'overview' },
    el('h2', {}, 'Verdicts'),
    el('p', { class: 'legend' }, 'Per arm, its ratios on the summary\'s scale beside the comparison table as the terminal prints it.'),
    verdictLegend(data),
    ...parts,
  );
}

// ---------------------------------------------------------------- cases

interface CaseView {
  c: PageCase;
  card: HTMLElement;
  samples: HTMLElement;
  processes: HTMLElement;
  traces: HTMLElement | undefined;
  warmups: HTMLElement | undefined;
  /** A request case's distribution chart, and the table of figures beside it. */
  requests: { layout: HTMLElement; chart: HTMLElement; table: HTMLElement } | undefined;
  domain: [number, number] | undefined;
}

const caseViews: CaseView[] = [];

function caseDomain(c: PageCase): [number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const cell of c.cells) {
    for (const b of cell.histogram) [lo, hi] = [Math.min(lo, b.x1), Math.max(hi, b.x2)];
    for (const p of cell.processMedians) [lo, hi] = [Math.min(lo, p.ns), Math.max(hi, p.ns)];
    if (cell.ci) [lo, hi] = [Math.min(lo, cell.ci[0]), Math.max(hi, cell.ci[1])];
  }
  return lo > 0 && lo <= hi ? [lo, hi === lo ? lo * 1.01 : hi] : undefined;
}

function cellNotes(cell: PageCell): string[] {
  const label = variantLabel.get(cell.variant) ?? cell.variant;
  return [cell.note, cell.skew, cell.byCollection, cell.opposite, cell.modesText, cell.steadyText ? `steady state: ${cell.steadyText}` : undefined, cell.relativeNote].filter((t): t is string => Boolean(t)).map((t) => `${label}: ${t}`);
}

function caseCard(c: PageCase): HTMLElement {
  // The columns and their heads are the page data's (columns/results.ts): the variant, then the figures.
  const { variantHead, columns } = data.table;
  const table = variantTable(
    'case-table',
    [el('th', { class: '' }, variantHead), ...columns.map((col) => el('th', { class: col.th }, col.head))],
    c.cells.map((cell) => ({
      variant: cell.variant,
      cells: [
        el('td', { class: 'variant' }, swatch(variantColour(data.variants, cell.variant)), variantLabel.get(cell.variant) ?? cell.variant),
        ...columns.map((col) => el('td', { class: col.coloured ? `${col.td} ${cell.verdict ?? ''}` : col.td }, cell[`${col.id}Text`] ?? '')),
      ],
    })),
  );
  const notes = c.cells.flatMap(cellNotes);
  const samples = el('div', { class: 'chart samples-chart' });
  const processes = el('div', { class: 'chart process-chart' });
  const traces = c.cells.some((cell) => cell.traces?.length) ? el('div', { class: 'chart trace-chart' }) : undefined;
  const warmups = c.cells.some((cell) => cell.warmups?.length) ? el('div', { class: 'chart warmup-chart' }) : undefined;
  const requests = c.requests ? requestsBlock(c.requests, labels) : undefined;
  const card = el(
    'article',
    { class: 'case', 'data-case': c.key, id: `case-${c.key}` },
    el('a', { class: 'to-summary', href: '#summary' }, '↑ summary'),
    el('h3', {}, c.group ? el('span', { class: 'group' }, `${c.group} / `) : null, c.name),
    c.paramsText ? el('p', { class: 'params' }, c.paramsText) : null,
    c.mismatch ? el('p', { class: 'note error' }, c.mismatch) : null,
    el('div', { class: 'scroll' }, table),
    notes.length ? el('ul', { class: 'cell-notes' }, ...notes.map((n) => el('li', {}, n))) : null,
    c.metrics ? caseMetricsBlock(c.metrics, data, labels) : null,
    c.memory ? caseMetricsBlock(c.memory, data, labels, MEMORY_HEADING) : null,
    requests?.block ?? null,
    el('h4', {}, 'Samples', el('span', { class: 'hint' }, ' — every timed batch, per operation; bar height: share of the variant\'s samples (√ scale); black tick: the median')),
    samples,
    el('h4', {}, 'Processes', el('span', { class: 'hint' }, ' — one dot per fresh process (its median sample); clusters are modes; black tick: the median, band: its CI')),
    processes,
    traces ? el('h4', {}, 'Samples over time', el('span', { class: 'hint' }, ' — each process\'s samples in the order taken, one line per process (log scale); steps are switches between a fast and a slow state')) : null,
    traces ?? null,
    warmups ? el('h4', {}, 'Warmup', el('span', { class: 'hint' }, ' — each process\'s warmup as the watch saw it, ns per call against time, one line per process (log scale); dot: where it was found steady and sampling began')) : null,
    warmups ?? null,
  );
  caseViews.push({ c, card, samples, processes, traces, warmups, requests, domain: caseDomain(c) });
  return card;
}

function cases(): HTMLElement {
  return el('section', { id: 'cases' }, el('h2', {}, 'Cases'), ...data.cases.map(caseCard));
}

// ---------------------------------------------------------- environment

function environment(): HTMLElement {
  const variants = el(
    'table',
    { class: 'variants-table' },
    el('thead', {}, el('tr', {}, ...['variant', 'version', 'flags as written', 'as passed: arguments, environment', 'binary', 'sha256'].map((h) => el('th', {}, h)))),
    el(
      'tbody',
      {},
      ...data.variants.map((v) =>
        el(
          'tr',
          { 'data-variant': v.key },
          el('td', { class: 'variant' }, swatch(variantColour(data.variants, v.key)), v.label, v.isBaseline ? el('span', { class: 'tag' }, 'baseline') : null),
          el('td', {}, v.versionText, v.unavailable ? el('div', { class: 'note error' }, `did not run: ${v.unavailable}`) : null),
          el('td', { class: 'mono' }, v.flags.length ? v.flags.join(' ') : '—'),
          el('td', { class: 'mono' }, [...v.passedArgs, ...Object.entries(v.env).map(([k, val]) => `${k}=${val}`)].join(' ') || '—'),
          el('td', { class: 'mono path' }, v.binary ?? '—', v.binaryCommit ? el('div', {}, `commit ${v.binaryCommit}`) : null, v.file ? el('div', {}, `from ${v.file}`) : null),
          el('td', { class: 'mono hash' }, v.binarySha256 ?? '—'),
        ),
      ),
    ),
  );
  const panels = data.environment.map((p) =>
    el('div', { class: 'panel' }, el('h3', {}, p.title), el('dl', {}, ...p.rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]))),
  );
  return el(
    'section',
    { id: 'environment' },
    el('h2', {}, 'Variants and environment'),
    el('div', { class: 'scroll' }, variants),
    el('div', { class: 'panels' }, ...panels),
    el('h3', {}, 'Method'),
    ...data.method.map((m) => el('p', { class: 'method' }, m)),
  );
}

// --------------------------------------------------------------- update

/** Summary rows follow both filters; a case's name is printed on its first row shown. */
function updateSummary(): void {
  let previous: string | undefined;
  for (const row of document.querySelectorAll<HTMLElement>('#summary tbody tr')) {
    const c = row.dataset.case;
    const variant = row.dataset.variant;
    row.hidden = (c !== undefined && !caseShown(data.cases.find((x) => x.key === c)!)) || (variant !== undefined && !state.variants.has(variant));
    if (row.hidden) continue;
    row.classList.toggle('case-start', c === undefined || c !== previous);
    previous = c;
  }
}

function update(): void {
  const width = chartWidth();
  let shown = 0;
  for (const view of caseViews) {
    const visible = caseShown(view.c);
    view.card.hidden = !visible;
    if (!visible) continue;
    shown++;
    for (const row of view.card.querySelectorAll<HTMLElement>('tr[data-variant]')) row.hidden = !state.variants.has(row.dataset.variant!);
    const cells = view.c.cells.filter((cell) => state.variants.has(cell.variant));
    const curves = view.c.requests?.curves.filter((curve) => state.variants.has(curve.variant)) ?? [];
    if (view.requests) replace(view.requests.chart, curves.length ? requestsChart(curves, view.c.requests!.limitMs, data, requestsChartWidth(Math.min(width, view.requests.layout.clientWidth), view.requests.table.offsetWidth)) : el('p', { class: 'empty' }, 'no runtime selected'));
    if (view.domain && cells.length) {
      replace(view.samples, samplesChart(cells, data, width, view.domain, view.c.chartUnit));
      replace(view.processes, processChart(cells, data, width, view.domain, view.c.chartUnit));
      if (view.traces) replace(view.traces, cells.some((cell) => cell.traces?.length) ? tracesChart(cells, data, width, view.domain, view.c.chartUnit) : el('p', { class: 'empty' }, 'no sample times recorded'));
      if (view.warmups) replace(view.warmups, cells.some((cell) => cell.warmups?.length) ? warmupChart(cells, data, width) : el('p', { class: 'empty' }, 'no warmup recorded'));
    } else {
      replace(view.samples, el('p', { class: 'empty' }, cells.length ? 'no samples' : 'no runtime selected'));
      replace(view.processes);
      if (view.traces) replace(view.traces);
      if (view.warmups) replace(view.warmups);
    }
  }
  for (const row of document.querySelectorAll<HTMLElement>('#overview tr[data-case]')) row.hidden = !caseShown(data.cases.find((c) => c.key === row.dataset.case)!);
  for (const section of document.querySelectorAll<HTMLElement>('#overview [data-candidate]')) section.hidden = !state.variants.has(section.dataset.candidate!);
  for (const row of document.querySelectorAll<HTMLElement>('#load tr[data-variant]')) row.hidden = !state.variants.has(row.dataset.variant!);
  updateSummary();
  document.getElementById('case-count')!.textContent = `${shown} of ${data.cases.length} cases shown`;
}

const main = el('main', {}, header(), filters(), summarySection(data, labels), overview(), data.load ? loadSection(data.load, labels) : null, cases(), environment(), el('footer', {}, 'rtbench HTML report — self-contained: no network needed, nothing loaded from elsewhere.'));
document.body.appendChild(main);
update();
mountFlames(data, chartWidth);
// Charts are drawn to the page's width: redraw when it changes (once the resizing settles).
let lastWidth = chartWidth();
let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (chartWidth() !== lastWidth) {
      lastWidth = chartWidth();
      update();
    }
  }, 150);
});
document.body.dataset.ready = 'true';
