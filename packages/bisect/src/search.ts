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

export async function bisect(releases: readonly string[], measure: Measure, options: BisectOptions): Promise<BisectResult> {
  if (releases.length < 2) throw new RangeError(`a bisect needs at least two releases, got ${releases.length}`);
  if (!(options.minRounds >= 1 && options.maxRounds >= options.minRounds)) throw new RangeError('bisect: need 1 <= minRounds <= maxRounds');
  const decide = options.decide ?? pairedDecide(unitTest, options);
  const follow = options.follow ?? 'largest';
  const steps: StepRecord[] = [];
  const cannot = new Map<number, string>();
  /** Comparisons a range of `n` releases that holds one change still takes: two per halving, and the confirmation. */
  const searchOf = (n: number): number => 2 * Math.ceil(Math.log2(Math.max(1, n - 1))) + 1;
  let stepsLeft = 1 + searchOf(releases.length);

  /** Compares two releases adaptively; throws CannotRun when one of them cannot run. */
  async function compare(older: number, newer: number, purpose: StepPurpose, sameBand: number): Promise<Comparison> {
    const pooled: number[] = [];
    let attempts = 0;
    let want = options.minRounds;
    for (;;) {
      const outcome = await measure({ older, newer, rounds: want - pooled.length, purpose, attempt: attempts });
      attempts++;
      if (outcome.kind === 'cannot-run') throw new CannotRun(outcome.release, outcome.reason);
      pooled.push(...outcome.logRatios.filter(Number.isFinite));
      const comparison = pooled.length ? decide(pooled, sameBand) : undefined;
      // A change certain but under the threshold ('small') is measured more until it reads the same or different.
      const settled = comparison !== undefined && comparison.verdict !== 'inconclusive' && comparison.verdict !== 'small';
      if (comparison && (settled || pooled.length >= options.maxRounds || outcome.logRatios.length === 0)) {
        const step: StepRecord = { older: releases[older]!, newer: releases[newer]!, purpose, attempts, rounds: pooled.length, comparison };
        steps.push(step);
        if (purpose === 'ends') stepsLeft = differs(comparison) ? searchOf(newer - older + 1) : 0;
        else stepsLeft = Math.max(0, stepsLeft - 1);
        options.onStep?.(step, { stepsDone: steps.length, stepsLeft });
        return comparison;
      }
      if (!comparison) throw new CannotRun(newer, 'no paired round gave a ratio');
      want = Math.min(options.maxRounds, Math.max(want * 2, pooled.length + 1));
    }
  }

  /** compare(), going around a release that cannot run: the callback picks the replacement, or gives up (undefined). */
  async function compareAvoiding(older: number, newer: number, purpose: StepPurpose, sameBand = options.threshold): Promise<Comparison | CannotRun> {
    try {
      return await compare(older, newer, purpose, sameBand);
    } catch (error) {
      if (!(error instanceof CannotRun)) throw error;
      cannot.set(error.release, error.reason);
      return error;
    }
  }

  const usable = (i: number): boolean => !cannot.has(i);

  // 1. The ends, moved inward past releases that cannot run.
  let first = 0;
  let last = releases.length - 1;
  let ends: Comparison | undefined;
  while (first < last) {
    const r = await compareAvoiding(first, last, 'ends');
    if (!(r instanceof CannotRun)) {
      ends = r;
      break;
    }
    if (r.release === first) first++;
    else if (r.release === last) last--;
    else throw new Error(`the measurer named release ${r.release}, which is not in the pair compared`);
    while (first < last && !usable(first)) first++;
    while (last > first && !usable(last)) last--;
  }
  const skipped = (): { release: string; reason: string }[] => [...cannot].sort((a, b) => a[0] - b[0]).map(([i, reason]) => ({ release: releases[i]!, reason }));
  const result = (outcome: BisectResult['outcome']): BisectResult => ({ releases, first: releases[first]!, last: releases[last]!, outcome, steps, skipped: skipped() });
  if (!ends) throw new Error(`fewer than two of the releases can run the case: ${skipped().map((s) => `${s.release} (${s.reason})`).join('; ')}`);
  if (ends.verdict === 'equivalent') return result({ kind: 'no-change', ends });
  if (ends.verdict === 'inconclusive' || ends.verdict === 'small') return result({ kind: 'undecided', ends });

  // 2. Split the ranges that differ; the stack holds [older, newer, their comparison].
  const culprits: Omit<Culprit, 'confirmation' | 'confirmed'>[] = [];
  const unresolved: UnresolvedRange[] = [];
  const open: [number, number, Comparison][] = [[first, last, ends]];
  while (open.length) {
    const [lo, hi, c] = open.pop()!;
    const inside = (): number[] => {
      const between: number[] = [];
      for (let i = lo + 1; i < hi; i++) if (usable(i)) between.push(i);
      return between;
    };
    let halves: [Comparison, Comparison] | undefined;
    let mid = -1;
    const band = Math.max(options.threshold, Math.abs(Math.log(c.ratio)) * SAME_BAND_SHARE);
    for (let candidates = inside(); candidates.length; candidates = inside()) {
      const centre = (lo + hi) / 2;
      mid = candidates.reduce((best, i) => (Math.abs(i - centre) < Math.abs(best - centre) ? i : best));
      const left = await compareAvoiding(lo, mid, 'split', band);
      if (left instanceof CannotRun) {
        if (left.release !== mid) break; // an end stopped running: leave the range unresolved below
        continue;
      }
      const right = await compareAvoiding(mid, hi, 'split', band);
      if (right instanceof CannotRun) {
        if (right.release !== mid) break;
        continue;
      }
      halves = [left, right];
      break;
    }
    if (!halves) {
      if (inside().length === 0 && usable(lo) && usable(hi) && differs(c)) {
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
    stepsLeft = open.reduce((n, [a, b]) => n + searchOf(b - a + 1), 0) + culprits.length;
  }

  // 3. Each culprit confirmed by a fresh direct comparison of its two releases.
  const confirmedCulprits: Culprit[] = [];
  for (const cu of culprits) {
    const older = releases.indexOf(cu.older);
    const newer = releases.indexOf(cu.newer);
    const confirmation = await compareAvoiding(older, newer, 'confirm');
    if (confirmation instanceof CannotRun) {
      unresolved.push({ older: cu.older, newer: cu.newer, comparison: cu.found, why: 'undecided' });
      continue;
    }
    confirmedCulprits.push({ ...cu, confirmation, confirmed: confirmation.verdict === cu.direction });
  }
  unresolved.sort((a, b) => releases.indexOf(a.older) - releases.indexOf(b.older));
  return result({ kind: 'changes', ends, culprits: confirmedCulprits, unresolved });
}
