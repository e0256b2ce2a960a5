/**
 * The metrics sections (views/metrics.ts) as a terminal table or markdown:
 * the GC table and the GC change lines under a comparison, and the memory
 * table. The numbers and cells are metrics.ts's and memory.ts's; this file
 * only lays them out.
 */
import pc from 'picocolors';
import { renderGrid, wrapWords, type GridColumn, type GridRow } from './grid.ts';
import { METRICS_HEADERS, metricsRowCells } from '../metrics.ts';
import { MEMORY_COLUMNS, MEMORY_HEADERS, MEMORY_LEGEND, memoryRowCells } from '../memory.ts';
import { markdownCell } from '../text.ts';
import type { ReporterOptions } from './reporter.ts';
import type { MemoryTableSection, MetricsChangesSection, MetricsSection, MetricsTableSection } from '../views/metrics.ts';

const LEGEND =
  'GC counts and pause time cover the sampling phase of each process (warmup excluded), summed over rounds; ' +
  'bytes/op = bytes allocated on the engine heap ÷ operations ("~": derived from GC deltas or trace lines, not an engine counter); ' +
  'young gen / old: heap state when sampling ended, median over rounds. n/a: the runtime could not say (reasons below).';

/** The terminal's column heads: short, so the table fits 100 columns; the legend says what each is. */
const TERMINAL_HEADS = ['minor/1k', 'major/1k', 'incr/1k', 'GC time', 'bytes/op', 'young (end)', 'old (end)'] as const;
const TERMINAL_LEGEND =
  'minor/major/incr per 1k: minor and major collections and incremental marking steps per 1,000 operations; GC time: pause time as a share of sampling; ';

type Colors = ReturnType<typeof pc.createColors>;

/** A terminal's colours and width, as the view above the section has them (colour on unless asked off; 100 columns). */
function terminalOf(options: ReporterOptions): { c: Colors; maxWidth: number } {
  return { c: pc.createColors(options.color ?? true), maxWidth: options.columns ?? 100 };
}

/** Notes under a table, each wrapped to the width and dimmed. */
function noteLines(texts: readonly string[], c: Colors, maxWidth: number): string[] {
  return texts.flatMap((t) => wrapWords(t, maxWidth).map((l) => c.dim(l)));
}

/** The GC view for a terminal: case names as headings, one row per variant, within `maxWidth` columns where the figures allow. */
function terminalTable(section: MetricsTableSection, options: ReporterOptions): string {
  const { c, maxWidth } = terminalOf(options);
  const columns: GridColumn[] = [{ head: 'variant', align: 'left', wrap: true }, ...TERMINAL_HEADS.map((head): GridColumn => ({ head, align: 'right' }))];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.caseId !== previous) rows.push({ heading: c.bold(row.caseId) });
    rows.push({ cells: [row.variantId, ...metricsRowCells(row.summary)] });
    previous = row.caseId;
  }
  const grid = renderGrid(columns, rows, { maxWidth, bold: c.bold, dim: c.dim });
  return [...grid, ...noteLines([TERMINAL_LEGEND + LEGEND, ...section.notes.map((n) => `n/a — ${n}`)], c, maxWidth)].join('\n');
}

function markdownTable(section: MetricsTableSection): string {
  const lines = [`| case | runtime | ${METRICS_HEADERS.join(' | ')} |`, `|---|---|${METRICS_HEADERS.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of section.rows) {
    lines.push(`| ${row.caseId === previous ? '' : markdownCell(row.caseId)} | ${markdownCell(row.variantId)} | ${metricsRowCells(row.summary).join(' | ')} |`);
    previous = row.caseId;
  }
  lines.push('', `<sub>${LEGEND}</sub>`);
  for (const n of section.notes) lines.push('', `> n/a — ${markdownCell(n)}`);
  return `${lines.join('\n')}\n`;
}

function terminalChanges(section: MetricsChangesSection, options: ReporterOptions): string {
  const { c, maxWidth } = terminalOf(options);
  const out: string[] = [];
  for (const s of section.sections) {
    out.push(...wrapWords(s.title, maxWidth).map((l) => c.bold(l)));
    // The case on its line, the change wrapped under it: a terminal line stays within its width.
    for (const row of s.cases) out.push(...wrapWords(`  ${row.caseId}`, maxWidth), ...wrapWords(row.line, maxWidth - 6).map((l) => `      ${l}`));
  }
  out.push(...noteLines(section.reasons.map((reason) => `n/a — ${reason}`), c, maxWidth));
  return `${out.join('\n')}\n`;
}

function markdownChanges(section: MetricsChangesSection): string {
  const out: string[] = [];
  for (const s of section.sections) {
    out.push(`\n#### ${markdownCell(s.title)}\n\n| case | change |\n|---|---|`);
    for (const row of s.cases) out.push(`| ${markdownCell(row.caseId)} | ${markdownCell(row.line)} |`);
  }
  for (const reason of section.reasons) out.push(`\n> n/a — ${markdownCell(reason)}`);
  return `${out.join('\n')}\n`;
}


