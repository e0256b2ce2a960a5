/**
 * The search against measurers whose change points are known
 * (fake-measurer.ts). Deterministic by seed: every simulated bisect draws its
 * change point and its noise from a seeded generator, so the rates below are
 * the same on every run and machine; the margins are the targets.
 */
import { describe, expect, it } from 'vitest';
import { createRandom } from '@rtbench/stats';
import { bisect, pairedDecide, unitTest, type BisectOptions, type BisectResult } from '../src/index.ts';
import { fakeMeasurer } from './fake-measurer.ts';

/** What a bisect uses for wall time (its planner, with the CLI's threshold and rounds): 1% threshold, 99% / 90% intervals, 10 -> 160 rounds. */
const OPTIONS: BisectOptions = { threshold: 0.01, confidence: 0.99, sameConfidence: 0.9, minRounds: 10, maxRounds: 160 };
const NOISE = { sd: 0.03, outliers: 0.1 };
const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `r${i}`);

function culpritAt(result: BisectResult, at: number): boolean {
  return result.outcome.kind === 'changes' && result.outcome.culprits.some((c) => c.older === `r${at - 1}` && c.newer === `r${at}` && c.confirmed);
}

describe('a planted change among 100 releases', () => {
  it('finds a 3% change at a random release in at least 95% of 200 bisects, and rarely names another', async () => {
    const pick = createRandom(29);
    let found = 0;
    let spurious = 0;
    let rounds = 0;
    for (let i = 0; i < 200; i++) {
      const at = 1 + Math.floor(pick() * 99);
      const factor = pick() < 0.5 ? 1.03 : 1 / 1.03;
      const measure = fakeMeasurer({ releases: 100, changes: [{ at, factor }], ...NOISE, seed: 1000 + i });
      const result = await bisect(names(100), measure, OPTIONS);
      if (culpritAt(result, at)) found++;
      if (result.outcome.kind === 'changes') spurious += result.outcome.culprits.filter((c) => c.confirmed && c.newer !== `r${at}`).length;
      rounds += measure.rounds();
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.95);
    expect(spurious / 200).toBeLessThanOrEqual(0.05);
    // The cost of a bisect, for docs/bisect.md: paired rounds per bisect on average.
    console.log(`3% change: found ${found}/200, spurious confirmed culprits ${spurious}, ${(rounds / 200).toFixed(0)} rounds per bisect`);
  }, 60_000);

  it('reports a false change in at most 5% of 200 ranges that have none', async () => {
    let falseChanges = 0;
    let noChange = 0;
    for (let i = 0; i < 200; i++) {
      const result = await bisect(names(100), fakeMeasurer({ releases: 100, changes: [], ...NOISE, seed: 5000 + i }), OPTIONS);
      if (result.outcome.kind === 'changes' && result.outcome.culprits.length > 0) falseChanges++;
      if (result.outcome.kind === 'no-change') noChange++;
    }
    expect(falseChanges / 200).toBeLessThanOrEqual(0.05);
    // The others are "undecided": at this noise (sd 3%, a tenth of rounds at 9%) the t interval of 160 rounds does not always show ±1%.
    expect(noChange / 200).toBeGreaterThanOrEqual(0.85);
    console.log(`no change: ${falseChanges}/200 reported a change, ${noChange}/200 "no change"`);
  }, 60_000);
});

