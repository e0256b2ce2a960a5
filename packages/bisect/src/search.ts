/**
 * The search of a bisect over an ordered list of releases, as pure logic over
 * a measurement function (the CLI's runs lockstep comparisons; the tests' is a
 * fake whose change points are known). The ends are compared; a range that
 * differs is split at its middle and both halves are compared. By default the
 * half with the larger change is followed and a change in the other half is
 * named as a smaller one met on the way (the question the ends pose is where
 * most of their change happened); `follow: 'all'` searches every half that
 * differs, so each change is followed to its step. Adjacent releases are a
 * culprit, confirmed by a fresh comparison. Releases that cannot run are skipped. Each comparison
 * is adaptive (decide.ts). The steps, the decision rule and its error rates:
 * docs/bisect.md.
 */
import type { Comparison } from '@rtbench/stats';
import { pairedDecide, unitTest } from './decide.ts';
import type { BisectOptions, BisectResult, Culprit, Measure, StepPurpose, StepRecord, UnresolvedRange } from './types.ts';

/** A half of a split may be called the same within a third of the change being split (decide.ts). */
const SAME_BAND_SHARE = 1 / 3;

/** A release that cannot run, found while measuring: the search goes around it. */
class CannotRun {
  constructor(
    readonly release: number,
    readonly reason: string,
  ) {}
}

function differs(c: Comparison): c is Comparison & { verdict: 'faster' | 'slower' } {
  return c.verdict === 'faster' || c.verdict === 'slower';
}

/** A search under way: what it compares with, the steps taken, the releases that cannot run, and the steps it still expects. */
interface Search {
  releases: readonly string[];
  measure: Measure;
  options: BisectOptions;
  decide: NonNullable<BisectOptions['decide']>;
  steps: StepRecord[];
  cannot: Map<number, string>;
  stepsLeft: number;
}

/** Comparisons a range of `n` releases that holds one change still takes: two per halving, and the confirmation. */
const searchOf = (n: number): number => 2 * Math.ceil(Math.log2(Math.max(1, n - 1))) + 1;

const usable = (s: Search, i: number): boolean => !s.cannot.has(i);

export async function bisect(releases: readonly string[], measure: Measure, options: BisectOptions): Promise<BisectResult> {
  if (releases.length < 2) throw new RangeError(`a bisect needs at least two releases, got ${releases.length}`);
  if (!(options.minRounds >= 1 && options.maxRounds >= options.minRounds)) throw new RangeError('bisect: need 1 <= minRounds <= maxRounds');
  const s: Search = { releases, measure, options, decide: options.decide ?? pairedDecide(unitTest, options), steps: [], cannot: new Map(), stepsLeft: 1 + searchOf(releases.length) };
  // 1. The ends, moved inward past releases that cannot run.
  const { first, last, ends } = await compareEnds(s);
  const skipped = (): { release: string; reason: string }[] => [...s.cannot].sort((a, b) => a[0] - b[0]).map(([i, reason]) => ({ release: releases[i]!, reason }));
  const result = (outcome: BisectResult['outcome']): BisectResult => ({ releases, first: releases[first]!, last: releases[last]!, outcome, steps: s.steps, skipped: skipped() });
  if (!ends) throw new Error(`fewer than two of the releases can run the case: ${skipped().map((x) => `${x.release} (${x.reason})`).join('; ')}`);
  if (ends.verdict === 'equivalent') return result({ kind: 'no-change', ends });
  if (ends.verdict === 'inconclusive' || ends.verdict === 'small') return result({ kind: 'undecided', ends });
  // 2. Split the ranges that differ.
  const culprits: Omit<Culprit, 'confirmation' | 'confirmed'>[] = [];
  const unresolved: UnresolvedRange[] = [];
  await searchChanges(s, first, last, ends, culprits, unresolved);
  // 3. Each culprit confirmed by a fresh direct comparison of its two releases.
  const confirmedCulprits = await confirmCulprits(s, culprits, unresolved);
  unresolved.sort((a, b) => releases.indexOf(a.older) - releases.indexOf(b.older));
  return result({ kind: 'changes', ends, culprits: confirmedCulprits, unresolved });
}

