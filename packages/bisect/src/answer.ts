/**
 * A bisect's answer in text, as a bug report needs it: the release where the
 * case changed, by how much (the confirming comparison's ratio and interval),
 * the engine on each side, then every step with its verdict. Pure string
 * building over the search's result and the releases' version reports.
 */
import type { BisectResult, Culprit, StepRecord, UnresolvedRange } from './types.ts';
import type { Comparison } from '@rtbench/stats';
import type { Metric } from '@rtbench/core/schema';
import { changeWord, formatChange, oneLine, ratioWithCi, verdictWord } from '@rtbench/report';
import type { RuntimeTarget } from '@rtbench/runtime-kit';
import { engineNamed } from '@rtbench/runtime-registry';

export type EngineOf = (tag: string) => RuntimeTarget | undefined;

/** What the bisect measured: its verdicts are said as times ("faster") or counts ("fewer"). */
type BisectUnit = Pick<Metric, 'unit'>;

/** "−5.2%, ratio 0.948 (0.931–0.965) at 99%"; a "same" step names the band its interval lies in. */
function pct(c: Comparison, _confidence?: number): string {
  const band = c.verdict === 'equivalent' ? `, within ±${+(c.threshold * 100).toFixed(1)}%` : '';
  return `${formatChange(c.ratio)}, ratio ${ratioWithCi(c.ratio, c.ci)} at ${+(c.confidence * 100).toFixed(1)}%${band}`;
}

function engineText(t: RuntimeTarget | undefined): string {
  if (!t) return 'engine unknown';
  return `${t.runtime} ${t.version}, ${engineNamed(t.engine)?.displayName ?? t.engine} ${t.engineVersion}`;
}

function culpritLines(c: Culprit, runtime: string, engineOf: EngineOf, confidence: number, metric: BisectUnit): string[] {
  const mark = c.confirmed ? '' : ' (NOT confirmed by the direct comparison)';
  const older = engineOf(c.older);
  const newer = engineOf(c.newer);
  const engineRoll = older && newer && older.engineVersion !== newer.engineVersion ? `engine ${older.engineVersion} → ${newer.engineVersion}` : 'same engine version on both sides';
  return [
    `${changeWord(c.direction, metric)} in ${runtime}@${c.newer} (after ${runtime}@${c.older})${mark}: ${pct(c.confirmation, confidence)}`,
    `  ${runtime}@${c.older}: ${engineText(older)}`,
    `  ${runtime}@${c.newer}: ${engineText(newer)}  (${engineRoll})`,
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

export function answerLines(result: BisectResult, runtime: string, engineOf: EngineOf, o: { threshold: number; confidence: number; metric: BisectUnit }): string[] {
  const lines: string[] = [];
  const range = `${runtime}@${result.first}..${runtime}@${result.last}`;
  const { outcome } = result;
  const t = `${+(o.threshold * 100).toFixed(2)}%`;
  if (outcome.kind === 'no-change') lines.push(`no change beyond ±${t} between ${range}: ${pct(outcome.ends, o.confidence)} (equivalent); nothing to search`);
  else if (outcome.kind === 'undecided') lines.push(`could not tell whether ${range} differ beyond ±${t} within the most rounds allowed: ${pct(outcome.ends, o.confidence)}`);
  else {
    lines.push(`${range}: ${pct(outcome.ends, o.confidence)} over the range`);
    if (!outcome.culprits.length && !outcome.unresolved.length) lines.push('no single release could be named');
    for (const c of outcome.culprits) lines.push(...culpritLines(c, runtime, engineOf, o.confidence, o.metric));
    for (const u of outcome.unresolved) {
      const why = UNRESOLVED_WHY[u.why];
      lines.push(`${runtime}@${u.older}..${runtime}@${u.newer}: ${pct(u.comparison, o.confidence)}: ${why}`);
    }
  }
  for (const s of result.skipped) lines.push(`skipped ${runtime}@${s.release}: ${oneLine(s.reason)}`);
  return lines;
}

/** One line per compared pair: what was asked, the verdict, the rounds pooled. */
export function stepLine(s: StepRecord, runtime: string, confidence: number, metric: BisectUnit): string {
  const c = s.comparison;
  const repeats = s.attempts > 1 ? `, ${s.attempts} measurements` : '';
  return `${s.purpose.padEnd(7)} ${runtime}@${s.older} → ${runtime}@${s.newer}: ${verdictWord(c.verdict, metric)} ${pct(c, confidence)} (${s.rounds} rounds${repeats})`;
}
