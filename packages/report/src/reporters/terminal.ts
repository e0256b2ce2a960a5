/**
 * Tables for a terminal that fit its width (100 columns when it is not a
 * terminal): borderless grids (grid.ts), coloured with picocolors (honours
 * NO_COLOR and non-TTY output). Layouts are tried widest first — the case in
 * a column with full variant names, then case names as headings, then short
 * arm labels (A, B, …) with a legend — and the first that fits is used; a
 * line under the table says what a wider terminal would add.
 */
import { terminalCompany } from './company.ts';
import { loadTerminal } from './load.ts';
import { cpuPerRequestTerminal } from './cpu-per-request.ts';
import { requestSummaryExplained, requestSummaryProblems, requestSummaryTerminal } from './request-summary.ts';
import type { RequestSummary, RequestSummaryRow } from '../views/request-summary.ts';
import type { CpuPerRequestSection } from '../views/cpu-per-request.ts';
import { counted } from '../text.ts';
import { renderClaimsTerminal } from './claims-terminal.ts';
import pc from 'picocolors';
import { NO_RATE_REASON } from '../format.ts';
import { armFlags, shortHash } from '../views/arms.ts';
import { differentWorkText } from '../views/different-work.ts';
import type { ArmComparison, BenchCase, BenchView, ComparisonView, Note } from '../views/types.ts';
import { benchFacts, benchGeomeanLine, budgetLine, geomeanLeftOut, geomeanText, benchKey, benchLegend, benchResultRow, roundsGotLine, comparisonCells, comparisonKey, designLine, legend, WHERE_HEADING, whereText } from '../cells/run.ts';
import { belowClock, budgetMarked, CASE_COLUMN, tableColumns, VARIANT_COLUMN, type ResultRow } from '../columns/results.ts';
import { COMPARISON_CASE_COLUMN, COMPARISON_COLUMNS } from '../columns/comparison.ts';
import { fitGrid, naturalGridWidth, renderGrid, wrapWords, type Cell, type GridColumn, type GridRow, type Paint } from './grid.ts';
import { renderHistoryTerminal } from './history.ts';
import { casePlot } from './plot.ts';
import { WITHOUT_WORK_KEY, WITHOUT_WORK_MARK } from '../views/without-work.ts';
import { byKind, type Reporter, type ReporterOptions } from './reporter.ts';
import { terminalMetrics } from './metrics.ts';
import { renderProfileSection, terminalProfileBlock } from './profiles.ts';
import { releasesText } from './releases.ts';
import { bisectTerminal } from './bisect.ts';

const plain: Paint = (s) => s;
const DEFAULT_COLUMNS = 100;

type Colors = ReturnType<typeof pc.createColors>;

function palette(color: boolean): Colors {
  return pc.createColors(color);
}

/** Prose wrapped to the width, each line painted; continuation lines indented by `indent`. */
function wrapped(text: string, columns: number, paint: Paint = plain, indent = 0): string[] {
  const lines = text.split('\n').flatMap((para) => wrapWords(para, columns - indent));
  return lines.map((line, i) => paint(i === 0 ? line : ' '.repeat(indent) + line.trimStart()));
}

function noteLines(note: Note, c: Colors, columns: number): string[] {
  const paint = note.level === 'error' ? c.red : note.level === 'warning' ? c.yellow : c.dim;
  const mark = note.level === 'error' ? '✗' : note.level === 'warning' ? '!' : '·';
  return wrapped(`${mark} ${note.text}`, columns, paint, 2);
}

/** A layout to try: the case in its own column or as a heading, and full or short arm labels. */
interface Layout {
  caseColumn: boolean;
  short: boolean;
}
const LAYOUTS: readonly Layout[] = [
  { caseColumn: true, short: false },
  { caseColumn: false, short: false },
  { caseColumn: false, short: true },
];

/** A, B, …, Z, AA, AB: short labels in the order given. */
function letterLabel(i: number): string {
  return i < 26 ? String.fromCharCode(65 + i) : letterLabel(Math.floor(i / 26) - 1) + letterLabel(i % 26);
}

/** Builds the grid for each layout and keeps the first that fits `columns` (the last one otherwise). */
function fitLayout<T>(columns: number, build: (layout: Layout) => { columns: GridColumn[]; rows: GridRow[] } & T): { layout: Layout; widths: number[] } & ReturnType<typeof build> {
  const widths: number[] = [];
  for (const [i, layout] of LAYOUTS.entries()) {
    const grid = build(layout);
    widths.push(naturalGridWidth(grid.columns, grid.rows));
    if (widths[i]! <= columns || i === LAYOUTS.length - 1) return { ...grid, layout, widths };
  }
  throw new Error('unreachable');
}

