/**
 * The columns of a table of case × variant rows, each declared once: its head,
 * the text of its cell, its fields in csv-stats and its class on the HTML page.
 * The terminal and markdown bench tables, the page's case tables and csv-stats
 * render rows from this one list (rows are made per view kind: cells/rows.ts),
 * so a column added here is in every one of them.
 */
import type { CaseResult, CaseStats, Metric } from '@rtbench/core/schema';
import { collectorShare, processesOf } from '@rtbench/stats';
import { pairable } from '@rtbench/measurer-records/readers';
import { formatMetric, formatMetricRange, formatOpsOfMedian, formatPercent } from '../format.ts';
import { ENGINE_METRIC_FIELDS, summarizeMetrics } from '../metrics.ts';
import type { PrecisionCell } from '../views/types.ts';
import { field as baseField, type CsvField, type CsvValue } from './fields.ts';
import type { RatioComparison } from '@rtbench/verdicts';

/** One case × variant, as every table of them reads it. */
export interface ResultRow {
  /** The run it is from. */
  runId: string;
  result: CaseResult;
  /** What its samples measure (the loop's time per operation unless the case declares its own). */
  metric: Metric;
  /** Its statistics with the process as the unit (views/bench.ts rowStats); absent without figures. */
  stats?: CaseStats;
  /** Its ratio against a baseline (absent for the baseline, and when none was formed). */
  against?: { baseline: string; ratio: RatioComparison };
  /** The relative cell as the view reads it ("1.35× faster [1.34–1.37]", "baseline", a comparison's "0.739 [0.731–0.748]") and the verdict that colours it. */
  relative: { text: string; verdict?: RowVerdict };
  /** A comparison's verdict in words ("faster −26.1%"), or "baseline". */
  verdictText?: string;
}

/** How a row's relative cell reads: a ratio's verdict, the baseline itself, or different work (no comparable times). */
export type RowVerdict = RatioComparison['verdict'] | 'baseline' | 'different-work';

/** What a table's heads, and which columns it shows, depend on. */
export interface TableFacts {
  /** How this table names the baseline ("node"; a letter in a narrow terminal; "its baseline" when arms have their own). */
  baseline: string;
  /** The rows are a comparison's arms, with verdicts, rather than a bench table's runtimes. */
  comparison: boolean;
  /** Some case declares its own metric (ms per start, req/s): the median is not per operation. */
  ownMetric: boolean;
  /** The rounds were chosen per case (adaptive): they differ from row to row. */
  adaptive: boolean;
  /** Some run recorded engine metrics (--metrics gc). */
  engineMetrics: boolean;
  /** Some round's samples were grown to span the case's collections (runs saved before spans have none): the collector's share is known. */
  spanned?: boolean;
}

/** How a reporter sets a cell apart: the headline figure, a verdict's colour, a row the budget left undecided. */
type Emphasis = 'headline' | 'verdict' | 'budget';

export interface Column {
  /** Names the column; the page data carries its text as `<id>Text`. */
  id: string;
  /** The head in a table that shows it. */
  head?(facts: TableFacts): string;
  /** The cell's text. */
  text?(row: ResultRow): string;
  align?: 'left' | 'right';
  /** How the terminal paints the cell, markdown sets it in bold, the page colours it. */
  emphasis?: Emphasis;
  /** In the terminal and markdown bench tables (`when` absent: always); `drop`: a terminal too narrow for the table leaves it out, the lowest first (grid.ts fitGrid). */
  table?: { when?(facts: TableFacts): boolean; drop?: number };
  /** In the HTML page's case tables: the cell's class; `num` sets figures right and unwrapped; `first`: kept on screen in a narrow window. */
  page?: { class: string; num?: boolean; first?: boolean; when?(facts: TableFacts): boolean };
  /** In csv-stats: its fields, each a key and the raw value. */
  csv?: { fields: readonly CsvField<ResultRow>[]; when?(facts: TableFacts): boolean };
}

/** The rounds stopped before the precision target was reached. */
export function budgetRanOut(p: PrecisionCell | undefined): boolean {
  return p !== undefined && (p.stoppedBy === 'max-rounds' || p.stoppedBy === 'time-budget');
}

/**
 * Undecided (≈) when the budget ran out: the rows more budget could decide, the
 * only ones a table marks. A row decided within its budget, or the baseline,
 * asks nothing of the reader, so most rows of a default table stay unmarked.
 */
export function budgetMarked(row: ResultRow): boolean {
  return row.relative.verdict === 'inconclusive' && budgetRanOut(row.result.precision);
}

/** Operations per second mean something for the loop's time per operation only. */
function perOperation(metric: Metric): boolean {
  return metric.unit === 'ns';
}

