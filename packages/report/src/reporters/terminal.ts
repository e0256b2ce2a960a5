/**
 * Tables for a terminal, with cli-table3 (column widths, wrapping and unicode
 * borders are its job) and picocolors (honours NO_COLOR and non-TTY output).
 */
import Table from 'cli-table3';
import pc from 'picocolors';
import { armFlags, shortHash } from '../views/arms.ts';
import type { ArmComparison, BenchView, ComparisonView, Note } from '../views/types.ts';
import { benchCells, benchGeomeanLine, benchLegend, comparisonCells, designLine, formatChange, isAdaptive, legend, ratioWithCi, relativeHeader } from './cells.ts';
import { casePlot } from './plot.ts';
import type { Reporter, ReporterOptions } from './reporter.ts';

type Paint = (s: string) => string;
const plain: Paint = (s) => s;

function palette(color: boolean) {
  const c = color ? pc : pc.createColors(false);
  return c;
}

function noteLine(note: Note, c: ReturnType<typeof palette>): string {
  const paint = note.level === 'error' ? c.red : note.level === 'warning' ? c.yellow : c.dim;
  const mark = note.level === 'error' ? '✗' : note.level === 'warning' ? '!' : '·';
  return paint(`${mark} ${note.text}`);
}

export function renderBenchTerminal(view: BenchView, options: ReporterOptions = {}): string {
  const c = palette(options.color ?? true);
  const adaptive = isAdaptive(view);
  const head = ['case', 'runtime', 'median/op', 'p25–p75', '95% CI', 'ops/s', relativeHeader(view), ...(adaptive ? ['rounds'] : [])];
  const span = head.length - 2;
  const table = new Table({
    head: head.map((h) => c.bold(h)),
    colAligns: (['left', 'left', 'right', 'right', 'right', 'right', 'left', 'right'] as const).slice(0, head.length),
    style: { head: [], border: [] },
    // No rule between rows: a case's runtimes sit together under its name.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: true,
  });
  const verdictPaint: Record<string, Paint> = { faster: c.green, slower: c.red, 'different-work': c.red, baseline: c.dim, inconclusive: plain, equivalent: plain };
  const plots: string[] = [];
  // Remarks go under the table: spanning rows inside it break cli-table3's borders.
  const remarks: string[] = [];
  for (const bc of view.cases) {
    bc.rows.forEach((row, i) => {
      const caseCell = i === 0 ? bc.caseId : '';
      const t = benchCells(row, bc.digestMismatch !== undefined, view.confidence);
      if (!row.stats) {
        const paint = row.status === 'unsupported' ? c.yellow : c.red;
        table.push([caseCell, row.variantId, { colSpan: span, content: paint(row.note ?? 'no result') }]);
        return;
      }
      const relative = (verdictPaint[t.verdict ?? ''] ?? plain)(t.relative);
      table.push([caseCell, row.variantId, c.bold(t.median), t.spread, t.ci, t.ops, relative, ...(adaptive ? [t.budgetRanOut ? c.yellow(t.rounds) : t.rounds] : [])]);
      if (row.note) remarks.push(c.red(`✗ ${row.variantId} · ${bc.caseId}: ${row.note}`));
      if (row.modes) remarks.push(c.yellow(`! ${row.variantId} · ${bc.caseId}: ${row.modes}`));
      if (row.skew) remarks.push(c.yellow(`! ${row.variantId} · ${bc.caseId}: ${row.skew}`));
    });
    if (options.plot) plots.push(casePlot(bc, { columns: options.columns ?? 100, color: options.color ?? true }));
  }
  const geomean = benchGeomeanLine(view);
  const lines = [table.toString(), ...(geomean ? [c.bold(geomean)] : []), ...remarks];
  if (plots.length) lines.push('', ...plots);
  for (const note of view.notes) lines.push(noteLine(note, c));
  for (const line of benchLegend(view)) lines.push(c.dim(line));
  return `${lines.join('\n')}\n`;
}

function sectionTable(section: ArmComparison, view: ComparisonView, c: ReturnType<typeof palette>): string {
  const table = new Table({
    head: ['case', section.baseline.label, section.candidate.label, 'ratio (95% CI)', 'verdict', 'q'].map((h) => c.bold(h)),
    colAligns: ['left', 'right', 'right', 'right', 'left', 'right'],
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: true,
  });
  const verdictColor: Record<string, Paint> = { faster: c.green, slower: c.red, equivalent: plain, inconclusive: c.yellow };
  for (const row of section.cases) {
    const t = comparisonCells(row, view);
    const color = verdictColor[t.verdict] ?? plain;
    const verdict = row.comparison ? `${color(t.verdict)} ${t.verdict === 'inconclusive' ? c.dim(t.detail) : t.detail}` : c.red(t.detail || '—');
    const work = row.digests ? ` ${c.red('≠ work')}` : '';
    table.push([row.caseId, t.baseline, t.candidate, t.ratio, `${verdict}${work}`, t.q]);
    if (row.comparison && row.note) table.push(['', '', '', '', c.dim(row.note), '']);
  }
  return table.toString();
}

export function renderComparisonTerminal(view: ComparisonView, options: ReporterOptions = {}): string {
  const c = palette(options.color ?? true);
  const out: string[] = [];
  const baseline = view.sections[0]?.baseline;
  if (view.pairing === 'paired' && view.sections.length > 1 && baseline) {
    out.push(c.dim(`${view.sections.length} candidates, each compared with the first arm, ${baseline.label} (the baseline)`));
  }
  for (const section of view.sections) {
    out.push(`${c.bold(view.suite)}: ${c.bold(section.candidate.label)} vs ${section.baseline.label} (baseline)`);
    for (const arm of [section.baseline, section.candidate]) {
      const commit = arm.binaryCommit ? `; built from ${arm.binaryCommit}` : '';
      out.push(c.dim(`  ${arm.label}: ${arm.versionText}; flags ${armFlags(arm)}; sha256 ${shortHash(arm.binarySha256)}${commit}`));
    }
    out.push(sectionTable(section, view, c));
    const g = section.geomean;
    if (g) {
      const left = g.excluded ? ` (${g.excluded} case${g.excluded === 1 ? '' : 's'} with different work left out)` : '';
      out.push(`${c.bold('geomean')} over ${g.cases} cases${left}: ${ratioWithCi(g.ratio, g.ci)}, ${formatChange(g.ratio)} time`);
    }
    for (const row of section.cases) {
      if (row.digests) {
        out.push(c.red(`✗ different work on "${row.caseId}": ${section.baseline.label} ${row.digests.baseline}, ${section.candidate.label} ${row.digests.candidate}; the ratio compares different computations`));
      }
    }
    out.push('');
  }
  for (const note of view.notes) out.push(c.yellow(`! ${note}`));
  out.push(c.dim(designLine(view)));
  out.push(c.dim(legend(view)));
  return `${out.join('\n')}\n`;
}

export const terminalReporter: Reporter = {
  format: 'terminal',
  description: 'the table (default; alias: table)',
  extension: 'txt',
  render: (view, options) => (view.kind === 'bench' ? renderBenchTerminal(view, options) : renderComparisonTerminal(view, options)),
};
