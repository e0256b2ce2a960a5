/**
 * The ratio tables: the summary at the top of the page (every case × arm
 * against its baseline) and the comparison's forest plot per arm. Both are
 * HTML tables with a plot column, drawn on one log ratio scale (the page
 * data's summary domain), so a whisker in one means what it means in any
 * other. The plot column is positioned in percent of its cell, so it follows
 * the table's width without a redraw, and labels are table text: they wrap
 * and are never cut.
 */
import { formatThreshold } from '../../format.ts';
import type { ForestCell, ForestSection, PageData } from '../page-data.ts';
import type { SummaryRow, SummaryVerdict } from '../summary-data.ts';
import { ratioTick, ratioTicks, VERDICT_COLOURS } from './charts.ts';
import { el, swatch, type Child } from './dom.ts';
import { COMPARISON_CASE_COLUMN } from '../../columns/comparison.ts';

const NEUTRAL = '#111827';
const DIFFERENT_WORK = '#b91c1c';

function verdictColour(verdict: SummaryVerdict): string {
  return verdict === 'different-work' ? DIFFERENT_WORK : verdict === 'none' ? NEUTRAL : VERDICT_COLOURS[verdict];
}

interface RatioScale {
  domain: [number, number];
  /** Position of a ratio in percent of the plot's width (unclamped). */
  at(ratio: number): number;
  ticks: number[];
}

function ratioScale(domain: [number, number]): RatioScale {
  const [a, b] = [Math.log(domain[0]), Math.log(domain[1])];
  return {
    domain,
    at: (r) => ((Math.log(r) - a) / (b - a || 1)) * 100,
    // Few labels: the column can be as narrow as a phone's third.
    ticks: ratioTicks(domain[0], domain[1], 5),
  };
}

function place(node: HTMLElement, left: number, width?: number): HTMLElement {
  node.style.left = `${left}%`;
  if (width !== undefined) node.style.width = `${width}%`;
  return node;
}

/** The grid, noise band and the line at 1 behind a row's whisker. */
function backdrop(scale: RatioScale, threshold: number): HTMLElement[] {
  const clamp = (x: number): number => Math.min(100, Math.max(0, x));
  const [b0, b1] = [clamp(scale.at(1 / (1 + threshold))), clamp(scale.at(1 + threshold))];
  return [
    ...scale.ticks.map((t) => place(el('span', { class: 'spark-grid' }), scale.at(t))),
    place(el('span', { class: 'spark-band rt-noise-band' }), b0, b1 - b0),
    place(el('span', { class: 'spark-one' }), scale.at(1)),
  ];
}

interface SparkPoint {
  ratio: number;
  /** Absent: too few independent units for an interval; the dot stands alone. */
  ci?: [number, number] | undefined;
  colour: string;
  /** Filled: the interval excludes 1; hollow: it holds 1. */
  filled: boolean;
  /** Marks' classes, for the browser test: [whisker, dot]. */
  classes: [string, string];
  diamond?: boolean;
}

/** One row's plot: whisker for the CI (cut with an arrow where it leaves the axis), dot for the estimate. */
function spark(scale: RatioScale, threshold: number, point: SparkPoint | undefined): HTMLElement {
  const box = el('div', { class: 'spark' }, ...backdrop(scale, threshold));
  if (!point) return box;
  const at = scale.at(point.ratio);
  if (point.ci) {
    const [lo, hi] = [scale.at(point.ci[0]), scale.at(point.ci[1])];
    const [l, h] = [Math.max(0, lo), Math.min(100, hi)];
    const whisker = place(el('span', { class: `spark-ci ${point.classes[0]}${lo < 0 ? ' cut-lo' : ''}${hi > 100 ? ' cut-hi' : ''}` }), l, Math.max(0, h - l));
    whisker.style.color = point.colour;
    box.append(whisker);
  }
  const dot = place(el('span', { class: `spark-dot ${point.classes[1]}${point.diamond ? ' diamond' : ''}`, 'data-ratio': String(point.ratio) }), Math.min(100, Math.max(0, at)));
  dot.style.borderColor = point.colour;
  dot.style.background = point.filled ? point.colour : '#ffffff';
  box.append(dot);
  return box;
}

/** Tick labels over (or under) the plot column. */
function sparkAxis(scale: RatioScale, where: 'top' | 'bottom'): HTMLElement {
  return el(
    'div',
    { class: `spark-axis ${where}`, 'aria-hidden': 'true' },
    ...scale.ticks.map((t) => {
      const at = scale.at(t);
      // Edge labels stay inside the column.
      const label = place(el('span', { class: at < 8 ? 'start' : at > 92 ? 'end' : '' }, ratioTick(t)), at);
      return label;
    }),
  );
}