/** One line on what a wider terminal adds, when the layout gave something up. */
function widerLine(layout: Layout, widths: readonly number[], what: { short: string; caseColumn: string }): string | undefined {
  const adds: string[] = [];
  if (layout.short) adds.push(`≥ ${widths[1]} columns: ${what.short}`);
  if (!layout.caseColumn) adds.push(`≥ ${widths[0]} columns: ${what.caseColumn}`);
  return adds.length ? `a wider terminal adds (${adds.join('; ')})` : undefined;
}

// ---------------------------------------------------------------- bench table

/** Marks in the bench table's last column, each explained once under it. */
const MARKS = {
  modes: { mark: 'm', text: 'the process medians form 2 or more modes (a fast and a slow state)' },
  skew: { mark: 's', text: 'the mean is ≥ 1.5× the median: rare slow samples the median hides' },
  collection: { mark: 'g', text: 'samples bimodal by collection even at their longest: each process read by its mean, and the ratio too' },
  opposite: { mark: '⇄', text: 'the medians and the paired ratio point opposite ways (the reason is listed below)' },
  failed: { mark: '✗', text: 'a round failed (the failures are listed below)' },
  'warmed-late': { mark: '↘', text: 'processes still warming as sampling began: their samples stepped down' },
  slowdown: { mark: '↗', text: 'processes slower once steady than while warming, or their samples stepped up' },
  'no-steady-state': { mark: '~', text: 'processes whose batch times never settled within the warmup’s maximum: sampled anyway, the median may not be a steady state' },
  'without-work': { mark: WITHOUT_WORK_MARK, text: WITHOUT_WORK_KEY },
} as const;

/** A marked steady-state class's mark (MARKS). */
function steadyMark(cls: string): string {
  return cls === 'warmed-late' || cls === 'slowdown' || cls === 'no-steady-state' ? MARKS[cls].mark : '';
}

function marksOf(row: BenchCase['rows'][number]): string {
  const steady = row.steady?.mark ? steadyMark(row.steady.mark) : '';
  return `${row.modes ? MARKS.modes.mark : ''}${row.skew ? MARKS.skew.mark : ''}${row.byCollection ? MARKS.collection.mark : ''}${row.opposite ? MARKS.opposite.mark : ''}${row.note ? MARKS.failed.mark : ''}${steady}${row.withoutWork ? MARKS['without-work'].mark : ''}`;
}

function benchGrid(view: BenchView, layout: Layout, c: Colors) {
  const labels = new Map(view.variants.map((v, i) => [v.id, layout.short ? letterLabel(i) : v.id]));
  const facts = benchFacts(view, labels.get(view.baseline.id) ?? view.baseline.label);
  const figures = tableColumns(facts);
  const hasMarks = view.cases.some((bc) => bc.rows.some((r) => r.stats && marksOf(r)));
  const columns: GridColumn[] = [
    ...(layout.caseColumn ? [{ head: CASE_COLUMN.head(), align: 'left' as const }] : []),
    { head: VARIANT_COLUMN.head(facts), align: 'left' },
    ...figures.map((f): GridColumn => ({ head: f.head(facts), align: f.align, ...('drop' in f.table ? { drop: f.table.drop } : {}) })),
    ...(hasMarks ? [{ head: '', align: 'left' as const }] : []),
  ];
  const verdictPaint: Record<string, Paint> = { faster: c.green, slower: c.red, 'different-work': c.red, baseline: c.dim, inconclusive: plain, equivalent: plain, small: plain };
  const emphasis = { headline: () => c.bold, verdict: (r: ResultRow) => verdictPaint[r.relative.verdict ?? ''] ?? plain, budget: (r: ResultRow) => (budgetMarked(r) ? c.yellow : plain) };
  const paintOf = (f: (typeof figures)[number], r: ResultRow): Paint => ('emphasis' in f ? emphasis[f.emphasis](r) : plain);
  const rows: GridRow[] = [];
  let below = false;
  // Rows marked `*`, counted as they are built for the line under the table.
  let budgetMarks = 0;
  // Why a row has no figures, said once under the table however many rows share it.
  const reasons: string[] = [];
  const reasonNumber = (text: string): number => (reasons.includes(text) ? reasons.indexOf(text) : reasons.push(text) - 1) + 1;
  for (const bc of view.cases) {
    if (!layout.caseColumn) rows.push({ heading: c.bold(bc.label) });
    bc.rows.forEach((row, i) => {
      const lead: Cell[] = layout.caseColumn ? [i === 0 ? bc.label : ''] : [];
      const label = labels.get(row.variantId) ?? row.variantId;
      if (!row.stats) {
        const what = row.status === 'unsupported' ? 'unsupported' : 'no result';
        rows.push({ cells: [...lead, label], tail: { text: row.note ? `${what} [${reasonNumber(row.note)}]` : what, paint: row.status === 'unsupported' ? c.yellow : c.red } });
        return;
      }
      const r = benchResultRow(row, bc.digestMismatch !== undefined);
      below ||= belowClock(r);
      if (budgetMarked(r)) budgetMarks++;
      rows.push({
        cells: [
          ...lead,
          label,
          ...figures.map((f) => ({ text: f.text(r), paint: paintOf(f, r) })),
          ...(hasMarks ? [{ text: marksOf(row), paint: c.yellow }] : []),
        ],
      });
    });
  }
  return { columns, rows, belowClock: below, budgetMarks, labels, reasons };
}

