/**
 * The words of a release matrix, shared by its reporters and its page: a
 * track's last step, a change point, a claim that changed its word between
 * releases, the method and what is left to measure.
 */
import { counted } from '../text.ts';
import { claimFlipText } from './claims.ts';
import type { ReleaseMatrixView } from '../views/releases.ts';
import { formatChange, formatThreshold, ratioWithCi } from '../format.ts';
import type { ChangePoint, StepVerdict, TrackAnalysis } from '@rtbench/verdicts';


function engineChange(t: TrackAnalysis, older: string, newer: string): string {
  const a = t.engines[older]?.engine;
  const b = t.engines[newer]?.engine;
  if (!a && !b) return '';
  return a === b ? `${a}` : `${a ?? '?'} → ${b ?? '?'}`;
}

/** "26.0.0 → 26.1.0: 2 cases slower, 0 faster, 14 within the threshold or undecided". */
export function lastStepLine(t: TrackAnalysis): string {
  const releases = t.track.releases;
  if (releases.length < 2) return `${t.track.key}: one release, no step`;
  const older = releases.at(-2)!;
  const newer = releases.at(-1)!;
  const steps = t.cases.map((c) => c.steps.at(-1)).filter((s): s is StepVerdict => s !== undefined);
  const slower = steps.filter((s) => s.comparison.verdict === 'slower').length;
  const faster = steps.filter((s) => s.comparison.verdict === 'faster').length;
  const engines = engineChange(t, older, newer);
  const rest = t.cases.length - slower - faster;
  return `${t.track.key}: ${older} → ${newer}${engines ? ` (${engines})` : ''}: ${counted(slower, 'case')} slower, ${faster} faster${rest ? `, ${rest} not beyond the threshold or undecided` : ''}${steps.length < t.cases.length ? ` (${t.cases.length - steps.length} not measured yet)` : ''}`;
}

export function changeText(c: ChangePoint): string {
  const engines = c.engines.older?.engine || c.engines.newer?.engine ? ` (${c.engines.older?.engine ?? '?'} → ${c.engines.newer?.engine ?? '?'})` : '';
  return `${c.older} → ${c.newer}${engines}: ${c.direction} ${formatChange(c.comparison.ratio)}, ratio ${ratioWithCi(c.comparison.ratio, c.comparison.ci)}, q ${c.comparison.qValue < 0.001 ? '<0.001' : c.comparison.qValue.toFixed(3)}${c.skipped.length ? `; ${counted(c.skipped.length, 'release')} between not measured (--every)` : ''}`;
}

/** The claims that changed their word between two releases of a track, with the track; undefined when no track shows claims. */
export function claimFlips(view: ReleaseMatrixView): { track: string; text: string; bisect: string[] }[] | undefined {
  const shown = view.tracks.filter((t) => t.claims);
  return shown.length ? shown.flatMap((t) => t.claims!.flips.map((f) => ({ track: t.track.key, text: claimFlipText(f), bisect: f.bisect }))) : undefined;
}

/** "3 checks on 2 releases" of the tracks that show claims: what a report with no flip says it looked at. */
export function claimsCheckedLine(view: ReleaseMatrixView): string {
  const shown = view.tracks.flatMap((t) => (t.claims ? [t.claims] : []));
  return `${counted(shown.reduce((n, m) => n + m.rows.length, 0), 'check')} on ${counted(shown.reduce((n, m) => n + m.columns.length, 0), 'release')} kept their word or stayed undecided`;
}

export function methodLine(view: ReleaseMatrixView): string {
  return `Each step is a paired comparison of adjacent releases measured in the same sets of processes (the set is the unit); ${view.comparisons} steps × cases read together at ${formatThreshold(view.confidence)} (Benjamini–Hochberg, 5% false discoveries); a change point is a step whose interval excludes 1 with a change beyond ${formatThreshold(view.threshold)}.`;
}

export function progressLine(view: ReleaseMatrixView): string | undefined {
  const short = view.tracks.filter((t) => t.setsMeasured < t.setsWanted);
  return short.length ? `Not finished: ${short.map((t) => `${t.track.key} ${t.setsMeasured} of ${t.setsWanted} sets`).join('; ')}; run the same command again to continue.` : undefined;
}

