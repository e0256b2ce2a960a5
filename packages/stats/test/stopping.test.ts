import { describe, expect, it } from 'vitest';
import { comparePaired, pairedStopping } from '../src/index.ts';
import { createRandom } from '../src/random.ts';
import { normalSource } from './helpers.ts';

/** n paired round medians: candidate = ratio x baseline, log-ratio noise sd `sigma`, and a shared per-round machine state. */
function pairs(seed: number, n: number, ratio: number, sigma: number, slowShare = 0): { b: number[]; c: number[] } {
  const z = normalSource(seed);
  const random = createRandom(seed + 100);
  const b: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < n; i++) {
    const state = random() < slowShare ? 1.6 : 1; // both arms of a round share the machine's state
    const base = 100 * state * Math.exp(0.01 * z());
    b.push(base);
    c.push(base * ratio * Math.exp(sigma * z()));
  }
  return { b, c };
}

describe('pairedStopping', () => {
  it('stops when the CI is within ±2%, and its interval is the one comparePaired reports', () => {
    const { b, c } = pairs(1, 20, 1.1, 0.005);
    const s = pairedStopping(b, c);
    const cmp = comparePaired(b, c);
    expect(s.reached).toBe(true);
    expect(s.moreRounds).toBe(0);
    expect(s.halfWidth).toBeLessThanOrEqual(0.02);
    expect(s.ratio).toBeCloseTo(cmp.ratio, 12);
    expect(s.ci[0]).toBeCloseTo(cmp.ci[0], 12);
    expect(s.ci[1]).toBeCloseTo(cmp.ci[1], 12);
  });

  it('pairing cancels a machine state shared by both arms of a round (40% of rounds 1.6x slow)', () => {
    const { b, c } = pairs(2, 16, 0.9, 0.01, 0.4);
    expect(pairedStopping(b, c).reached).toBe(true);
  });

  it('asks for more rounds when the interval is too wide, and the estimate is roughly right', () => {
    // log-ratio sd 6%: about (1.96 * 0.06 / 0.0198)^2 ~ 35 pairs are needed in theory.
    const ratios: number[] = [];
    for (let seed = 10; seed < 30; seed++) {
      const first = pairs(seed, 10, 1.05, 0.06);
      const s = pairedStopping(first.b, first.c);
      expect(s.reached).toBe(false);
      expect(s.moreRounds).toBeGreaterThan(0);
      // Where does the target actually get reached, adding pairs from the same source?
      const more = pairs(seed + 1000, 400, 1.05, 0.06);
      let n = 10;
      while (n < 400 && !pairedStopping([...first.b, ...more.b.slice(0, n - 10)], [...first.c, ...more.c.slice(0, n - 10)]).reached) n += 5;
      ratios.push((s.rounds + s.moreRounds) / n);
    }
    ratios.sort((a, b) => a - b);
    const medianRatio = ratios[ratios.length >> 1]!;
    expect(medianRatio).toBeGreaterThan(0.5);
    expect(medianRatio).toBeLessThan(2);
  });

  it('counts units, not sets: before 3 independent units there is no interval and it asks for 3', () => {
    const tight = pairs(3, 4, 1.2, 0.002);
    const s = pairedStopping(tight.b, tight.c, { units: [0, 0, 1, 1] });
    expect(s.reached).toBe(false);
    expect(s.halfWidth).toBe(Infinity);
    expect(s.rounds + s.moreRounds).toBe(3);
    expect(pairedStopping(tight.b, tight.c).reached).toBe(true); // four units of their own
    const noisy = pairs(4, 4, 1.2, 0.1);
    expect(pairedStopping(noisy.b, noisy.c).moreRounds).toBeGreaterThan(50);
    expect(pairedStopping([], []).moreRounds).toBe(3);
  });

  it('says when the budget cannot reach the target', () => {
    const { b, c } = pairs(5, 10, 1.0, 0.05);
    expect(pairedStopping(b, c, { maxRounds: 20 }).withinBudget).toBe(false);
    expect(pairedStopping(b, c, { maxRounds: 10_000 }).withinBudget).toBe(true);
    // A looser target is reached sooner.
    expect(pairedStopping(b, c, { target: 0.2 }).reached).toBe(true);
  });

  it('rejects bad input with a RangeError', () => {
    expect(() => pairedStopping([1, 2], [1])).toThrow(RangeError);
    expect(() => pairedStopping([1, 0], [1, 1])).toThrow(RangeError);
    expect(() => pairedStopping([1], [1], { target: 0 })).toThrow(RangeError);
    expect(() => pairedStopping([1], [1], { confidence: 1 })).toThrow(RangeError);
  });
});

describe('pairedStopping: the budget', () => {
  it('before any pair: no ratio yet, three units asked for, within a budget of three and not of two', () => {
    expect(pairedStopping([], [], { maxRounds: 3 })).toEqual({ rounds: 0, ratio: 1, ci: [0, Infinity], halfWidth: Infinity, target: 0.02, reached: false, moreRounds: 3, withinBudget: true });
    expect(pairedStopping([], [], { maxRounds: 2 }).withinBudget).toBe(false);
  });

  it('a budget of exactly the units asked for is enough; one less is not', () => {
    const { b, c } = pairs(6, 8, 1.05, 0.05);
    const d = pairedStopping(b, c);
    expect(d.reached).toBe(false);
    expect(pairedStopping(b, c, { maxRounds: d.rounds + d.moreRounds }).withinBudget).toBe(true);
    expect(pairedStopping(b, c, { maxRounds: d.rounds + d.moreRounds - 1 }).withinBudget).toBe(false);
  });
});