/** Compares two releases adaptively; throws CannotRun when one of them cannot run. */
async function compare(s: Search, older: number, newer: number, purpose: StepPurpose, sameBand: number): Promise<Comparison> {
  const { releases, options, steps } = s;
  const pooled: number[] = [];
  let attempts = 0;
  let want = options.minRounds;
  for (;;) {
    const outcome = await s.measure({ older, newer, rounds: want - pooled.length, purpose, attempt: attempts });
    attempts++;
    if (outcome.kind === 'cannot-run') throw new CannotRun(outcome.release, outcome.reason);
    pooled.push(...outcome.logRatios.filter(Number.isFinite));
    const comparison = pooled.length ? s.decide(pooled, sameBand) : undefined;
    // A change certain but under the threshold ('small') is measured more until it reads the same or different.
    const settled = comparison !== undefined && comparison.verdict !== 'inconclusive' && comparison.verdict !== 'small';
    if (comparison && (settled || pooled.length >= options.maxRounds || outcome.logRatios.length === 0)) {
      const step: StepRecord = { older: releases[older]!, newer: releases[newer]!, purpose, attempts, rounds: pooled.length, comparison };
      steps.push(step);
      if (purpose === 'ends') s.stepsLeft = differs(comparison) ? searchOf(newer - older + 1) : 0;
      else s.stepsLeft = Math.max(0, s.stepsLeft - 1);
      options.onStep?.(step, { stepsDone: steps.length, stepsLeft: s.stepsLeft });
      return comparison;
    }
    if (!comparison) throw new CannotRun(newer, 'no paired round gave a ratio');
    want = Math.min(options.maxRounds, Math.max(want * 2, pooled.length + 1));
  }
}


/** compare(), going around a release that cannot run: the callback picks the replacement, or gives up (undefined). */
async function compareAvoiding(s: Search, older: number, newer: number, purpose: StepPurpose, sameBand = s.options.threshold): Promise<Comparison | CannotRun> {
  try {
    return await compare(s, older, newer, purpose, sameBand);
  } catch (error) {
    if (!(error instanceof CannotRun)) throw error;
    s.cannot.set(error.release, error.reason);
    return error;
  }
}

/** The ends compared, each moved inward past releases that cannot run; no comparison when fewer than two can. */
async function compareEnds(s: Search): Promise<{ first: number; last: number; ends: Comparison | undefined }> {
  let first = 0;
  let last = s.releases.length - 1;
  let ends: Comparison | undefined;
  while (first < last) {
    const r = await compareAvoiding(s, first, last, 'ends');
    if (!(r instanceof CannotRun)) {
      ends = r;
      break;
    }
    if (r.release === first) first++;
    else if (r.release === last) last--;
    else throw new Error(`the measurer named release ${r.release}, which is not in the pair compared`);
    while (first < last && !usable(s, first)) first++;
    while (last > first && !usable(s, last)) last--;
  }
  return { first, last, ends };
}

/** The usable releases strictly between `lo` and `hi`. */
function inside(s: Search, lo: number, hi: number): number[] {
  const between: number[] = [];
  for (let i = lo + 1; i < hi; i++) if (usable(s, i)) between.push(i);
  return between;
}