/** A verdict's text, its bracketed interval kept on one line ("1.88× faster" may wrap before "[1.76–2.40]", never inside it). */
function verdictText(text: string): Child[] {
  return text.split(/(\[[^\]]*\])/).map((part) => (part.startsWith('[') ? el('span', { class: 'nowrap' }, part) : part));
}

/** Filled dots: the interval excludes 1 (a change, under the threshold or not). */
function decided(verdict: SummaryVerdict): boolean {
  return verdict === 'faster' || verdict === 'slower' || verdict === 'small';
}

export function verdictLegend(data: PageData): HTMLElement {
  return el(
    'p',
    { class: 'legend' },
    ...(['faster', 'slower', 'small', 'equivalent', 'inconclusive'] as const).flatMap((v) => [
      swatch(VERDICT_COLOURS[v], decided(v)),
      el('span', {}, v === 'faster' ? data.words.better : v === 'slower' ? data.words.worse : v === 'small' ? `under ±${formatThreshold(data.threshold)}` : v),
    ]),
    swatch('#e5e7eb', true),
    el('span', {}, `noise band ±${formatThreshold(data.threshold)}`),
  );
}

interface Labels {
  variant(key: string): string;
  variantSwatch(key: string): HTMLElement;
  caseId(key: string): string;
}

function caseLink(caseKey: string, labels: Labels): HTMLElement {
  const id = labels.caseId(caseKey);
  return el('a', { href: `#case-${caseKey}`, title: id }, id);
}

/** A header (or footer) row: the column titles, and the ticks over the plot column, which comes after `before` columns. */
function axisRow(scale: RatioScale, where: 'top' | 'bottom', headers: [Child, string][], before: number): HTMLTableRowElement {
  const th = ([text, cls]: [Child, string]): HTMLElement => el('th', { class: cls }, where === 'top' ? text : null);
  return el('tr', { class: 'axis-row' }, ...headers.slice(0, before).map(th), el('th', { class: 'spark-cell' }, sparkAxis(scale, where)), ...headers.slice(before).map(th));
}

/**
 * The summary: one row per case × non-baseline arm, whiskers on the shared
 * scale, coloured by verdict, each linking to its case below. With a single
 * variant (nothing to compare) a compact table of medians instead.
 */
export function summarySection(data: PageData, labels: Labels): HTMLElement {
  const intro = el('h2', {}, 'Summary');
  if (!data.summary.rows.length) return el('section', { id: 'summary' }, intro, el('p', { class: 'legend' }, 'One variant, nothing to compare: each case\'s median and the figures of its table below.'), mediansTable(data, labels));
  const scale = ratioScale(data.summary.domain);
  const arms = new Set(data.summary.rows.map((r) => r.variant));
  const showArm = arms.size > 1;
  // Every ratio interval is read at the table's adjusted level (the legend says which).
  const confidence = 'interval';
  const baselines = [...new Set(data.summary.rows.map((r) => r.baseline))].map((k) => labels.variant(k));
  const rowOf = (row: SummaryRow): HTMLTableRowElement => {
    const title = `${labels.caseId(row.caseKey)}\n${labels.variant(row.variant)} vs ${labels.variant(row.baseline)}: ${row.ratioText ? `${row.ratioText}, ` : ''}${row.verdictText}`;
    return el(
      'tr',
      { 'data-case': row.caseKey, 'data-variant': row.variant, 'data-verdict': row.verdict, title },
      el('td', { class: 'case-name' }, caseLink(row.caseKey, labels)),
      showArm ? el('td', { class: 'arm' }, labels.variantSwatch(row.variant), labels.variant(row.variant)) : null,
      el('td', { class: 'spark-cell' }, spark(scale, data.threshold, row.ratio ? { ...row.ratio, colour: verdictColour(row.verdict), filled: decided(row.verdict), classes: ['rt-summary-ci', 'rt-summary-ratio'] } : undefined)),
      el('td', { class: `verdict ${row.verdict}` }, ...verdictText(row.verdictText)),
      el('td', { class: 'num ratio' }, row.ratioText),
    );
  };
  const geomeanRows = data.summary.geomeans.map((g) =>
    el(
      'tr',
      { class: 'geomean', 'data-variant': g.variant, title: `geometric mean of ${labels.variant(g.variant)}'s ratios over ${g.cases} cases${g.leftOut}: ${g.text}` },
      el('td', { class: 'case-name' }, `geometric mean (${g.cases} cases)`),
      showArm ? el('td', { class: 'arm' }, labels.variantSwatch(g.variant), labels.variant(g.variant)) : null,
      el('td', { class: 'spark-cell' }, spark(scale, data.threshold, { ratio: g.ratio, ci: g.ci, colour: NEUTRAL, filled: true, classes: ['rt-summary-geomean-ci', 'rt-summary-geomean'], diamond: true })),
      el('td', {}),
      el('td', { class: 'num ratio' }, g.text),
    ),
  );
  const headers: [Child, string][] = [['case', 'case-name'], ...(showArm ? [[data.table.variantHead, 'arm'] as [Child, string]] : []), ['verdict', 'verdict'], [`ratio [${confidence}]`, 'num ratio']];
  const before = showArm ? 2 : 1;
  const table = el(
    'table',
    { class: `ratio-table summary-table${showArm ? ' with-arm' : ''}`, 'data-domain': scale.domain.join(',') },
    el('thead', {}, axisRow(scale, 'top', headers, before)),
    el('tbody', {}, ...data.summary.rows.map(rowOf), ...geomeanRows),
    data.summary.rows.length > 8 ? el('tfoot', {}, axisRow(scale, 'bottom', headers, before)) : null,
  );
  const against = baselines.length === 1 ? baselines[0]! : 'each arm\'s baseline';
  return el(
    'section',
    { id: 'summary' },
    intro,
    el(
      'p',
      { class: 'legend' },
      `${data.words.quantity === 'time' ? 'Time' : 'Instructions'} per operation relative to ${against} (log scale; left of 1: ${data.words.better}), one row per case and ${data.table.variantHead}, whiskers the ${confidence}. Every ratio on this page is drawn on this one scale. Filled: the interval excludes 1 (a difference, beyond the noise band or under it); hollow: it holds 1. Click a case for its details.`,
    ),
    verdictLegend(data),
    el('div', { class: 'scroll' }, table),
  );
}

