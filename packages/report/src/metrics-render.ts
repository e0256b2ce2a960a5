/**
 * The GC view (`--metrics gc`) as a terminal table or markdown, and the GC
 * change lines under a comparison. The numbers and cells are metrics.ts's;
 * this file only lays them out.
 */
import pc from 'picocolors';
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { renderGrid, wrapWords, type GridColumn, type GridRow } from './reporters/grid.ts';
import { METRICS_HEADERS, metricsCells, metricsChange, metricsRowCells, metricsRows, minorGcName, summarizeMetrics } from './metrics.ts';

const LEGEND =
  'GC counts and pause time cover the sampling phase of each process (warmup excluded), summed over rounds; ' +
  'bytes/op = bytes allocated on the engine heap ÷ operations ("~": derived from GC deltas or trace lines, not an engine counter); ' +
  'young gen / old: heap state when sampling ended, median over rounds. n/a: the runtime could not say (reasons below).';

function notes(run: RunRecord): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const row of metricsRows(run)) {
    const { note } = metricsCells(row.summary);
    const key = `${row.variantId}: ${note}`;
    if (note && !seen.has(key)) {
      seen.add(key);
      lines.push(key);
    }
  }
  return lines;
}

/** The terminal's column heads: short, so the table fits 100 columns; the legend says what each is. */
const TERMINAL_HEADS = ['minor/1k', 'major/1k', 'incr/1k', 'GC time', 'bytes/op', 'young (end)', 'old (end)'] as const;
const TERMINAL_LEGEND =
  'minor/major/incr per 1k: minor and major collections and incremental marking steps per 1,000 operations; GC time: pause time as a share of sampling; ';

/** The GC view for a terminal: case names as headings, one row per variant, within `maxWidth` columns where the figures allow. */
export function renderMetricsTable(run: RunRecord, maxWidth = 100): string {
  const columns: GridColumn[] = [{ head: 'variant', align: 'left', wrap: true }, ...TERMINAL_HEADS.map((head): GridColumn => ({ head, align: 'right' }))];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of metricsRows(run)) {
    if (row.caseId !== previous) rows.push({ heading: pc.bold(row.caseId) });
    rows.push({ cells: [row.variantId, ...metricsRowCells(row.summary)] });
    previous = row.caseId;
  }
  const grid = renderGrid(columns, rows, { maxWidth, bold: pc.bold, dim: pc.dim });
  const why = notes(run).map((n) => pc.dim(`n/a — ${n}`));
  return [...grid, ...wrapWords(TERMINAL_LEGEND + LEGEND, maxWidth).map((l) => pc.dim(l)), ...why].join('\n');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderMetricsMarkdown(run: RunRecord): string {
  const lines = [`| case | runtime | ${METRICS_HEADERS.join(' | ')} |`, `|---|---|${METRICS_HEADERS.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of metricsRows(run)) {
    lines.push(`| ${row.caseId === previous ? '' : escapeCell(row.caseId)} | ${escapeCell(row.variantId)} | ${metricsRowCells(row.summary).join(' | ')} |`);
    previous = row.caseId;
  }
  lines.push('', `<sub>${LEGEND}</sub>`);
  for (const n of notes(run)) lines.push('', `> n/a — ${escapeCell(n)}`);
  return `${lines.join('\n')}\n`;
}

/** Finds an arm's result for a case: in one paired run, or in the run each arm came from. */
export type ResultLookup = (armId: string, caseId: string, side: 'baseline' | 'candidate') => Pick<CaseResult, 'rounds'> | undefined;

export function lookupInRun(run: RunRecord): ResultLookup {
  return (armId, caseId) => run.results.find((r) => r.variantId === armId && r.caseId === caseId);
}

/** The part of a comparison the change lines read: arms per section, and each case's time ratio. */
export interface ComparisonSections {
  sections: {
    baseline: { id: string; label: string };
    candidate: { id: string; label: string };
    cases: { caseId: string; comparison?: { ratio: number } }[];
  }[];
}

/** Per comparison section, one line per case: the time change next to the change in GC and allocation. */
export function renderMetricsChanges(report: ComparisonSections, lookup: ResultLookup, format: 'table' | 'markdown'): string {
  const out: string[] = [];
  const reasons = new Set<string>();
  for (const section of report.sections) {
    const title = `GC and allocation: ${section.candidate.label} vs ${section.baseline.label}`;
    out.push(format === 'markdown' ? `\n#### ${escapeCell(title)}\n\n| case | change |\n|---|---|` : pc.bold(title));
    for (const row of section.cases) {
      const base = lookup(section.baseline.id, row.caseId, 'baseline');
      const candidate = lookup(section.candidate.id, row.caseId, 'candidate');
      if (!base || !candidate) continue;
      const b = summarizeMetrics(base);
      const c = summarizeMetrics(candidate);
      for (const [arm, s] of [[section.baseline.label, b], [section.candidate.label, c]] as const) {
        const note = metricsCells(s).note;
        if (note) reasons.add(`${arm}: ${note}`);
      }
      const line = metricsChange(row.comparison?.ratio, b, c, minorGcName(b.source));
      if (format === 'markdown') out.push(`| ${escapeCell(row.caseId)} | ${escapeCell(line)} |`);
      // The case on its line, the change wrapped under it: a terminal line stays within 100 columns.
      else out.push(`  ${row.caseId}`, ...wrapWords(line, 94).map((l) => `      ${l}`));
    }
  }
  for (const reason of reasons) out.push(...(format === 'markdown' ? [`\n> n/a — ${escapeCell(reason)}`] : wrapWords(`n/a — ${reason}`, 100).map((l) => pc.dim(l))));
  return `${out.join('\n')}\n`;
}