describe('what a bisect meets', () => {
  it('stops after the ends when they do not differ, with one step and nothing left to do', async () => {
    const left: number[] = [];
    const result = await bisect(names(40), fakeMeasurer({ releases: 40, changes: [], sd: 0.01, outliers: 0, seed: 1 }), { ...OPTIONS, onStep: (_, s) => left.push(s.stepsLeft) });
    expect(result.outcome.kind).toBe('no-change');
    expect(result.steps.map((s) => s.purpose)).toEqual(['ends']);
    expect(left).toEqual([0]);
  });

  it('expects, for an ETA, two comparisons per halving and a confirmation, down to none at the end', async () => {
    const left: number[] = [];
    const result = await bisect(names(33), fakeMeasurer({ releases: 33, changes: [{ at: 9, factor: 0.7 }], sd: 0.01, outliers: 0, seed: 2 }), { ...OPTIONS, onStep: (_, s) => left.push(s.stepsLeft) });
    // 33 releases: 5 halvings, 10 comparisons, and the confirmation.
    expect(left[0]).toBe(11);
    expect(left.at(-1)).toBe(0);
    expect(result.steps).toHaveLength(12);
  });

  it('follows the larger of two changes and names the other as met on the way, not searched', async () => {
    const result = await bisect(names(60), fakeMeasurer({ releases: 60, changes: [{ at: 12, factor: 0.7 }, { at: 41, factor: 1.1 }], ...NOISE, seed: 7 }), OPTIONS);
    if (result.outcome.kind !== 'changes') throw new Error(`expected changes, got ${result.outcome.kind}`);
    expect(result.outcome.culprits.map((c) => [c.older, c.newer, c.direction, c.confirmed])).toEqual([['r11', 'r12', 'faster', true]]);
    const smaller = result.outcome.unresolved.filter((u) => u.why === 'smaller');
    expect(smaller).toHaveLength(1);
    // The range named holds the smaller change, and says which way it went.
    const [older, newer] = [Number(smaller[0]!.older.slice(1)), Number(smaller[0]!.newer.slice(1))];
    expect(older < 41 && 41 <= newer).toBe(true);
    expect(smaller[0]!.comparison.verdict).toBe('slower');
  });

  it('answers the ends\' change among many small steps within a path of halvings (the json-reviver shape)', async () => {
    // One 42% step late in the range, and a step of 1–7% every fourth release before it.
    const small = Array.from({ length: 11 }, (_, i) => ({ at: 3 + i * 4, factor: 1 + 0.01 * (1 + (i % 7)) }));
    const changes = [...small, { at: 52, factor: 1.42 }];
    const largest = await bisect(names(60), fakeMeasurer({ releases: 60, changes, sd: 0.01, outliers: 0, seed: 13 }), OPTIONS);
    if (largest.outcome.kind !== 'changes') throw new Error(`expected changes, got ${largest.outcome.kind}`);
    expect(largest.outcome.culprits.map((c) => [c.older, c.newer, c.confirmed])).toEqual([['r51', 'r52', true]]);
    expect(largest.outcome.unresolved.some((u) => u.why === 'smaller')).toBe(true);
    // The ends, two comparisons per halving of 59 steps (6), the confirmation.
    expect(largest.steps.length).toBeLessThanOrEqual(1 + 2 * 6 + 1);
    // The exhaustive search is one option away, and follows the small steps too.
    const all = await bisect(names(60), fakeMeasurer({ releases: 60, changes, sd: 0.01, outliers: 0, seed: 13 }), { ...OPTIONS, follow: 'all' });
    if (all.outcome.kind !== 'changes') throw new Error(`expected changes, got ${all.outcome.kind}`);
    expect(all.outcome.culprits.length).toBeGreaterThan(1);
    expect(all.outcome.culprits.some((c) => c.newer === 'r52')).toBe(true);
    expect(all.steps.length).toBeGreaterThan(largest.steps.length);
  });

  it('reports each of two changes in opposite directions when asked to follow all', async () => {
    const result = await bisect(names(60), fakeMeasurer({ releases: 60, changes: [{ at: 12, factor: 0.7 }, { at: 41, factor: 1.1 }], ...NOISE, seed: 7 }), { ...OPTIONS, follow: 'all' });
    expect(result.outcome.kind).toBe('changes');
    if (result.outcome.kind !== 'changes') return;
    expect(result.outcome.culprits.map((c) => [c.older, c.newer, c.direction, c.confirmed])).toEqual([
      ['r11', 'r12', 'faster', true],
      ['r40', 'r41', 'slower', true],
    ]);
  });

  it('skips releases that cannot run, says which, and names them inside a culprit', async () => {
    // r0 (an end), r25 (a middle) and r30 (just before the change) cannot run.
    const measure = fakeMeasurer({ releases: 50, changes: [{ at: 31, factor: 0.8 }], ...NOISE, seed: 3, broken: [0, 25, 30] });
    const result = await bisect(names(50), measure, OPTIONS);
    expect(result.first).toBe('r1');
    expect(result.skipped.map((s) => s.release)).toEqual(expect.arrayContaining(['r0', 'r30']));
    expect(result.skipped.every((s) => s.reason === 'the case throws')).toBe(true);
    if (result.outcome.kind !== 'changes') throw new Error(`expected changes, got ${result.outcome.kind}`);
    expect(result.outcome.culprits).toHaveLength(1);
    expect(result.outcome.culprits[0]).toMatchObject({ older: 'r29', newer: 'r31', skippedBetween: ['r30'], direction: 'faster', confirmed: true });
  });

  it('repeats a noisy step with twice the rounds instead of guessing', async () => {
    const measure = fakeMeasurer({ releases: 2, changes: [{ at: 1, factor: 1.015 }], sd: 0.03, outliers: 0, seed: 11 });
    const result = await bisect(['a', 'b'], measure, OPTIONS);
    expect(measure.requests.map((r) => r.rounds).slice(0, 3)).toEqual([10, 10, 20]);
    expect(result.steps[0]!.attempts).toBeGreaterThan(1);
  });

  it('calls a drift of small steps a drift, not one release', async () => {
    // Ten steps of 0.5%: 5% over the range, none beyond the 1% threshold.
    const changes = Array.from({ length: 10 }, (_, i) => ({ at: 2 + i * 3, factor: 1.005 }));
    const result = await bisect(names(32), fakeMeasurer({ releases: 32, changes, sd: 0.005, outliers: 0, seed: 5 }), OPTIONS);
    if (result.outcome.kind !== 'changes') throw new Error(`expected changes, got ${result.outcome.kind}`);
    expect(result.outcome.culprits.filter((c) => c.confirmed)).toHaveLength(0);
    expect(result.outcome.unresolved.some((u) => u.why === 'spread')).toBe(true);
  });
});

describe('a step\'s word and the interval printed beside it', () => {
  it('"equivalent" comes with the interval that lies within its band, "faster"/"slower" with one that excludes 1', async () => {
    const decide = pairedDecide(unitTest, { threshold: 0.01, confidence: 0.99, sameConfidence: 0.9 });
    const random = createRandom(11);
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    let equivalent = 0;
    for (let s = 0; s < 300; s++) {
      const effect = [0, 0.003, 0.05, -0.08][s % 4]!;
      const c = decide(Array.from({ length: 12 }, () => effect + 0.03 * normal()), 0.1);
      if (c.verdict === 'equivalent') {
        equivalent++;
        expect(c.confidence).toBe(0.9);
        expect(c.ci[0]).toBeGreaterThanOrEqual(1 / (1 + c.threshold));
        expect(c.ci[1]).toBeLessThanOrEqual(1 + c.threshold);
      }
      if (c.verdict === 'faster' || c.verdict === 'slower') expect(c.ci[0] > 1 || c.ci[1] < 1).toBe(true);
      if (c.verdict === 'inconclusive') expect(c.ci[0] <= 1 && c.ci[1] >= 1).toBe(true);
    }
    expect(equivalent).toBeGreaterThan(50);
  });
});
