/** Markdown for pasting a run or a comparison into a pull request or an issue. */
import { markdownCompany } from './company.ts';
import { loadMarkdown } from './load.ts';
import { cpuPerRequestMarkdown } from './cpu-per-request.ts';
import { renderClaimsMarkdown } from './claims-markdown.ts';
import { armFlags, shortHash } from '../views/arms.ts';
import { differentWorkText } from '../views/different-work.ts';
import type { BenchView, ComparisonView } from '../views/types.ts';
import { formatThreshold, NO_RATE_REASON } from '../format.ts';
import { firstLine, markdownCell as cell, markdownCode as code, shellQuote } from '../text.ts';
import { belowClock, CASE_COLUMN, tableColumns, VARIANT_COLUMN } from '../columns/results.ts';
import { COMPARISON_CASE_COLUMN, COMPARISON_COLUMNS, type ComparisonColumn } from '../columns/comparison.ts';
import { bestRows, benchFacts, benchResultRow, benchGeomeanLine, geomeanLeftOut, geomeanText, benchLegend, roundsGotLine, comparisonCells, designLine, formatChange, hostLines, howMeasured, legend, ratioWithCi, WHERE_HEADING, whereText } from '../cells/run.ts';
import { renderHistoryMarkdown } from './history.ts';
import { byKind, type Reporter } from './reporter.ts';
import { markdownMetrics } from './metrics.ts';
import { markdownProfileBlock, renderProfileSection } from './profiles.ts';
import { WITHOUT_WORK_KEY, WITHOUT_WORK_MARK } from '../views/without-work.ts';
import { releasesMarkdown } from './releases.ts';
import { bisectMarkdown } from './bisect.ts';

function commandLine(command: readonly string[]): string {
  return code(`rtbench ${command.map(shellQuote).join(' ')}`);
}

function renderBenchMarkdown(view: BenchView): string {
  const { run } = view;
  const lines: string[] = [`### rtbench: ${cell(view.suite)}`, ''];
  const variants = view.variants.map((v) => (v.unavailable ? `${code(v.id)} (did not run: ${cell(v.unavailable)})` : `${code(v.id)} ${cell(v.versionText)}`));
  // The rounds the rows got, as the terminal's line over the table says them; the plan's alone when nothing was measured.
  const adaptive = run.options.adaptive;
  const planned = adaptive ? `${adaptive.minRounds}–${adaptive.maxRounds} rounds (adaptive, target ±${formatThreshold(adaptive.target)})` : `${run.options.rounds} rounds`;
  const got = roundsGotLine(view);
  const how = cell(howMeasured(run.options));
  const rounds = got ? `${cell(got.replace(/^rounds: /, 'Rounds: '))}. ${how.charAt(0).toUpperCase()}${how.slice(1)}` : `${planned}: ${how}`;
  lines.push(`Runtimes: ${variants.join(', ')}. ${rounds}. ${cell(hostLines(view).join('; '))}.`);
  lines.push('');
  const facts = benchFacts(view);
  const figures = tableColumns(facts);
  const tableRow = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  lines.push(tableRow([CASE_COLUMN.head(), VARIANT_COLUMN.head(facts), ...figures.map((f) => cell(f.head(facts)))]));
  lines.push(`|${['---', '---', ...figures.map((f) => (f.align === 'right' ? '--:' : '---'))].join('|')}|`);
  const remarks: string[] = [];
  let below = false;
  for (const bc of view.cases) {
    const best = bestRows(bc);
    bc.rows.forEach((row, i) => {
      const r = benchResultRow(row, bc.digestMismatch !== undefined);
      below ||= belowClock(r);
      // The headline figure in bold on the case's best rows.
      const text = (f: (typeof figures)[number]): string => ('emphasis' in f && f.emphasis === 'headline' && best.has(row.variantId) ? `**${f.text(r)}**` : f.text(r));
      const caseCell = i === 0 ? cell(bc.label) : '';
      // A row without figures says why in the first figure column.
      if (!row.stats) lines.push(tableRow([caseCell, cell(row.variantId), cell(row.note ?? '—')]) + ' |'.repeat(figures.length - 1));
      else lines.push(tableRow([caseCell, cell(row.variantId), ...figures.map(text)]));
      for (const extra of [row.modes, row.skew, row.byCollection, row.opposite]) if (extra) remarks.push(`${row.variantId} · ${bc.label}: ${extra}`);
      if (row.withoutWork) remarks.push(`${WITHOUT_WORK_MARK} ${row.variantId} · ${bc.label}: ${row.withoutWork}`);
    });
  }
  if (view.cases.some((bc) => bc.rows.some((r) => r.withoutWork))) remarks.push(`${WITHOUT_WORK_MARK}: ${WITHOUT_WORK_KEY}`);
  const geomean = benchGeomeanLine(view);
  if (geomean) lines.push('', `**${cell(geomean)}**`);
  if (below) remarks.push(`ops/s ${NO_RATE_REASON}`);
  if (remarks.length) lines.push('', ...remarks.map((r) => `> ${cell(r)}`));
  if (view.cpuPerRequest) lines.push(...cpuPerRequestMarkdown(view.cpuPerRequest));
  if (view.load) lines.push(...loadMarkdown(view.load));
  for (const bc of view.cases) {
    if (bc.digestMismatch) {
      lines.push('', `> ⚠️ **Different work** on ${code(bc.label)}: ${Object.entries(bc.digestMismatch).map(([v, h]) => `${cell(v)} ${code(h)}`).join(', ')}`);
    }
  }
  const errors = view.notes.filter((n) => n.level !== 'info' && !n.text.startsWith('different work'));
  if (errors.length) lines.push('', ...errors.map((n) => `> ${n.level === 'error' ? '✗' : '!'} ${cell(firstLine(n.text, 300))}`));
  const git = run.git ? ` rtbench ${run.git.commit.slice(0, 12)}${run.git.dirty ? ' (with uncommitted changes)' : ''}.` : '';
  const bold = 'Bold: the best median of each case (lowest; highest for a rate), not by itself a verdict — the vs column says whether the difference is decided.';
  lines.push('', `<sub>${[...benchLegend(view), bold].map(cell).join(' ')} Run ${cell(run.id)}, status ${run.status}.${git} Command: ${commandLine(run.command)}.</sub>`);
  return `${lines.join('\n')}\n`;
}