/** The marks a table uses, in MARKS' order, with the rows each is on. */
function marksUsed(view: BenchView): { mark: string; text: string; n: number }[] {
  const rows = view.cases.flatMap((bc) => bc.rows.filter((r) => r.stats));
  return (Object.keys(MARKS) as (keyof typeof MARKS)[]).map((key) => ({ ...MARKS[key], n: rows.filter((r) => marksOf(r).includes(MARKS[key].mark)).length })).filter((m) => m.n > 0);
}

/** The key in two lines at most: the marks the table uses named by their symbols where they fit, else as "the marks". */
function defaultKey(view: BenchView, columns: number): string {
  const used = marksUsed(view).map((m) => m.mark);
  if (!used.length) return benchKey(view);
  const listed = benchKey(view, `marks ${used.join(' ')}`);
  return wrapWords(listed, columns).length <= 2 ? listed : benchKey(view, 'the marks');
}

/** "marks: m … (2 rows); s … (1 row)", counting the rows each mark is on (--explain). */
function marksLegend(view: BenchView): string | undefined {
  const used = marksUsed(view);
  if (!used.length) return undefined;
  const parts = used.map((m) => `${m.mark} ${m.text} (${counted(m.n, 'row')})`);
  return `marks: ${parts.join('; ')}. The modes' centres: --plot (under each case's plot) or --format markdown; the means: csv-stats.`;
}

/** One sentence under the table on the cells whose processes did not settle as the warmup expected, or on a run saved before the rule. */
function steadyStateLine(view: BenchView): string | undefined {
  if (view.notClassified) return 'steady state: not classified (a run saved before warmups were watched)';
  const marked = view.cases.flatMap((bc) => bc.rows.filter((r) => r.steady?.mark).map((r) => `${r.variantId} · ${bc.label}: ${r.steady!.text}`));
  return marked.length ? `steady state (from each process's warmup and samples; --format json has every process's class): ${marked.join('; ')}` : undefined;
}

/** The brief lines' paints: the baseline dim, a decided verdict in its colour. */
function summaryPaints(c: Colors): { bold: Paint; dim: Paint; verdict: (row: RequestSummaryRow) => Paint } {
  const verdictPaint: Record<string, Paint> = { faster: c.green, slower: c.red };
  return { bold: c.bold, dim: c.dim, verdict: (row) => (row.isBaseline ? c.dim : (verdictPaint[row.relative?.verdict ?? ''] ?? plain)) };
}

/**
 * A run of request cases in brief: the rounds, one line per request and
 * runtime, the notes and a key; the tables behind them are --explain's.
 */
function renderRequestBrief(view: BenchView, summary: RequestSummary, c: Colors, columns: number): string {
  const got = roundsGotLine(view);
  const lines = [...(got ? wrapped(got, columns, c.dim) : []), ...(view.cpuPerRequest ? requestSummaryTerminal(summary, view.cpuPerRequest, view.baseline.label, columns, summaryPaints(c), false) : [])];
  for (const line of view.cpuPerRequest ? requestSummaryProblems(summary, view.cpuPerRequest) : []) lines.push(...wrapped(line, columns, c.yellow, 2));
  for (const note of view.notes) lines.push(...noteLines(note, c, columns));
  return `${lines.join('\n')}\n`;
}