/** What a run without readings shows instead of a table: why it has none. */
const unreadLine = (why: string): string => `memory: this run holds no resident-memory readings: ${why}`;

function terminalMemory(section: MemoryTableSection, options: ReporterOptions): string {
  const { c, maxWidth } = terminalOf(options);
  if (section.unread !== undefined) return `${noteLines([unreadLine(section.unread)], c, maxWidth).join('\n')}\n`;
  const columns: GridColumn[] = [{ head: 'variant', align: 'left', wrap: true }, ...MEMORY_COLUMNS.map((c): GridColumn => ({ ...c, align: 'right' }))];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.caseId !== previous) rows.push({ heading: c.bold(row.caseId) });
    const cells = memoryRowCells(row);
    const leak = cells[cells.length - 1]!;
    rows.push({ cells: [row.variantId, ...cells.slice(0, -1), row.resident?.leak ? { text: leak, paint: c.red } : leak] });
    previous = row.caseId;
  }
  const grid = renderGrid(columns, rows, { maxWidth, bold: c.bold, dim: c.dim });
  const changes = section.changes ? ['', terminalChanges({ kind: 'metrics-changes', sections: section.changes, reasons: [] }, options).trimEnd()] : [];
  const key = section.about ? [MEMORY_LEGEND, section.about] : [MEMORY_LEGEND];
  return `${[...grid, ...noteLines([...key, ...section.notes.map((n) => `n/a — ${n}`)], c, maxWidth), ...changes].join('\n')}\n`;
}

function markdownMemory(section: MemoryTableSection): string {
  if (section.unread !== undefined) return `\n> ${markdownCell(unreadLine(section.unread))}\n`;
  const lines = [`| case | runtime | ${MEMORY_HEADERS.join(' | ')} |`, `|---|---|${MEMORY_HEADERS.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of section.rows) {
    lines.push(`| ${row.caseId === previous ? '' : markdownCell(row.caseId)} | ${markdownCell(row.variantId)} | ${memoryRowCells(row).join(' | ')} |`);
    previous = row.caseId;
  }
  lines.push('', `<sub>${MEMORY_LEGEND}</sub>`);
  if (section.about) lines.push('', `<sub>${markdownCell(section.about)}</sub>`);
  for (const n of section.notes) lines.push('', `> n/a — ${markdownCell(n)}`);
  if (section.changes) lines.push(markdownChanges({ kind: 'metrics-changes', sections: section.changes, reasons: [] }).trimEnd());
  return `\n${lines.join('\n')}\n`;
}

type Layouts = { [K in MetricsSection['kind']]: (section: Extract<MetricsSection, { kind: K }>, options: ReporterOptions) => string };

const TERMINAL: Layouts = {
  'metrics-table': (section, options) => `${terminalTable(section, options)}\n`,
  'metrics-changes': terminalChanges,
  'memory-table': terminalMemory,
};

const MARKDOWN: Layouts = {
  'metrics-table': (section) => `\n${markdownTable(section)}`,
  'metrics-changes': markdownChanges,
  'memory-table': markdownMemory,
};

function layOut(layouts: Layouts, section: MetricsSection, options: ReporterOptions = {}): string {
  return (layouts[section.kind] as (section: MetricsSection, options: ReporterOptions) => string)(section, options);
}

/** The section after a terminal's view, in its colours and width. */
export function terminalMetrics(section: MetricsSection, options: ReporterOptions = {}): string {
  return layOut(TERMINAL, section, options);
}

/** The section after a markdown view. */
export function markdownMetrics(section: MetricsSection): string {
  return layOut(MARKDOWN, section);
}
