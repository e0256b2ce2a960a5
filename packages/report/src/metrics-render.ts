/**
 * The GC view (`--metrics gc`) as a terminal table or markdown, and the GC
 * change lines under a comparison. The numbers and cells are metrics.ts's;
 * this file only lays them out.
 */
import Table from 'cli-table3';
import pc from 'picocolors';
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
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

export function renderMetricsTable(run: RunRecord): string {
  const table = new Table({
    head: ['case', 'runtime', ...METRICS_HEADERS].map((h) => pc.bold(h)),
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: true,
  });
  let previous: string | undefined;
  for (const row of metricsRows(run)) {
    table.push([row.caseId === previous ? '' : row.caseId, row.variantId, ...metricsRowCells(row.summary)]);
    previous = row.caseId;
  }
  const why = notes(run).map((n) => pc.dim(`n/a — ${n}`));
  return [table.toString(), pc.dim(LEGEND), ...why].join('\n');
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
      out.push(format === 'markdown' ? `| ${escapeCell(row.caseId)} | ${escapeCell(line)} |` : `  ${row.caseId}: ${line}`);
    }
  }
  for (const reason of reasons) out.push(format === 'markdown' ? `\n> n/a — ${escapeCell(reason)}` : pc.dim(`n/a — ${reason}`));
  return `${out.join('\n')}\n`;
}