/** How a verdict's word is set, by its kind: decided in bold, undecided in italics. */
const emphasis: Record<string, (word: string) => string> = { faster: (w) => `**${w}**`, slower: (w) => `**${w}**`, inconclusive: (w) => `_${w}_` };

export function renderComparisonMarkdown(view: ComparisonView): string {
  const lines: string[] = [];
  const candidates = view.sections.map((s) => code(s.candidate.label)).join(', ');
  const baseline = view.sections[0]?.baseline;
  lines.push(`### rtbench compare: ${cell(view.suite)} — ${candidates} vs ${code(baseline?.label ?? '?')}`, '');
  lines.push('| arm | runtime | flags / env | binary sha256 |', '|---|---|---|---|');
  const seen = new Set<string>();
  for (const s of view.sections) {
    for (const [role, arm] of [['baseline', s.baseline], ['candidate', s.candidate]] as const) {
      if (seen.has(arm.label)) continue;
      seen.add(arm.label);
      const flags = arm.flags.length || Object.keys(arm.env).length ? `${code(armFlags(arm))}` : '—';
      const commit = arm.binaryCommit ? ` (built from ${code(arm.binaryCommit)})` : '';
      lines.push(`| ${role} ${code(arm.label)} | ${cell(arm.versionText)} | ${flags} | ${code(shortHash(arm.binarySha256))}${commit} |`);
    }
  }
  for (const section of view.sections) {
    lines.push('');
    if (view.sections.length > 1) lines.push(`#### ${code(section.candidate.label)} vs ${code(section.baseline.label)}`, '');
    const heads = { baseline: code(section.baseline.label), candidate: code(section.candidate.label) };
    lines.push(`| ${[COMPARISON_CASE_COLUMN.head, ...COMPARISON_COLUMNS.map((col) => col.head(heads))].join(' | ')} |`);
    lines.push(`|${['---', ...COMPARISON_COLUMNS.map((col) => (col.align === 'right' ? '--:' : '---'))].join('|')}|`);
    for (const row of section.cases) {
      const t = comparisonCells(row, view);
      // The verdict's word set apart by its kind; a case not compared says why.
      const verdict = row.comparison ? `${emphasis[t.verdict]?.(t.word) ?? t.word} ${t.detail}` : t.detail || '—';
      const work = row.digests ? ' ⚠️ different work' : '';
      const text = (col: ComparisonColumn): string => (col.verdict ? `${cell(verdict)}${work}` : col.text(t));
      lines.push(`| ${[cell(row.label), ...COMPARISON_COLUMNS.map(text)].join(' | ')} |`);
    }
    const g = section.geomean;
    if (g) {
      lines.push('', `**Geometric mean** over ${g.cases} cases${geomeanLeftOut(g)}: ${geomeanText(g, view.threshold, section.cases.find((r) => r.metric)?.metric, 'comparison')}.`);
    }
    for (const row of section.cases) {
      if (row.digests) {
        lines.push('', `> ⚠️ **Different work** on ${code(row.label)}: ${code(differentWorkText({ [section.baseline.label]: row.digests.baseline, [section.candidate.label]: row.digests.candidate }, row.digests.where))}. The ratio compares different computations.`);
      }
    }
    for (const row of section.cases) {
      for (const [arm, text] of [[section.baseline, row.withoutWork?.baseline], [section.candidate, row.withoutWork?.candidate]] as const) {
        if (text) lines.push('', `> ${WITHOUT_WORK_MARK} ${code(arm.label)} · ${code(row.label)}: without work: ${cell(text)}`);
      }
    }
    const moved = section.cases.filter((row) => row.where);
    if (moved.length) lines.push('', `${cell(WHERE_HEADING)}:`, '', ...moved.map((row) => `- ${code(row.label)}: ${whereText(row.where!, code)}`));
  }
  if (view.cpuPerRequest) lines.push(...cpuPerRequestMarkdown(view.cpuPerRequest));
  if (view.load) lines.push(...loadMarkdown(view.load));
  if (view.notes.length) lines.push('', ...view.notes.map((n) => `> ${cell(n)}`));
  const command = view.runs.map((r) => commandLine(r.run.command)).join(' and ');
  lines.push('', `<sub>${cell(designLine(view))} ${cell(legend(view))} Host: ${cell(hostLines(view).join('; '))}. Command: ${command}.</sub>`);
  return `${lines.join('\n')}\n`;
}

export const markdownReporter: Reporter = {
  format: 'markdown',
  description: 'a table for a pull request or an issue (alias: md)',
  extension: 'md',
  windowed: true,
  render: byKind({ bench: renderBenchMarkdown, comparison: renderComparisonMarkdown, history: renderHistoryMarkdown, claims: renderClaimsMarkdown, releases: releasesMarkdown, bisect: bisectMarkdown }),
  sections: { metrics: markdownMetrics, company: markdownCompany, profiles: (section) => renderProfileSection(section, markdownProfileBlock) },
};
