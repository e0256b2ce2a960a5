/**
 * A bisect's answer in words, as a bug report needs it: the release where the
 * case changed, by how much (the confirming comparison's ratio and interval),
 * the engine on each side, then every step with its verdict, the releases'
 * figures, and a key. As text for a terminal, markdown for an issue, or JSON
 * under its schema: each format's renderer of the `bisect` kind of view.
 * Every interval on the screen is at the bisect's one level, which the key
 * says once (docs/reading-the-table.md: one level a screen).
 */
import { TIME_PER_OP } from '@rtbench/core/metric';
import type { Culprit, StepRecord, UnresolvedRange } from '@rtbench/verdicts';
import type { Comparison } from '@rtbench/stats';
import pc from 'picocolors';
import { formatChange, formatMetric, formatMetricRange, formatPercent, formatThreshold, ratioWithCi } from '../format.ts';
import { markdownCell, oneLine } from '../text.ts';
import { changeWord, verdictWord, verdictWords } from '../verdict-words.ts';
import { pointInterval, sparkline } from '../cells/history.ts';
import { runFileName, runLabel } from '../views/history.ts';
import type { BisectView, HistoryView } from '../views/types.ts';
import { fitLine, renderGrid, type GridColumn } from './grid.ts';
import type { ReporterOptions } from './reporter.ts';

/** What a step's line needs of its bisect. */
type StepFacts = Pick<BisectView, 'runtime' | 'unit'>;

/**
 * "−5.2%, ratio 0.948 [0.931–0.965]"; a "same" step, decided by a test within
 * its band, names the band and no interval: its test's interval is at another
 * level than the screen's.
 */
function pct(c: Comparison): string {
  if (c.verdict === 'equivalent') return `${formatChange(c.ratio)}, within ±${+(c.threshold * 100).toFixed(1)}%`;
  return `${formatChange(c.ratio)}, ratio ${ratioWithCi(c.ratio, c.ci)}`;
}

function engineText(view: BisectView, tag: string): string {
  const t = view.engines[`${view.runtime}@${tag}`];
  if (!t) return 'engine unknown';
  return `${view.runtime} ${t.version}, ${view.engineNames[t.engine] ?? t.engine} ${t.engineVersion}`;
}

function culpritLines(c: Culprit, view: BisectView): string[] {
  const { runtime } = view;
  const mark = c.confirmed ? '' : ' (NOT confirmed by the direct comparison)';
  const [older, newer] = [view.engines[`${runtime}@${c.older}`], view.engines[`${runtime}@${c.newer}`]];
  const engineRoll = older && newer && older.engineVersion !== newer.engineVersion ? `engine ${older.engineVersion} → ${newer.engineVersion}` : 'same engine version on both sides';
  return [
    `${changeWord(c.direction, view)} in ${runtime}@${c.newer} (after ${runtime}@${c.older})${mark}: ${pct(c.confirmation)}`,
    `  ${runtime}@${c.older}: ${engineText(view, c.older)}`,
    `  ${runtime}@${c.newer}: ${engineText(view, c.newer)}  (${engineRoll})`,
    ...(c.skippedBetween.length ? [`  between them, could not run: ${c.skippedBetween.map((t) => `${runtime}@${t}`).join(', ')}`] : []),
    `  found by: ${ratioWithCi(c.found.ratio, c.found.ci)} (${c.found.n} rounds); confirmed by a fresh direct comparison: ${c.confirmation.verdict}, ${c.confirmation.n} rounds`,
  ];
}

/** Why a part of the range that differs names no release. */
const UNRESOLVED_WHY: Record<UnresolvedRange['why'], string> = {
  spread: 'a drift: each half reads within the threshold, so no single release made it',
  undecided: 'undecided within the most rounds allowed',
  smaller: 'a smaller change met on the way, not searched (--all-changes follows every change)',
};

/** The answer: no change, undecided, or each change with its release, its size and the engines on both sides. */
export function answerLines(view: BisectView): string[] {
  const { result, runtime } = view;
  const lines: string[] = [];
  const range = `${runtime}@${result.first}..${runtime}@${result.last}`;
  const { outcome } = result;
  const t = `${+(view.threshold * 100).toFixed(2)}%`;
  if (outcome.kind === 'no-change') lines.push(`no change beyond ±${t} between ${range}: ${pct(outcome.ends)} (equivalent); nothing to search`);
  else if (outcome.kind === 'undecided') lines.push(`could not tell whether ${range} differ beyond ±${t} within the most rounds allowed: ${pct(outcome.ends)}`);
  else {
    lines.push(`${range}: ${pct(outcome.ends)} over the range`);
    if (!outcome.culprits.length && !outcome.unresolved.length) lines.push('no single release could be named');
    for (const c of outcome.culprits) lines.push(...culpritLines(c, view));
    for (const u of outcome.unresolved) lines.push(`${runtime}@${u.older}..${runtime}@${u.newer}: ${pct(u.comparison)}: ${UNRESOLVED_WHY[u.why]}`);
  }
  for (const s of result.skipped) lines.push(`skipped ${runtime}@${s.release}: ${oneLine(s.reason)}`);
  return lines;
}

