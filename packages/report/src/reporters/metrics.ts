/**
 * The metrics sections (views/metrics.ts) as a terminal table or markdown:
 * the GC table and the GC change lines under a comparison, and the memory
 * table. The numbers and cells are metrics.ts's and memory.ts's; this file
 * only lays them out.
 */
import pc from 'picocolors';
import { renderGrid, wrapWords, type GridColumn, type GridRow } from './grid.ts';
import { METRICS_HEADERS, metricsRowCells } from '../metrics.ts';
import { MEMORY_HEADERS, MEMORY_LEGEND, memoryRowCells } from '../memory.ts';
import { markdownCell } from '../text.ts';
import type { MemoryTableSection, MetricsChangesSection, MetricsSection, MetricsTableSection } from '../views/metrics.ts';

const LEGEND =
  'GC counts and pause time cover the sampling phase of each process (warmup excluded), summed over rounds; ' +
  'bytes/op = bytes allocated on the engine heap ÷ operations ("~": derived from GC deltas or trace lines, not an engine counter); ' +
  'young gen / old: heap state when sampling ended, median over rounds. n/a: the runtime could not say (reasons below).';

/** The terminal's column heads: short, so the table fits 100 columns; the legend says what each is. */
const TERMINAL_HEADS = ['minor/1k', 'major/1k', 'incr/1k', 'GC time', 'bytes/op', 'young (end)', 'old (end)'] as const;
const TERMINAL_LEGEND =
  'minor/major/incr per 1k: minor and major collections and incremental marking steps per 1,000 operations; GC time: pause time as a share of sampling; ';

/** The GC view for a terminal: case names as headings, one row per variant, within `maxWidth` columns where the figures allow. */
function terminalTable(section: MetricsTableSection, maxWidth = 100): string {
  const columns: GridColumn[] = [{ head: 'variant', align: 'left', wrap: true }, ...TERMINAL_HEADS.map((head): GridColumn => ({ head, align: 'right' }))];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.caseId !== previous) rows.push({ heading: pc.bold(row.caseId) });
    rows.push({ cells: [row.variantId, ...metricsRowCells(row.summary)] });
    previous = row.caseId;
  }
  const grid = renderGrid(columns, rows, { maxWidth, bold: pc.bold, dim: pc.dim });
  const why = section.notes.map((n) => pc.dim(`n/a — ${n}`));
  return [...grid, ...wrapWords(TERMINAL_LEGEND + LEGEND, maxWidth).map((l) => pc.dim(l)), ...why].join('\n');
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

function terminalChanges(section: MetricsChangesSection): string {
  const out: string[] = [];
  for (const s of section.sections) {
    out.push(pc.bold(s.title));
    // The case on its line, the change wrapped under it: a terminal line stays within 100 columns.
    for (const row of s.cases) out.push(`  ${row.caseId}`, ...wrapWords(row.line, 94).map((l) => `      ${l}`));
  }
  for (const reason of section.reasons) out.push(...wrapWords(`n/a — ${reason}`, 100).map((l) => pc.dim(l)));
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

/** The memory view's terminal heads: short, so the table fits 100 columns; the legend says what each is. */
const MEMORY_TERMINAL_HEADS = ['peak RSS', 'above open', 'heap (end)', 'outside (end)', 'growth/call', 'leak'] as const;

/** What a run saved before rtbench read memory shows instead of a table. */
const NOT_READ_LINE = 'memory: this run holds no resident-memory readings (saved before rtbench read them, or measured without /proc)';

function terminalMemory(section: MemoryTableSection, maxWidth = 100): string {
  if (!section.read) return `${pc.dim(NOT_READ_LINE)}\n`;
  const columns: GridColumn[] = [{ head: 'variant', align: 'left', wrap: true }, ...MEMORY_TERMINAL_HEADS.map((head): GridColumn => ({ head, align: 'right' }))];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.caseId !== previous) rows.push({ heading: pc.bold(row.caseId) });
    const cells = memoryRowCells(row);
    rows.push({ cells: [row.variantId, ...cells.slice(0, -1), row.resident?.leak ? pc.red(cells[cells.length - 1]!) : cells[cells.length - 1]!] });
    previous = row.caseId;
  }
  const grid = renderGrid(columns, rows, { maxWidth, bold: pc.bold, dim: pc.dim });
  const why = section.notes.map((n) => pc.dim(`n/a — ${n}`));
  const changes = section.changes ? ['', terminalChanges({ kind: 'metrics-changes', sections: section.changes, reasons: [] }).trimEnd()] : [];
  return `${[...grid, ...wrapWords(MEMORY_LEGEND, maxWidth).map((l) => pc.dim(l)), ...why, ...changes].join('\n')}\n`;
}

function markdownMemory(section: MemoryTableSection): string {
  if (!section.read) return `\n> ${NOT_READ_LINE}\n`;
  const lines = [`| case | runtime | ${MEMORY_HEADERS.join(' | ')} |`, `|---|---|${MEMORY_HEADERS.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of section.rows) {
    lines.push(`| ${row.caseId === previous ? '' : markdownCell(row.caseId)} | ${markdownCell(row.variantId)} | ${memoryRowCells(row).join(' | ')} |`);
    previous = row.caseId;
  }
  lines.push('', `<sub>${MEMORY_LEGEND}</sub>`);
  for (const n of section.notes) lines.push('', `> n/a — ${markdownCell(n)}`);
  if (section.changes) lines.push(markdownChanges({ kind: 'metrics-changes', sections: section.changes, reasons: [] }).trimEnd());
  return `\n${lines.join('\n')}\n`;
}

type Layouts = { [K in MetricsSection['kind']]: (section: Extract<MetricsSection, { kind: K }>) => string };

const TERMINAL: Layouts = {
  'metrics-table': (section) => `${terminalTable(section)}\n`,
  'metrics-changes': terminalChanges,
  'memory-table': (section) => terminalMemory(section),
};

const MARKDOWN: Layouts = {
  'metrics-table': (section) => `\n${markdownTable(section)}`,
  'metrics-changes': markdownChanges,
  'memory-table': markdownMemory,
};

function layOut(layouts: Layouts, section: MetricsSection): string {
  return (layouts[section.kind] as (section: MetricsSection) => string)(section);
}

/** The section after a terminal's view. */
export function terminalMetrics(section: MetricsSection): string {
  return layOut(TERMINAL, section);
}

/** The section after a markdown view. */
export function markdownMetrics(section: MetricsSection): string {
  return layOut(MARKDOWN, section);
}