/** The median is 0 ns (below the clock's resolution): no rate, and the table says why. */
export function belowClock(row: ResultRow): boolean {
  return perOperation(row.metric) && row.stats?.median === 0;
}

/** Processes behind a row: rounds that share a process count once. */
function processCount(result: CaseResult): number {
  const rounds = result.rounds.filter((r) => r.samples.length > 0);
  const processes = processesOf(rounds.map(pairable));
  return processes ? new Set(processes).size : rounds.length;
}

const field = (key: string, value: (row: ResultRow) => CsvValue): CsvField<ResultRow> => baseField(key, value);

/**
 * The collector's share of the per-operation cost (stats' collectorShare):
 * "none" below half a percent (the samples held no collection the span could
 * see), blank for a run saved before spans.
 */
function collectorText(result: CaseResult): string {
  const share = collectorShare(result.rounds);
  if (share === undefined) return '';
  return share < 0.005 ? 'none' : formatPercent(share, 0);
}

/** The case and the variant lead every table; the reporters lay them out themselves (a heading, a swatch, a short label). */
export const CASE_COLUMN = { id: 'case', head: () => 'case', csv: { fields: [field('case', (r) => r.result.caseId)] } } as const satisfies Column;
export const VARIANT_COLUMN = { id: 'variant', head: (t) => (t.comparison ? 'arm' : 'runtime'), csv: { fields: [field('variant', (r) => r.result.variantId)] } } as const satisfies Column;

/**
 * Every column, in the order the tables show them (the page moves `first`
 * columns forward; csv-stats keeps its published order, CSV_ORDER).
 */
export const COLUMNS = [
  CASE_COLUMN,
  VARIANT_COLUMN,
  { id: 'run', csv: { fields: [field('run', (r) => r.runId)] } },
  { id: 'status', csv: { fields: [field('status', (r) => r.result.status)] } },
  { id: 'measure', csv: { fields: [field('measure', (r) => r.metric.name), field('unit', (r) => r.metric.unit), field('direction', (r) => r.metric.direction)] } },
  {
    id: 'median',
    head: (t) => (t.ownMetric ? 'median' : 'median/op'),
    text: (r) => (r.stats ? formatMetric(r.stats.median, r.metric) : '—'),
    align: 'right',
    emphasis: 'headline',
    table: {},
    page: { class: 'median', num: true, first: true },
    csv: { fields: [field('median', (r) => r.stats?.median)] },
  },
  {
    id: 'verdict',
    head: () => 'verdict',
    text: (r) => r.verdictText ?? '',
    emphasis: 'verdict',
    page: { class: 'verdict', first: true, when: (t) => t.comparison },
    csv: { fields: [field('verdict', (r) => r.against?.ratio.verdict), field('q', (r) => r.against?.ratio.qValue)] },
  },
  {
    id: 'spread',
    head: () => 'p25–p75',
    text: (r) => (r.stats ? formatMetricRange(r.stats.p25, r.stats.p75, r.metric) : ''),
    align: 'right',
    table: {},
    page: { class: 'spread', num: true },
    csv: { fields: [field('p25', (r) => r.stats?.p25), field('p75', (r) => r.stats?.p75)] },
  },
  {
    id: 'ci',
    // The median's interval, at the table's one level (views/interval-level.ts), which its key names.
    head: () => 'CI',
    text: (r) => (!r.stats ? '' : r.stats.ciHalfWidthRel !== undefined ? `±${formatPercent(r.stats.ciHalfWidthRel)}` : '—'),
    align: 'right',
    table: {},
    page: { class: 'ci', num: true },
    csv: { fields: [field('ci_low', (r) => r.stats?.ci?.[0]), field('ci_high', (r) => r.stats?.ci?.[1]), field('ci_half_width_rel', (r) => r.stats?.ciHalfWidthRel)] },
  },
  {
    id: 'distribution',
    csv: { fields: [field('samples', (r) => r.stats?.n), field('mean', (r) => r.stats?.mean), field('min', (r) => r.stats?.min), field('max', (r) => r.stats?.max), field('modes', (r) => r.stats?.modes?.modes.length)] },
  },
  {
    id: 'ops',
    head: () => 'ops/s',
    text: (r) => (r.stats && perOperation(r.metric) ? formatOpsOfMedian(r.stats.median) : ''),
    align: 'right',
    // The median read the other way up: the first a narrow terminal leaves out.
    table: { drop: 1 },
    page: { class: 'ops', num: true },
  },
  {
    id: 'collector',
    head: () => 'gc',
    text: (r) => collectorText(r.result),
    align: 'right',
    // Left out next: the `g` mark still says which cells are read by their means.
    table: { when: (t) => t.spanned === true, drop: 2 },
    page: { class: 'collector', num: true, when: (t) => t.spanned === true },
    csv: { fields: [field('gc_share', (r) => collectorShare(r.result.rounds))], when: (t) => t.spanned === true },
  },
  {
    id: 'relative',
    head: (t) => (t.comparison ? `ratio vs ${t.baseline} (interval)` : `vs ${t.baseline} (paired)`),
    text: (r) => r.relative.text,
    align: 'left',
    emphasis: 'verdict',
    table: {},
    page: { class: 'relative', num: true, first: true },
    csv: {
      fields: [
        field('baseline', (r) => r.against?.baseline),
        field('ratio', (r) => r.against?.ratio.ratio),
        field('ratio_ci_low', (r) => r.against?.ratio.ci[0]),
        field('ratio_ci_high', (r) => r.against?.ratio.ci[1]),
      ],
    },
  },
  {
    id: 'rounds',
    head: () => 'rounds',
    // Marked when the budget ran out with the row undecided.
    text: (r) => `${r.result.rounds.length}${budgetMarked(r) ? '*' : ''}`,
    align: 'right',
    emphasis: 'budget',
    // Adaptive runs give cases different numbers of rounds; otherwise every row would say the same.
    table: { when: (t) => t.adaptive },
    csv: { fields: [field('rounds', (r) => r.result.rounds.length)] },
  },
  {
    id: 'precision',
    csv: { fields: [field('target', (r) => r.result.precision?.target), field('reached', (r) => r.result.precision?.reached), field('stopped_by', (r) => r.result.precision?.stoppedBy)] },
  },
  { id: 'processes', head: () => 'processes', text: (r) => String(processCount(r.result)), align: 'right', page: { class: 'processes', num: true } },
  {
    id: 'engine',
    csv: { fields: ENGINE_METRIC_FIELDS.map((f) => field(f.column, (r) => f.value(summarizeMetrics(r.result)))), when: (t) => t.engineMetrics },
  },
] as const satisfies readonly Column[];

