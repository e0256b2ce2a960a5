/**
 * The self-check section (views/company.ts) as a terminal table or markdown:
 * per case a row per runtime with the table's figure, the same case alone
 * and in a long loop, and their ratios; each cell with an interval marked
 * by what it says (company, within, undecided).
 */
import pc from 'picocolors';
import { ALONE_CONFIDENCE, ALONE_TOLERANCE, LOOP_TOLERANCE, type CompanyRow } from '@rtbench/verdicts';
import { formatDuration, formatRatio, ratioWithCi } from '../format.ts';
import { markdownCell } from '../text.ts';
import { renderGrid, wrapWords, type GridColumn, type GridRow } from './grid.ts';
import type { ReporterOptions } from './reporter.ts';
import type { CompanySection } from '../views/company.ts';

const HEADS = ['runtime', 'table/op', 'alone/op', 'loop/op', 'table÷alone', 'table÷loop', ''] as const;

const KEY =
  `alone: the same case on its runtime alone (runs of that runtime only, a half before the table and one after; each case has processes of its own); loop: a fresh process calling the case back to back, time over calls (median over processes). ` +
  `table÷alone: the table's processes' geometric mean over the halves' alone, with its ${ALONE_CONFIDENCE * 100}% interval, which carries both the processes' spread and how far the halves alone lie apart (the minutes between runs); ` +
  `company: that whole interval lies more than ${ALONE_TOLERANCE * 100}% from 1, so what ran beside the case moved it; within: the whole interval lies within ${ALONE_TOLERANCE * 100}% of 1; ` +
  `undecided: the interval reaches across ${1 - ALONE_TOLERANCE} or ${1 + ALONE_TOLERANCE}, so the check cannot tell; ` +
  `machine: the table and its case alone met different machine states, so their figures are not held against each other; ` +
  `loop: more than ${LOOP_TOLERANCE * 100}% from the long loop (an allocating case's loop also pays the collector's work between samples: docs/how-a-number-is-made.md).`;

/** Table ÷ alone as every ratio of a report is written: "1.124 [0.951–1.310]" (only the ratio where too few processes give no interval). */
function aloneText(row: CompanyRow): string {
  if (!row.alone) return '—';
  return row.alone.ci ? ratioWithCi(row.alone.ratio, row.alone.ci) : formatRatio(row.alone.ratio);
}

function cells(row: CompanyRow): string[] {
  const marks = [row.reading ?? '', row.machineMoved ? 'machine' : '', row.apartFromLoop ? 'loop' : ''].filter(Boolean).join(' ');
  return [
    row.variantId,
    formatDuration(row.tableNs),
    row.aloneNs === undefined ? '—' : formatDuration(row.aloneNs),
    row.loopNs === undefined ? '—' : formatDuration(row.loopNs),
    aloneText(row),
    row.loopNs === undefined ? '—' : formatRatio(row.tableNs / row.loopNs),
    marks,
  ];
}

/** How many cells depend on their company, said under the table. */
function summaryLine(section: CompanySection): string {
  const moved = section.rows.filter((r) => r.company);
  const loop = section.rows.filter((r) => r.apartFromLoop).length;
  const what = moved.length ? `${moved.length} of ${section.rows.length} cells depend on their company (${moved.map((r) => `${r.caseId} on ${r.variantId}`).join('; ')})` : `no cell of ${section.rows.length} depends on its company`;
  const within = section.rows.filter((r) => r.reading === 'within').length;
  const undecided = section.rows.filter((r) => r.reading === 'undecided').length;
  const machines = [...new Set(section.rows.flatMap((r) => (r.machineMoved ? [r.machineMoved] : [])))];
  return `self-check: ${what}, ${within} within ±${ALONE_TOLERANCE * 100}%, ${undecided} undecided; ${loop} more than ${LOOP_TOLERANCE * 100}% from a long loop${machines.length ? `; not judged where the machine moved between the runs (machine): ${machines.join('; ')}` : ''}`;
}

/** What to try where a cell reads slower among the table's runtimes than alone (views/company.ts slowerWithoutRunUp). */
function runUpLines(section: CompanySection): string[] {
  if (!section.slowerWithoutRunUp) return [];
  return ['a cell slower in the table than alone may pay collections that its wait for its turn brought on (node, deno and workerd pace full collections by the allocation rate in wall time): try the table with --run-up 150ms (docs/lockstep.md, "A longer run-up")'];
}

/** How many processes each runtime's halves alone took, and why (views/company.ts design). */
function designLines(section: CompanySection): string[] {
  return section.design?.length ? [`halves alone: ${section.design.join('; ')}`] : [];
}

export function terminalCompany(section: CompanySection, options: ReporterOptions = {}): string {
  const c = pc.createColors(options.color ?? true);
  const maxWidth = options.columns ?? 100;
  const columns: GridColumn[] = HEADS.map((head, i): GridColumn => ({ head, align: i === 0 || i === HEADS.length - 1 ? 'left' : 'right', ...(i === 0 ? { wrap: true } : {}) }));
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.caseId !== previous) rows.push({ heading: c.bold(row.caseId) });
    rows.push({ cells: cells(row) });
    previous = row.caseId;
  }
  const files = [...section.files.alone, ...(section.files.loop ? [section.files.loop] : [])];
  const notes = [summaryLine(section), ...runUpLines(section), ...designLines(section), KEY, `the runs: ${files.join(', ')}`];
  return [...renderGrid(columns, rows, { maxWidth, bold: c.bold, dim: c.dim }), ...notes.flatMap((n) => wrapWords(n, maxWidth).map((l) => c.dim(l)))].join('\n') + '\n';
}

export function markdownCompany(section: CompanySection): string {
  const lines = [`| case | ${HEADS.join(' | ')} |`, `|---|---|${HEADS.slice(1, -1).map(() => '--:').join('|')}|---|`];
  let previous: string | undefined;
  for (const row of section.rows) {
    lines.push(`| ${row.caseId === previous ? '' : markdownCell(row.caseId)} | ${cells(row).map(markdownCell).join(' | ')} |`);
    previous = row.caseId;
  }
  lines.push('', summaryLine(section), ...[...runUpLines(section), ...designLines(section)].flatMap((l) => ['', l]), '', `<sub>${KEY}</sub>`);
  return lines.join('\n') + '\n';
}
