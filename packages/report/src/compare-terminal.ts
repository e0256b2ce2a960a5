/** A comparison in the terminal: one table per candidate arm against the baseline. */
import Table from 'cli-table3';
import pc from 'picocolors';
import type { ArmComparison, ComparisonReport } from './compare-model.ts';
import { armFlags, armVersion, comparisonCells, designLine, formatChange, legend, ratioWithCi, shortHash } from './compare-cells.ts';

const verdictColor: Record<string, (s: string) => string> = {
  faster: pc.green,
  slower: pc.red,
  equivalent: (s) => s,
  inconclusive: pc.yellow,
};

function sectionTable(section: ArmComparison, report: ComparisonReport): string {
  const table = new Table({
    head: ['case', section.baseline.label, section.candidate.label, 'ratio (95% CI)', 'verdict', 'q'].map((h) => pc.bold(h)),
    colAligns: ['left', 'right', 'right', 'right', 'left', 'right'],
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: true,
  });
  for (const row of section.cases) {
    const t = comparisonCells(row, report);
    const color = verdictColor[t.verdict] ?? ((s: string) => s);
    const verdict = row.comparison ? `${color(t.verdict)} ${t.verdict === 'inconclusive' ? pc.dim(t.detail) : t.detail}` : pc.red(t.detail || '—');
    const work = row.digests ? ` ${pc.red('≠ work')}` : '';
    table.push([row.caseId, t.baseline, t.candidate, t.ratio, `${verdict}${work}`, t.q]);
    if (row.comparison && row.note) table.push(['', '', '', '', pc.dim(row.note), '']);
  }
  return table.toString();
}

function geomeanLine(section: ArmComparison): string | undefined {
  const g = section.geomean;
  if (!g) return undefined;
  const left = g.excluded ? ` (${g.excluded} case${g.excluded === 1 ? '' : 's'} with different work left out)` : '';
  return `${pc.bold('geomean')} over ${g.cases} cases${left}: ${ratioWithCi(g.ratio, g.ci)}, ${formatChange(g.ratio)} time`;
}

export function renderComparisonTable(report: ComparisonReport): string {
  const out: string[] = [];
  const baseline = report.sections[0]?.baseline;
  if (report.kind === 'paired' && report.sections.length > 1 && baseline) {
    out.push(pc.dim(`${report.sections.length} candidates, each compared with the first arm, ${baseline.label} (the baseline)`));
  }
  for (const section of report.sections) {
    out.push(`${pc.bold(report.suite)}: ${pc.bold(section.candidate.label)} vs ${section.baseline.label} (baseline)`);
    for (const arm of [section.baseline, section.candidate]) {
      out.push(pc.dim(`  ${arm.label}: ${armVersion(arm)}; flags ${armFlags(arm)}; sha256 ${shortHash(arm.binarySha256)}`));
    }
    out.push(sectionTable(section, report));
    const g = geomeanLine(section);
    if (g) out.push(g);
    for (const row of section.cases) {
      if (row.digests) {
        out.push(pc.red(`✗ different work on "${row.caseId}": ${section.baseline.label} ${row.digests.baseline}, ${section.candidate.label} ${row.digests.candidate}; the ratio compares different computations`));
      }
    }
    out.push('');
  }
  for (const note of report.notes) out.push(pc.yellow(`! ${note}`));
  out.push(pc.dim(designLine(report)));
  out.push(pc.dim(legend(report)));
  return out.join('\n');
}