/** One line per compared pair: what was asked, the verdict, the rounds pooled (also the bisect's progress line). */
export function bisectStepLine(s: StepRecord, facts: StepFacts): string {
  const c = s.comparison;
  const repeats = s.attempts > 1 ? `, ${s.attempts} measurements` : '';
  return `${s.purpose.padEnd(7)} ${facts.runtime}@${s.older} → ${facts.runtime}@${s.newer}: ${verdictWord(c.verdict, facts)} ${pct(c)} (${s.rounds} rounds${repeats})`;
}

/** The releases measured, oldest first: each one's figure and its interval at the bisect's level, and the run it is from. */
interface ReleaseRow {
  release: string;
  figure: string;
  interval: string;
  run: string;
}

function releaseRows(view: BisectView, series: HistoryView): ReleaseRow[] {
  return series.cases.flatMap((hc) => {
    const metric = hc.metric ?? TIME_PER_OP;
    return hc.series.flatMap((s) =>
      s.points.flatMap((p) => {
        if (p.median === undefined) return [];
        const run = series.runs[p.run]!;
        const ci = pointInterval(p, view.confidence);
        return [{ release: runLabel(run), figure: formatMetric(p.median, metric), interval: ci ? `[${formatMetricRange(ci[0], ci[1], metric)}]` : '', run: runFileName(run) ?? '' }];
      }),
    );
  });
}

/**
 * The key, said once under the answer, the steps and the releases: the one
 * level of every interval on the screen, how a step's word is read, and what
 * a release's figure is.
 */
export function bisectKey(view: BisectView): string[] {
  const words = verdictWords(view);
  const t = formatThreshold(view.threshold);
  const tost = formatPercent((1 - view.sameConfidence) / 2, 0);
  return [
    `${+(view.confidence * 100).toFixed(2)}% intervals: every interval here. A ratio is the newer release's ${words.quantity} over the older's, paired round by round.`,
    `${words.better}/${words.worse}: its interval excludes 1 and the change exceeds ${t}; equivalent: a two one-sided test at ${tost} puts the change within the band shown ` +
      `(its interval is not shown); a release's figure: the median of its process medians in the step run that measured it with the most rounds.`,
  ];
}

export function bisectTerminal(view: BisectView, options: ReporterOptions): string {
  const c = pc.createColors(options.color ?? true);
  const columns = options.columns ?? 100;
  const fit = (line: string): string[] => fitLine(line, columns);
  const out = [c.bold('answer'), ...answerLines(view).flatMap(fit), '', c.bold('steps'), ...view.result.steps.flatMap((s) => fit(bisectStepLine(s, view))), ''];
  const rows = view.series ? releaseRows(view, view.series) : [];
  if (rows.length) {
    const grid: GridColumn[] = [
      { head: 'release', align: 'left' },
      { head: 'figure', align: 'right' },
      { head: 'interval', align: 'left' },
      { head: 'run', align: 'left', wrap: true },
    ];
    out.push(c.bold('releases'), ...renderGrid(grid, rows.map((r) => ({ cells: [r.release, r.figure, r.interval, r.run] })), { maxWidth: columns - 2, bold: c.bold, dim: c.dim }).map((l) => `  ${l}`));
    if (rows.length >= 3) out.push(`  ${sparkline(view.series!.cases.flatMap((hc) => hc.series.flatMap((s) => s.points.map((p) => p.median))))}`);
    out.push('');
  }
  out.push(...bisectKey(view).flatMap((l) => fit(l).map((x) => c.dim(x))));
  return `${out.join('\n')}\n`;
}

export function bisectMarkdown(view: BisectView): string {
  const { result, runtime } = view;
  const out = [`### rtbench bisect: ${markdownCell(`${runtime}@${result.first}..${runtime}@${result.last}`)}, ${markdownCell(`${view.suite} / ${view.caseId}`)}`, ''];
  out.push(...answerLines(view).map((l) => (l.startsWith('  ') ? `  - ${markdownCell(l.trim())}` : `- ${markdownCell(l)}`)));
  out.push('', '#### Steps', '', ...result.steps.map((s) => `- ${markdownCell(bisectStepLine(s, view))}`));
  const rows = view.series ? releaseRows(view, view.series) : [];
  if (rows.length) {
    out.push('', '#### Releases', '', '| release | figure | interval | run |', '|---|---:|---|---|');
    for (const r of rows) out.push(`| ${[r.release, r.figure, r.interval, r.run].map(markdownCell).join(' | ')} |`);
  }
  out.push('', ...bisectKey(view).map((l) => `<sub>${markdownCell(l)}</sub>`).join('<br>\n').split('\n'));
  return `${out.join('\n')}\n`;
}

/** The answer as JSON, indented, under its schema's name: what the search found, its parameters and the engines; the series as the history's view. */
export function bisectJson(view: BisectView): string {
  const { runtime, suite, caseId, measure, threshold, confidence, sameConfidence, folder, engines, result, series } = view;
  return `${JSON.stringify({ schema: 'rtbench.bisect-result', runtime, suite, caseId, measure, threshold, confidence, sameConfidence, folder, engines, result, series }, null, 1)}\n`;
}