/** One row per case: its only variant's cells in the case tables' columns (columns/results.ts), those that compare aside, and its note. */
function mediansTable(data: PageData, labels: Labels): HTMLElement {
  const columns = data.table.columns.filter((col) => !col.coloured);
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { class: 'medians-table' },
      el('thead', {}, el('tr', {}, el('th', {}, 'case'), ...columns.map((col) => el('th', { class: col.th }, col.head)), el('th', {}, 'note'))),
      el(
        'tbody',
        {},
        ...data.cases.map((c) => {
          const cell = c.cells[0];
          return el(
            'tr',
            { 'data-case': c.key },
            el('td', { class: 'case-name' }, caseLink(c.key, labels)),
            ...columns.map((col) => el('td', { class: col.td }, cell ? (cell[`${col.id}Text`] ?? '') : '—')),
            el('td', { class: 'note' }, cell?.note ?? ''),
          );
        }),
      ),
    ),
  );
}

/** A comparison's arm: its forest plot on the page's scale, with the comparison table's texts in the same rows. */
export function forestTable(section: ForestSection, data: PageData, labels: Labels): HTMLElement {
  const scale = ratioScale(data.summary.domain);
  const g = section.geomean;
  const headers: [Child, string][] = [[COMPARISON_CASE_COLUMN.head, COMPARISON_CASE_COLUMN.th], ...section.heads.map((h): [Child, string] => [h.text, h.class])];
  const td = (cell: ForestCell): HTMLElement => (cell.class === undefined ? el('td') : el('td', { class: cell.class, 'data-label': cell.label }, cell.text));
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { class: 'ratio-table forest-table', 'data-domain': scale.domain.join(',') },
      el('thead', {}, axisRow(scale, 'top', headers, 1)),
      el(
        'tbody',
        {},
        ...section.rows.map((row) => {
          const r = row.ratio;
          const verdict: SummaryVerdict = r ? r.verdict : 'none';
          return el(
            'tr',
            { 'data-case': row.caseKey, title: `${row.caseLabel}\n${row.texts.ratio ? `${row.texts.ratio}: ${row.texts.word} ` : ''}${row.texts.detail}` },
            el('td', { class: 'case-name' }, caseLink(row.caseKey, labels)),
            el('td', { class: 'spark-cell' }, spark(scale, data.threshold, r ? { ratio: r.ratio, ci: r.ci, colour: verdictColour(verdict), filled: decided(verdict), classes: ['rt-forest-ci', 'rt-forest-ratio'] } : undefined)),
            ...row.cells.map(td),
          );
        }),
        g
          ? el(
              'tr',
              { class: 'geomean', title: `geometric mean over ${g.cases} cases${g.leftOut}: ${g.text}` },
              el('td', { class: 'case-name' }, `geometric mean (${g.cases} cases)`),
              el('td', { class: 'spark-cell' }, spark(scale, data.threshold, { ratio: g.ratio, ci: g.ci, colour: NEUTRAL, filled: true, classes: ['rt-geomean-ci', 'rt-geomean'], diamond: true })),
              ...g.cells.map(td),
            )
          : null,
      ),
      section.rows.length > 8 ? el('tfoot', {}, axisRow(scale, 'bottom', headers, 1)) : null,
    ),
  );
}