function renderBenchTerminal(view: BenchView, options: ReporterOptions = {}): string {
  const c = palette(options.color ?? true);
  const columns = options.columns ?? DEFAULT_COLUMNS;
  if (view.requestSummary && !options.explain && !options.plot) return renderRequestBrief(view, view.requestSummary, c, columns);
  const grid = fitLayout(columns, (layout) => benchGrid(view, layout, c));
  // Narrower still than the shortest layout (a one-round table on four runtimes): the droppable figure columns go,
  // where that makes it fit (a table too wide without them too keeps them: leaving them out would lose them for nothing).
  const dropped = fitGrid(grid.columns, grid.rows, columns);
  const fitted = naturalGridWidth(dropped.columns, dropped.rows) <= columns ? dropped : { columns: grid.columns, rows: grid.rows, dropped: [], fullWidth: dropped.fullWidth };
  // The rounds the rows really got, over the table: a plan's range says what might have been.
  const got = roundsGotLine(view);
  const lines = [...(got ? wrapped(got, columns, c.dim) : []), ...renderGrid(fitted.columns, fitted.rows, { maxWidth: columns, bold: c.bold, dim: c.dim })];
  if (fitted.dropped.length) lines.push(...wrapped(`${fitted.dropped.join(', ')}: left out to fit ${columns} columns (≥ ${fitted.fullWidth} shows them; --format markdown has every column)`, columns, c.dim));
  grid.reasons.forEach((reason, i) => lines.push(...wrapped(`[${i + 1}] ${reason.replace(/^unsupported: /, '')}`, columns, c.yellow, 4)));
  if (grid.layout.short) lines.push(...wrapped(view.variants.map((v, i) => `${letterLabel(i)} = ${v.id}`).join(' · '), columns, c.bold));
  // An arm that pins packages ran their versions: named with its engine, as a comparison names them.
  view.variants.forEach((v, i) => {
    if (view.run.variants.find((r) => r.id === v.id)?.packages?.length) lines.push(...wrapped(`${grid.layout.short ? letterLabel(i) : v.id}: ${v.versionText}`, columns, c.dim, 4));
  });
  const geomean = benchGeomeanLine(view);
  if (geomean) lines.push(...wrapped(geomean, columns, c.bold));
  // The rows marked *, counted once; --explain counts them in its legend.
  const budget = options.explain ? undefined : budgetLine(view, grid.budgetMarks);
  if (budget) lines.push(...wrapped(budget, columns, c.yellow));
  // What each mark means and which processes a steady-state mark stands for: --explain; by default the key names the marks.
  const marks = options.explain ? marksLegend(view) : undefined;
  if (marks) lines.push(...wrapped(marks, columns, c.yellow));
  const steadyLine = options.explain ? steadyStateLine(view) : undefined;
  if (steadyLine) lines.push(...wrapped(steadyLine, columns, c.yellow));
  for (const bc of view.cases) for (const row of bc.rows) if (row.opposite) lines.push(...wrapped(`⇄ ${row.variantId} · ${bc.label}: ${row.opposite}`, columns, c.yellow, 2));
  // Once per case and reason, naming the variants it holds for: a file whose cases all return nothing says so once a case, not once a cell.
  for (const bc of view.cases) {
    const variantsBy = new Map<string, string[]>();
    for (const row of bc.rows) if (row.withoutWork) variantsBy.set(row.withoutWork, [...(variantsBy.get(row.withoutWork) ?? []), row.variantId]);
    for (const [text, ids] of variantsBy) lines.push(...wrapped(`${WITHOUT_WORK_MARK} ${bc.label} (${ids.join(', ')}): ${text}`, columns, c.yellow, 2));
  }
  if (grid.belowClock) lines.push(...wrapped(`ops/s —: ${NO_RATE_REASON}`, columns, c.dim));
  const wider = widerLine(grid.layout, grid.widths, { short: 'the full variant names in the table', caseColumn: 'the case names in a column' });
  if (wider && options.explain) lines.push(...wrapped(wider, columns, c.dim));
  if (options.plot) lines.push('', ...view.cases.map((bc) => casePlot(bc, { columns, color: options.color ?? true, labels: grid.labels })).filter(Boolean));
  if (view.requestSummary && view.cpuPerRequest) {
    lines.push('', ...requestSummaryTerminal(view.requestSummary, view.cpuPerRequest, view.baseline.label, columns, summaryPaints(c), true));
    for (const line of requestSummaryExplained(view.requestSummary, view.cpuPerRequest, view.baseline.label)) lines.push(...wrapped(line, columns, c.dim, 2));
  }
  if (view.cpuPerRequest) lines.push(...cpuPerRequestTerminal(view.cpuPerRequest, columns, c.bold, c.dim));
  if (view.load) lines.push(...loadTerminal(view.load, columns, c.bold, c.dim));
  for (const note of view.notes) lines.push(...noteLines(note, c, columns));
  // By default one key to the table; --explain: the method in full.
  for (const line of options.explain ? benchLegend(view) : [defaultKey(view, columns)]) lines.push(...wrapped(line, columns, c.dim));
  return `${lines.join('\n')}\n`;
}

