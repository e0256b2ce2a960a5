/**
 * A history's first walk (change-walk.ts) stopped after some runs and
 * resumed from its snapshot (what a results store keeps, walk-checkpoint.ts)
 * decides as the walk over every run at once, for any split and window; its
 * snapshot keeps the p-values ascending, so a walk resumed from ten thousand
 * runs sorts only the few it adds.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { armSummary, type ArmSummary } from '../src/ratios.ts';
import { armRead, ChangeWalk } from '../src/change-walk.ts';

const options = { threshold: 0.01, confidence: 0.95 };

/** Runs of a few series, each point an arm of 6 processes' costs around its level (a step at some runs). */
const history = fc.record({
  series: fc.integer({ min: 1, max: 4 }),
  levels: fc.array(fc.constantFrom(1, 1, 1, 1.3, 0.7), { minLength: 4, maxLength: 24 }),
  spread: fc.array(fc.double({ min: -0.04, max: 0.04, noNaN: true }), { minLength: 6, maxLength: 6 }),
  missing: fc.array(fc.boolean(), { minLength: 96, maxLength: 96 }),
});

type History = { runs: number; points: { series: number; run: number; arm: ArmSummary | undefined }[] };

function historyOf({ series, levels, spread, missing }: { series: number; levels: number[]; spread: number[]; missing: boolean[] }): History {
  const points: History['points'] = [];
  levels.forEach((level, run) => {
    for (let s = 0; s < series; s++) {
      const costs = spread.map((d, i) => level * (1 + s) * (1 + d * Math.cos(run + i + s)));
      points.push({ series: s, run, arm: missing[(run * series + s) % 96] ? undefined : armSummary({ costs, median: level, work: { variantId: `v${s}` } }) });
    }
  });
  return { runs: levels.length, points };
}

function add(walk: ChangeWalk, points: History['points']): void {
  for (const p of points) walk.add(p.series, p.run, p.arm && armRead(p.arm));
}

describe('a walk resumed from its snapshot', () => {
  it('decides as the walk over every run at once, its snapshot\'s p-values ascending', () => {
    fc.assert(
      fc.property(history, fc.double({ min: 0, max: 1, noNaN: true }), fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }), (h, at, last) => {
        const { runs, points } = historyOf(h);
        const whole = new ChangeWalk(runs, options, last);
        add(whole, points);
        const split = Math.floor(at * runs);
        const before = new ChangeWalk(split, options, last);
        add(before, points.filter((p) => p.run < split));
        const snapshot = before.snapshot();
        expect([...snapshot.pValues]).toEqual([...snapshot.pValues].sort((a, b) => a - b));
        const resumed = ChangeWalk.resumed(snapshot, runs, options, last);
        add(resumed, points.filter((p) => p.run >= split));
        const [a, b] = [whole.finish(), resumed.finish()];
        expect({ level: b.step.level, m: b.m, shown: b.shown, read: b.read }).toEqual({ level: a.step.level, m: a.m, shown: a.shown, read: a.read });
        expect([...resumed.snapshot().pValues]).toEqual([...whole.snapshot().pValues]);
      }),
      { numRuns: 200 },
    );
  });
});
