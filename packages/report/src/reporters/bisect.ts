/**
 * A bisect's answer in words, as a bug report needs it: the release where the
 * case changed, by how much (the confirming comparison's ratio and interval),
 * the engine on each side, then every step with its verdict, and the releases
 * as a series. As text for a terminal, markdown for an issue, or JSON under
 * its schema: each format's renderer of the `bisect` kind of view.
 */
import type { Culprit, StepRecord, UnresolvedRange } from '@rtbench/verdicts';
import type { Comparison } from '@rtbench/stats';
import pc from 'picocolors';
import { formatChange, ratioWithCi } from '../format.ts';
import { markdownCell, oneLine } from '../text.ts';
import { changeWord, verdictWord } from '../verdict-words.ts';
import type { BisectView } from '../views/types.ts';
import { fitLine } from './grid.ts';
import { renderHistoryMarkdown, renderHistoryTerminal } from './history.ts';
import type { ReporterOptions } from './reporter.ts';

/** What a step's line needs of its bisect. */
type StepFacts = Pick<BisectView, 'runtime' | 'unit'>;

/** "−5.2%, ratio 0.948 [0.931–0.965] at 99%"; a "same" step names the band its interval lies in. */
function pct(c: Comparison): string {
  const band = c.verdict === 'equivalent' ? `, within ±${+(c.threshold * 100).toFixed(1)}%` : '';
  return `${formatChange(c.ratio)}, ratio ${ratioWithCi(c.ratio, c.ci)} at ${+(c.confidence * 100).toFixed(1)}%${band}`;
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

export function bisectTerminal(view: BisectView, options: ReporterOptions): string {
  const bold = pc.createColors(options.color ?? true).bold;
  const fit = (line: string): string[] => fitLine(line, options.columns ?? 100);
  const out = [bold('answer'), ...answerLines(view).flatMap(fit), '', bold('steps'), ...view.result.steps.flatMap((s) => fit(bisectStepLine(s, view))), ''];
  if (view.series) out.push(renderHistoryTerminal(view.series, options));
  return `${out.join('\n')}\n`;
}

export function bisectMarkdown(view: BisectView): string {
  const { result, runtime } = view;
  const out = [`### rtbench bisect: ${markdownCell(`${runtime}@${result.first}..${runtime}@${result.last}`)}, ${markdownCell(`${view.suite} / ${view.caseId}`)}`, ''];
  out.push(...answerLines(view).map((l) => (l.startsWith('  ') ? `  - ${markdownCell(l.trim())}` : `- ${markdownCell(l)}`)));
  out.push('', '#### Steps', '', ...result.steps.map((s) => `- ${markdownCell(bisectStepLine(s, view))}`));
  if (view.series) out.push('', renderHistoryMarkdown(view.series).trimEnd());
  return `${out.join('\n')}\n`;
}

/** The answer as JSON, indented, under its schema's name: what the search found, its parameters and the engines; the series as the history's view. */
export function bisectJson(view: BisectView): string {
  const { runtime, suite, caseId, measure, threshold, confidence, sameConfidence, folder, engines, result, series } = view;
  return `${JSON.stringify({ schema: 'rtbench.bisect-result', runtime, suite, caseId, measure, threshold, confidence, sameConfidence, folder, engines, result, series }, null, 1)}\n`;
}
