import { describe, expect, it } from 'vitest';
import { geometricMeanRatio, geometricMeanRatioUnpaired, type UnpairedCase } from '../src/suite.ts';
import { compareUnpaired } from '../src/verdict.ts';
import { lognormal, normalSource } from './helpers.ts';

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

describe('geometricMeanRatioUnpaired', () => {
  it('uses each case\'s two-sample Hodges-Lehmann shift (median of all differences)', () => {
    // case 1: differences 0.3-0, 0.3-0.1, 0.5-0, 0.5-0.1 = .3, .2, .5, .4 -> median 0.35; case 2: 0.1 - 0.3 = -0.2
    const r = geometricMeanRatioUnpaired([
      { baseline: [0, 0.1], candidate: [0.3, 0.5] },
      { baseline: [0.3], candidate: [0.1] },
    ]);
    expect(r.geomean).toBeCloseTo(Math.exp((0.35 - 0.2) / 2), 12);
    expect(r.cases).toBe(2);
  });

  it('agrees with compareUnpaired on a single case and mirrors when the arms are swapped', () => {
    const z = normalSource(5);
    const b = lognormal(z, 12, 100, 0.03);
    const c = lognormal(z, 15, 108, 0.03);
    const one = geometricMeanRatioUnpaired([{ baseline: b.map(Math.log), candidate: c.map(Math.log) }]);
    expect(one.geomean).toBeCloseTo(compareUnpaired(b, c).ratio, 12);
    const swapped = geometricMeanRatioUnpaired([{ baseline: c.map(Math.log), candidate: b.map(Math.log) }]);
    expect(swapped.geomean).toBeCloseTo(1 / one.geomean, 12);
    expect(one.ci[0]).toBeLessThan(one.geomean);
    expect(one.geomean).toBeLessThan(one.ci[1]);
  });

  it('is deterministic given the seed and covers the true geomean in most seeded simulations', () => {
    const z = normalSource(6);
    const make = (): UnpairedCase[] =>
      Array.from({ length: 4 }, (_, k) => ({
        baseline: Array.from({ length: 15 }, () => k + 0.04 * z()),
        candidate: Array.from({ length: 15 }, () => k + 0.05 + 0.04 * z()),
      }));
    const fixed = make();
    expect(geometricMeanRatioUnpaired(fixed, { seed: 3 })).toEqual(geometricMeanRatioUnpaired(fixed, { seed: 3 }));
    let hits = 0;
    const sims = 100;
    for (let s = 0; s < sims; s++) {
      const r = geometricMeanRatioUnpaired(make(), { resamples: 500, seed: s });
      if (r.ci[0] <= Math.exp(0.05) && Math.exp(0.05) <= r.ci[1]) hits++;
    }
    expect(hits / sims).toBeGreaterThanOrEqual(0.88);
  });

  it('throws on no cases, an empty arm, or non-finite values', () => {
    expect(() => geometricMeanRatioUnpaired([])).toThrow(/no cases/);
    expect(() => geometricMeanRatioUnpaired([{ baseline: [1], candidate: [] }])).toThrow(/case 0/);
    expect(() => geometricMeanRatioUnpaired([{ baseline: [1, NaN], candidate: [1] }])).toThrow(/non-finite/);
  });
});