// ----------------------------------------------------------- comparison table

function sectionGrid(section: ArmComparison, view: ComparisonView, layout: Layout, c: Colors) {
  const [baseline, candidate] = layout.short ? ['A', 'B'] : [section.baseline.label, section.candidate.label];
  // The verdict's detail wraps in a column of its own, headed by nothing.
  const columns: GridColumn[] = [
    ...(layout.caseColumn ? [{ head: COMPARISON_CASE_COLUMN.head, align: 'left' as const }] : []),
    ...COMPARISON_COLUMNS.flatMap((col): GridColumn[] => [{ head: col.head({ baseline, candidate }), align: col.align }, ...(col.verdict ? [{ head: '', align: 'left' as const, wrap: true }] : [])]),
  ];
  const verdictColor: Record<string, Paint> = { faster: c.green, slower: c.red, small: plain, equivalent: plain, inconclusive: c.yellow };
  const rows: GridRow[] = [];
  for (const row of section.cases) {
    if (!layout.caseColumn) rows.push({ heading: c.bold(row.label) });
    const lead: Cell[] = layout.caseColumn ? [row.label] : [];
    const t = comparisonCells(row, view);
    const work = row.digests ? ' ≠ work' : '';
    const verdict: Cell = row.comparison ? { text: `${t.word}${work}`, paint: row.digests ? c.red : (verdictColor[t.verdict] ?? plain) } : { text: `—${work}`, paint: c.red };
    const detail: Cell = row.comparison ? { text: t.detail, paint: t.verdict === 'inconclusive' ? c.dim : plain } : { text: t.detail, paint: c.red };
    rows.push({ cells: [...lead, ...COMPARISON_COLUMNS.flatMap((col): Cell[] => (col.verdict ? [verdict, detail] : [col.text(t)]))] });
    // A compared case's note, under its verdict's detail.
    if (row.comparison && row.note) rows.push({ cells: [...lead.map(() => ''), ...COMPARISON_COLUMNS.flatMap((col): Cell[] => (col.verdict ? ['', { text: row.note!, paint: c.dim }] : ['']))] });
  }
  return { columns, rows };
}