/** Splits the ranges that differ until each is a culprit (two neighbours) or left unresolved; the stack holds [older, newer, their comparison]. */
async function searchChanges(s: Search, first: number, last: number, ends: Comparison, culprits: Omit<Culprit, 'confirmation' | 'confirmed'>[], unresolved: UnresolvedRange[]): Promise<void> {
  const { releases } = s;
  const follow = s.options.follow ?? 'largest';
  const open: [number, number, Comparison][] = [[first, last, ends]];
  while (open.length) {
    const [lo, hi, c] = open.pop()!;
    const { halves, mid } = await splitRange(s, lo, hi, c);
    if (!halves) {
      if (inside(s, lo, hi).length === 0 && usable(s, lo) && usable(s, hi) && differs(c)) {
        const skippedBetween: string[] = [];
        for (let i = lo + 1; i < hi; i++) skippedBetween.push(releases[i]!);
        culprits.push({ older: releases[lo]!, newer: releases[hi]!, skippedBetween, direction: c.verdict, found: c });
      } else unresolved.push({ older: releases[lo]!, newer: releases[hi]!, comparison: c, why: 'undecided' });
      continue;
    }
    const [left, right] = halves;
    if (follow === 'largest' && differs(left) && differs(right)) {
      // Both halves changed: follow the larger change, name the other without searching it.
      const leftLarger = Math.abs(Math.log(left.ratio)) >= Math.abs(Math.log(right.ratio));
      open.push(leftLarger ? [lo, mid, left] : [mid, hi, right]);
      const [sLo, sHi, smaller] = leftLarger ? [mid, hi, right] : [lo, mid, left];
      unresolved.push({ older: releases[sLo]!, newer: releases[sHi]!, comparison: smaller, why: 'smaller' });
    } else {
      // Newer half first on the stack's bottom: the older half is searched first, so culprits come out in order.
      if (differs(right)) open.push([mid, hi, right]);
      if (differs(left)) open.push([lo, mid, left]);
    }
    if (!differs(left) && !differs(right)) {
      unresolved.push({ older: releases[lo]!, newer: releases[hi]!, comparison: c, why: left.verdict === 'equivalent' && right.verdict === 'equivalent' ? 'spread' : 'undecided' });
    }
    s.stepsLeft = open.reduce((n, [a, b]) => n + searchOf(b - a + 1), 0) + culprits.length;
  }
}

/** A range's two halves compared at a usable release near its middle (going around ones that cannot run); no halves when none is left or an end stopped running. */
async function splitRange(s: Search, lo: number, hi: number, c: Comparison): Promise<{ halves: [Comparison, Comparison] | undefined; mid: number }> {
  const { options } = s;
  let halves: [Comparison, Comparison] | undefined;
  let mid = -1;
  const band = Math.max(options.threshold, Math.abs(Math.log(c.ratio)) * SAME_BAND_SHARE);
  for (let candidates = inside(s, lo, hi); candidates.length; candidates = inside(s, lo, hi)) {
    const centre = (lo + hi) / 2;
    mid = candidates.reduce((best, i) => (Math.abs(i - centre) < Math.abs(best - centre) ? i : best));
    const left = await compareAvoiding(s, lo, mid, 'split', band);
    if (left instanceof CannotRun) {
      if (left.release !== mid) break; // an end stopped running: leave the range unresolved below
      continue;
    }
    const right = await compareAvoiding(s, mid, hi, 'split', band);
    if (right instanceof CannotRun) {
      if (right.release !== mid) break;
      continue;
    }
    halves = [left, right];
    break;
  }
  return { halves, mid };
}

/** Each culprit confirmed by a fresh direct comparison of its two releases; one that cannot be compared again is left unresolved. */
async function confirmCulprits(s: Search, culprits: readonly Omit<Culprit, 'confirmation' | 'confirmed'>[], unresolved: UnresolvedRange[]): Promise<Culprit[]> {
  const confirmedCulprits: Culprit[] = [];
  for (const cu of culprits) {
    const older = s.releases.indexOf(cu.older);
    const newer = s.releases.indexOf(cu.newer);
    const confirmation = await compareAvoiding(s, older, newer, 'confirm');
    if (confirmation instanceof CannotRun) {
      unresolved.push({ older: cu.older, newer: cu.newer, comparison: cu.found, why: 'undecided' });
      continue;
    }
    confirmedCulprits.push({ ...cu, confirmation, confirmed: confirmation.verdict === cu.direction });
  }
  return confirmedCulprits;
}
