import { describe, expect, it } from 'vitest';
import { geometricMeanRatio } from '../src/suite.ts';
import { normalSource } from './helpers.ts';

describe('geometricMeanRatio', () => {
  it('is the geometric mean of constant per-case ratios, with a degenerate CI', () => {
    const r = geometricMeanRatio([new Array(10).fill(Math.log(1.1)), new Array(7).fill(Math.log(0.9))]);
    expect(r.geomean).toBeCloseTo(Math.sqrt(1.1 * 0.9), 12);
    expect(r.ci[0]).toBeCloseTo(r.geomean, 12);
    expect(r.ci[1]).toBeCloseTo(r.geomean, 12);
    expect(r.cases).toBe(2);
  });

  it('uses each case\'s Hodges-Lehmann log ratio', () => {
    // HL of [0, 0.1, 0.5] = median of Walsh averages 0, .05, .25, .1, .3, .5 = 0.175
    const r = geometricMeanRatio([[0, 0.1, 0.5], [0.2]]);
    expect(r.geomean).toBeCloseTo(Math.exp((0.175 + 0.2) / 2), 12);
  });

  it('is deterministic given the seed and contains the estimate', () => {
    const z = normalSource(2);
    const cases = Array.from({ length: 6 }, (_, c) => Array.from({ length: 15 }, () => 0.01 * c + 0.03 * z()));
    const a = geometricMeanRatio(cases, { seed: 1 });
    const b = geometricMeanRatio(cases, { seed: 1 });
    const c = geometricMeanRatio(cases, { seed: 2 });
    expect(a).toEqual(b);
    expect(c.ci).not.toEqual(a.ci);
    expect(a.ci[0]).toBeLessThan(a.geomean);
    expect(a.geomean).toBeLessThan(a.ci[1]);
    expect(geometricMeanRatio(cases, { confidence: 0.99, seed: 1 }).ci[0]).toBeLessThan(a.ci[0]);
  });

  it('covers the true geometric mean in most seeded simulations', () => {
    // every case has true log ratio 0.02 (symmetric noise), so the true geomean is exp(0.02)
    const z = normalSource(3);
    let hits = 0;
    const sims = 100;
    for (let s = 0; s < sims; s++) {
      const cases = Array.from({ length: 5 }, () => Array.from({ length: 20 }, () => 0.02 + 0.04 * z()));
      const r = geometricMeanRatio(cases, { resamples: 500, seed: s });
      if (r.ci[0] <= Math.exp(0.02) && Math.exp(0.02) <= r.ci[1]) hits++;
    }
    expect(hits / sims).toBeGreaterThanOrEqual(0.88);
  });

  it('throws on no cases, an empty case, or non-finite values', () => {
    expect(() => geometricMeanRatio([])).toThrow(/no cases/);
    expect(() => geometricMeanRatio([[0.1], []])).toThrow(/case 1/);
    expect(() => geometricMeanRatio([[0.1, Infinity]])).toThrow(/non-finite/);
  });
});