function sectionLines(section: ArmComparison, view: ComparisonView, c: Colors, columns: number, explain: boolean): string[] {
  const grid = fitLayout(columns, (layout) => sectionGrid(section, view, layout, c));
  const out = wrapped(`${c.bold(view.suite)}: ${c.bold(section.candidate.label)} vs ${section.baseline.label} (baseline)`, columns);
  for (const [i, arm] of [section.baseline, section.candidate].entries()) {
    const commit = arm.binaryCommit ? `; built from ${arm.binaryCommit}` : '';
    const name = grid.layout.short ? `${letterLabel(i)} = ${arm.label}` : arm.label;
    out.push(...wrapped(`  ${name}: ${arm.versionText}; flags ${armFlags(arm)}; sha256 ${shortHash(arm.binarySha256)}${commit}`, columns, c.dim, 4));
  }
  out.push(...renderGrid(grid.columns, grid.rows, { maxWidth: columns, bold: c.bold, dim: c.dim }));
  const g = section.geomean;
  if (g) {
    out.push(...wrapped(`${c.bold('geomean')} over ${g.cases} cases${geomeanLeftOut(g)}: ${geomeanText(g, view.threshold, section.cases.find((r) => r.metric)?.metric, 'comparison')}`, columns));
  }
  for (const row of section.cases) {
    if (row.digests) {
      const text = `✗ different work on "${row.label}": ${differentWorkText({ [section.baseline.label]: row.digests.baseline, [section.candidate.label]: row.digests.candidate }, row.digests.where)}; the ratio compares different computations`;
      out.push(...wrapped(text, columns, c.red, 2));
    }
  }
  for (const row of section.cases) {
    for (const [arm, cell] of [[section.baseline, row.steady?.baseline], [section.candidate, row.steady?.candidate]] as const) {
      if (cell?.mark) out.push(...wrapped(`${steadyMark(cell.mark)} ${arm.label} · ${row.label}: ${cell.text}`, columns, c.yellow, 2));
    }
    for (const [arm, text] of [[section.baseline, row.withoutWork?.baseline], [section.candidate, row.withoutWork?.candidate]] as const) {
      if (text) out.push(...wrapped(`${WITHOUT_WORK_MARK} ${arm.label} · ${row.label}: without work: ${text}`, columns, c.yellow, 2));
    }
  }
  const moved = section.cases.filter((row) => row.where);
  if (moved.length) {
    out.push(...wrapped(WHERE_HEADING, columns, c.dim));
    for (const row of moved) out.push(...wrapped(`${row.label}: ${whereText(row.where!)}`, columns, plain, 4).map((l) => `  ${l}`));
  }
  const wider = widerLine(grid.layout, grid.widths, { short: 'the arm names as column heads', caseColumn: 'the case names in a column' });
  if (wider && explain) out.push(...wrapped(wider, columns, c.dim));
  return out;
}

/** A comparison of request cases in brief, as a bench run's: the arms, one line per request and runtime, the notes; the tables are --explain's. */
function renderRequestComparisonBrief(view: ComparisonView, summary: RequestSummary, section: CpuPerRequestSection, c: Colors, columns: number): string {
  const lines: string[] = [];
  for (const arm of view.arms) lines.push(...wrapped(`  ${arm.label}: ${arm.versionText}; flags ${armFlags(arm)}; sha256 ${shortHash(arm.binarySha256)}`, columns, c.dim, 4));
  lines.push(...requestSummaryTerminal(summary, section, view.arms[0]!.label, columns, summaryPaints(c), false));
  for (const line of requestSummaryProblems(summary, section)) lines.push(...wrapped(line, columns, c.yellow, 2));
  for (const note of view.notes) lines.push(...wrapped(`! ${note}`, columns, c.yellow, 2));
  return `${lines.join('\n')}\n`;
}

export function renderComparisonTerminal(view: ComparisonView, options: ReporterOptions = {}): string {
  const c = palette(options.color ?? true);
  const columns = options.columns ?? DEFAULT_COLUMNS;
  if (view.requestSummary && view.cpuPerRequest && !options.explain) return renderRequestComparisonBrief(view, view.requestSummary, view.cpuPerRequest, c, columns);
  const out: string[] = [];
  const baseline = view.sections[0]?.baseline;
  if (view.pairing === 'paired' && view.sections.length > 1 && baseline) {
    out.push(...wrapped(`${view.sections.length} candidates, each compared with the first arm, ${baseline.label} (the baseline)`, columns, c.dim));
  }
  for (const section of view.sections) out.push(...sectionLines(section, view, c, columns, options.explain === true), '');
  if (view.cpuPerRequest) out.push(...cpuPerRequestTerminal(view.cpuPerRequest, columns, c.bold, c.dim).slice(1), '');
  if (view.load) out.push(...loadTerminal(view.load, columns, c.bold, c.dim).slice(1), '');
  for (const note of view.notes) out.push(...wrapped(`! ${note}`, columns, c.yellow, 2));
  // By default one key to the verdicts; --explain: how the data was taken and the rules in full.
  for (const line of options.explain ? [designLine(view), legend(view)] : [comparisonKey(view)]) out.push(...wrapped(line, columns, c.dim));
  return `${out.join('\n')}\n`;
}

export const terminalReporter: Reporter = {
  format: 'terminal',
  description: 'the table (default; alias: table)',
  extension: 'txt',
  windowed: true,
  render: byKind({ bench: renderBenchTerminal, comparison: renderComparisonTerminal, history: renderHistoryTerminal, claims: renderClaimsTerminal, releases: releasesText, bisect: bisectTerminal }),
  sections: { metrics: terminalMetrics, company: terminalCompany, profiles: (section) => renderProfileSection(section, terminalProfileBlock) },
};
