/** A comparison as markdown, ready to paste into a pull request or an issue. */
import type { ComparisonReport } from './compare-model.ts';
import { armFlags, armVersion, comparisonCells, designLine, formatChange, legend, ratioWithCi, shortHash } from './compare-cells.ts';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Quote an argument the way a user would type it again. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

const emphasis: Record<string, string> = { faster: '**faster**', slower: '**slower**', equivalent: 'equivalent', inconclusive: '_inconclusive_' };

export function renderComparisonMarkdown(report: ComparisonReport): string {
  const lines: string[] = [];
  const candidates = report.sections.map((s) => `\`${s.candidate.label}\``).join(', ');
  const baseline = report.sections[0]?.baseline;
  lines.push(`### rtbench compare: ${report.suite} — ${candidates} vs \`${baseline?.label ?? '?'}\``);
  lines.push('');

  lines.push('| arm | runtime | flags / env | binary sha256 |');
  lines.push('|---|---|---|---|');
  const seen = new Set<string>();
  for (const s of report.sections) {
    for (const [role, arm] of [['baseline', s.baseline], ['candidate', s.candidate]] as const) {
      if (seen.has(arm.label)) continue;
      seen.add(arm.label);
      lines.push(`| ${role} \`${cell(arm.label)}\` | ${cell(armVersion(arm))} | ${arm.flags.length || Object.keys(arm.env).length ? `\`${cell(armFlags(arm))}\`` : '—'} | \`${shortHash(arm.binarySha256)}\` |`);
    }
  }

  for (const section of report.sections) {
    lines.push('');
    if (report.sections.length > 1) lines.push(`#### \`${cell(section.candidate.label)}\` vs \`${cell(section.baseline.label)}\``, '');
    lines.push(`| case | \`${cell(section.baseline.label)}\` | \`${cell(section.candidate.label)}\` | ratio (95% CI) | verdict | q |`);
    lines.push('|---|--:|--:|--:|---|--:|');
    for (const row of section.cases) {
      const t = comparisonCells(row, report);
      const verdict = row.comparison ? `${emphasis[t.verdict] ?? t.verdict} ${t.detail}` : cell(t.detail || '—');
      const work = row.digests ? ' ⚠️ different work' : '';
      lines.push(`| ${cell(row.caseId)} | ${t.baseline} | ${t.candidate} | ${t.ratio} | ${cell(verdict)}${work} | ${t.q} |`);
    }
    const g = section.geomean;
    if (g) {
      const left = g.excluded ? ` (${g.excluded} with different work left out)` : '';
      lines.push('');
      lines.push(`**Geometric mean** over ${g.cases} cases${left}: ${ratioWithCi(g.ratio, g.ci)}, ${formatChange(g.ratio)} time.`);
    }
    for (const row of section.cases) {
      if (row.digests) {
        lines.push('');
        lines.push(`> ⚠️ **Different work** on \`${cell(row.caseId)}\`: \`${cell(section.baseline.label)}\` digest \`${row.digests.baseline}\`, \`${cell(section.candidate.label)}\` \`${row.digests.candidate}\`. The ratio compares different computations.`);
      }
    }
  }
  if (report.notes.length) {
    lines.push('');
    for (const note of report.notes) lines.push(`> ${cell(note)}`);
  }
  lines.push('');
  const host = report.runs.map((r) => `${r.cpu}, ${r.cores} cores, load ${r.loadavg.map((l) => l.toFixed(2)).join(' ')}`);
  const command = report.runs.map((r) => `\`rtbench ${cell(r.command.map(shellQuote).join(' '))}\``).join(' and ');
  lines.push(`<sub>${cell(designLine(report))} ${cell(legend(report))} Host: ${cell([...new Set(host)].join('; '))}. Command: ${command}.</sub>`);
  return `${lines.join('\n')}\n`;
}