type Declared = (typeof COLUMNS)[number];
/** The columns of the terminal and markdown tables (their cells: cells/run.ts BenchCells). */
export type TableColumnId = TableColumn['id'];
/** The columns of the page's case tables: a page cell holds `<id>Text` for each. */
export type PageColumnId = PageColumn['id'];

/**
 * csv-stats' fields in the order users' scripts know (docs/commands.md): a
 * field declared above and not named here follows them, in the list's order.
 */
const CSV_ORDER = [
  'run', 'case', 'variant', 'status', 'measure', 'unit', 'direction', 'rounds', 'samples', 'median', 'ci_low', 'ci_high', 'ci_half_width_rel', 'mean', 'min', 'p25', 'p75', 'max',
  'modes', 'baseline', 'ratio', 'ratio_ci_low', 'ratio_ci_high', 'verdict', 'q', 'target', 'reached', 'stopped_by',
];

/** Whether a column's part for an output (`table`, `page`, `csv`) is there and shown in this table. */
function shown(part: object | undefined, facts: TableFacts): boolean {
  if (part === undefined) return false;
  return 'when' in part && typeof part.when === 'function' ? (part.when as (facts: TableFacts) => boolean)(facts) : true;
}

type TableColumn = Extract<Declared, { table: object }>;
type PageColumn = Extract<Declared, { page: object }>;

/** The figure columns of a terminal or markdown bench table, in order, after the case and the variant (without facts: every one a table can show). */
export function tableColumns(facts?: TableFacts): TableColumn[] {
  return COLUMNS.filter((c): c is TableColumn => 'table' in c && (facts === undefined || shown(c.table, facts)));
}

/** The figure columns of the page's case tables, in order, after the variant: those it keeps on screen first. */
export function pageColumns(facts: TableFacts): PageColumn[] {
  const columns = COLUMNS.filter((c): c is PageColumn => 'page' in c && shown(c.page, facts));
  const first = (c: PageColumn): boolean => 'first' in c.page && c.page.first;
  return [...columns.filter(first), ...columns.filter((c) => !first(c))];
}

/** csv-stats' fields for a table with these facts, in the published order. */
export function csvFields(facts: TableFacts): CsvField<ResultRow>[] {
  const fields = COLUMNS.flatMap((c): readonly CsvField<ResultRow>[] => ('csv' in c && shown(c.csv, facts) ? c.csv.fields : []));
  const rank = (f: CsvField<ResultRow>): number => {
    const i = CSV_ORDER.indexOf(f.key);
    return i < 0 ? CSV_ORDER.length : i;
  };
  return fields.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
}
