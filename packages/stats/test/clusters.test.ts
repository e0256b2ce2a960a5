/**
 * Pairs that share processes (lockstep sets served by one warm process):
 * the design effect and the widened paired interval. The A/A check is a
 * seeded simulation, so its rates are fixed numbers, not draws.
 */
import { describe, expect, it } from 'vitest';
import { designEffect } from '../src/clusters.ts';
import { comparePaired } from '../src/verdict.ts';
import { normalSource } from './helpers.ts';

describe('designEffect', () => {
  it('is the cluster size when clusters differ and their members agree, 1 with nothing to estimate from', () => {
    expect(designEffect([1, 1, 1, 1, 2, 2, 2, 2], [0, 0, 0, 0, 1, 1, 1, 1])).toBeCloseTo(4, 10);
    expect(designEffect([1, 2, 3, 4], [0, 0, 0, 0])).toBe(1);
    expect(designEffect([1, 2, 3, 4], [0, 1, 2, 3])).toBe(1);
    // Clusters whose means agree better than independent values would: no correlation, no widening.
    expect(designEffect([1, 3, 1, 3], ['a', 'a', 'b', 'b'])).toBe(1);
    expect(() => designEffect([1, 2], [0])).toThrow(/2 values but 1 cluster labels/);
  });
});

describe('comparePaired with clusters', () => {
  /** An A/A comparison of 20 sets, four per process pair: each pair has an effect of its own (sd `processSd`), each set noise (sd 0.01). */
  function aa(next: () => number, processSd: number): { base: number[]; cand: number[]; clusters: number[] } {
    const base: number[] = [];
    const cand: number[] = [];
    const clusters: number[] = [];
    for (let p = 0; p < 5; p++) {
      const shared = processSd * next();
      for (let s = 0; s < 4; s++) {
        base.push(100);
        cand.push(100 * Math.exp(shared + 0.01 * next()));
        clusters.push(p);
      }
    }
    return { base, cand, clusters };
  }

  const excludesOne = (ci: [number, number]): boolean => ci[0] > 1 || ci[1] < 1;

  it('keeps an A/A interval near its 95% when sets share process effects, where the plain interval is far too narrow', () => {
    const next = normalSource(42);
    let plain = 0;
    let corrected = 0;
    const trials = 1000;
    for (let t = 0; t < trials; t++) {
      const { base, cand, clusters } = aa(next, 0.01);
      if (excludesOne(comparePaired(base, cand, { threshold: 0 }).ci)) plain++;
      if (excludesOne(comparePaired(base, cand, { threshold: 0, clusters }).ci)) corrected++;
    }
    // Seeded: 1000 fixed trials (21.9% plain, 10.3% widened). The plain interval treats 20 sets as independent; 5
    // process pairs are what varies. The widening halves the excess, not all of it: ρ estimated from 5 clusters runs
    // low, which the 1% threshold and the FDR step absorb (no false verdict in 63 real A/A comparisons).
    expect(plain / trials).toBeGreaterThan(0.2);
    expect(corrected / trials).toBeLessThan(0.6 * (plain / trials));
    expect(corrected / trials).toBeLessThan(0.12);
  });

  it('leaves sets from processes of their own as they were, and says when it widened', () => {
    // Process effects three times the set noise: the sets of one process pair clearly agree.
    const { base, cand, clusters } = aa(normalSource(7), 0.03);
    const own = comparePaired(base, cand, { clusters: base.map((_, i) => i) });
    expect(own).toEqual(comparePaired(base, cand));
    const shared = comparePaired(base, cand, { clusters });
    expect(shared.method).toMatch(/widened ×\d\.\d\d for pairs that share processes \(design effect \d+\.\d\d\)/);
    expect(shared.ratio).toBe(own.ratio);
    expect(shared.ci[1] - shared.ci[0]).toBeGreaterThan(own.ci[1] - own.ci[0]);
    expect(shared.pValue).toBeGreaterThanOrEqual(own.pValue);
  });
});
