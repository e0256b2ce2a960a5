/**
 * A claim's word, for every interval (views/claim-decision.ts): held only
 * when the interval lies wholly on the claimed side of the bound, broken only
 * when wholly on the other, undecided otherwise; read at the Bonferroni level
 * of the claims checked together.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Expectation } from '@rtbench/core';
import { adjustedConfidence, adjustmentText, decideClaim, wordOf } from '../src/claim-decision.ts';

const factor = fc.double({ min: 1.01, max: 3, noNaN: true });
const expectation: fc.Arbitrary<Expectation> = fc.oneof(
  factor.map((f) => ({ kind: 'faster' as const, factor: f })),
  factor.map((f) => ({ kind: 'slower' as const, factor: f })),
  fc.double({ min: 0.01, max: 0.5, noNaN: true }).map((fraction) => ({ kind: 'within' as const, fraction })),
  fc.constant({ kind: 'same' as const }),
  fc.double({ min: 0.5, max: 3, noNaN: true }).map((f) => ({ kind: 'at-most' as const, factor: f })),
  fc.integer({ min: 1, max: 2 ** 40 }).map((bytes) => ({ kind: 'below' as const, bytes })),
  fc.double({ min: 0.1, max: 50, noNaN: true }).map((ms) => ({ kind: 'cpu-below' as const, ms })),
);

/** The claimed region of the cost ratio, as [low, high]. */
function claimed(e: Expectation, threshold: number): [number, number] {
  switch (e.kind) {
    case 'faster':
      return [0, 1 / e.factor];
    case 'slower':
      return [e.factor, Infinity];
    case 'within':
      return [1 - e.fraction, 1 + e.fraction];
    case 'same':
      return [1 - threshold, 1 + threshold];
    case 'at-most':
      return [0, e.factor];
    case 'below':
    case 'cpu-below':
      // Its ratio is the peak over the bound.
      return [0, 1];
  }
}

describe("a claim's word agrees with its interval", () => {
  it('held: wholly inside the claimed region; broken: wholly outside it; undecided: across its edge', () => {
    const ratio = fc.double({ min: 0.2, max: 4, noNaN: true });
    fc.assert(
      fc.property(expectation, ratio, ratio, (e, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const [from, to] = claimed(e, 0.01);
        const word = wordOf(e, [Math.log(lo), Math.log(hi)], 0.01);
        // Edges within rounding of the logs are left out of the comparison.
        const near = (x: number, y: number): boolean => Math.abs(Math.log(x) - Math.log(y)) < 1e-12;
        fc.pre(![from, to].some((edge) => Number.isFinite(edge) && edge > 0 && (near(lo, edge) || near(hi, edge))));
        const inside = lo >= from && hi <= to;
        const outside = hi < from || lo > to;
        expect(word).toBe(inside ? 'held' : outside ? 'broken' : 'undecided');
      }),
      { numRuns: 300 },
    );
  });

  it('an interval ending exactly on the bound holds the claim; no interval decides nothing', () => {
    const twice = { kind: 'faster' as const, factor: 2 };
    expect(wordOf(twice, [Math.log(0.3), -Math.log(2)], 0.01)).toBe('held');
    expect(wordOf(twice, [-Math.log(2), Math.log(0.9)], 0.01)).toBe('undecided');
    const slower = { kind: 'slower' as const, factor: 2 };
    expect(wordOf(slower, [Math.log(2), Math.log(3)], 0.01)).toBe('held');
    expect(wordOf(slower, [Math.log(1.5), Math.log(2)], 0.01)).toBe('undecided');
    const within = { kind: 'within' as const, fraction: 0.5 };
    expect(wordOf(within, [Math.log(0.5), Math.log(1.5)], 0.01)).toBe('held');
    expect(wordOf(within, [Math.log(1.5), Math.log(2)], 0.01)).toBe('undecided');
    expect(wordOf({ kind: 'same' }, undefined, 0.01)).toBe('undecided');
  });
});

describe('claims checked together (Bonferroni)', () => {
  it('each interval at 1 − α/m, said in words', () => {
    expect(adjustedConfidence({ confidence: 0.95, size: 4 })).toBeCloseTo(0.9875, 12);
    expect(adjustedConfidence({ confidence: 0.95, size: 0 })).toBeCloseTo(0.95, 12);
    expect(adjustmentText({ confidence: 0.95, size: 4 })).toBe('Bonferroni over 4 claim checks: each interval at 98.75%, together at least 95%');
    expect(adjustmentText({ confidence: 0.9, size: 1 })).toBe('Bonferroni over 1 claim check: each interval at 90%, together at least 90%');
  });

  it('more claims together: a wider interval around the same ratio, and never a decision a single claim would not make', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { minLength: 3, maxLength: 10 }), expectation, fc.integer({ min: 2, max: 50 }), (logs, e, m) => {
        const units = logs.map((_, i) => i);
        const one = decideClaim(logs, units, e, { confidence: 0.95, size: 1, threshold: 0.01 });
        const many = decideClaim(logs, units, e, { confidence: 0.95, size: m, threshold: 0.01 });
        expect(many.ratio).toBe(one.ratio);
        expect(one.interval![0]).toBeLessThanOrEqual(one.ratio * (1 + 1e-12));
        expect(one.ratio).toBeLessThanOrEqual(one.interval![1] * (1 + 1e-12));
        expect(many.interval![0]).toBeLessThanOrEqual(one.interval![0]);
        expect(many.interval![1]).toBeGreaterThanOrEqual(one.interval![1]);
        if (many.word !== 'undecided') expect(one.word).toBe(many.word);
      }),
    );
  });

  it('fewer than 3 units: no interval and no word; a unit of several sets counts once', () => {
    const d = decideClaim([0.5, 0.6, 0.55, 0.52], ['a', 'a', 'b', 'b'], { kind: 'slower', factor: 1.2 }, { confidence: 0.95, size: 1, threshold: 0.01 });
    expect(d).toEqual({ word: 'undecided', ratio: Math.exp((0.55 + 0.535) / 2), units: 2 });
  });
});
