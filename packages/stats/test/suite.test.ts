import { describe, expect, it } from 'vitest';
import { geometricMeanRatio, geometricMeanRatioUnpaired, type UnpairedCase } from '../src/suite.ts';
import { comparePaired, compareUnpaired } from '../src/verdict.ts';
import { lognormal, normalSource } from './helpers.ts';

describe('geometricMeanRatio (units shared across cases)', () => {
  it('is the geometric mean of constant per-case ratios, with a degenerate interval', () => {
    const r = geometricMeanRatio([{ values: new Array(10).fill(Math.log(1.1)) }, { values: new Array(7).fill(Math.log(0.9)) }]);
    expect(r.geomean).toBeCloseTo(Math.sqrt(1.1 * 0.9), 12);
    expect(r.ci[0]).toBeCloseTo(r.geomean, 12);
    expect(r.ci[1]).toBeCloseTo(r.geomean, 12);
    expect(r.cases).toBe(2);
  });

  it('agrees with comparePaired on a single case', () => {
    const z = normalSource(1);
    const b = lognormal(z, 12, 100, 0.03);
    const c = lognormal(z, 12, 104, 0.03);
    const units = b.map((_, i) => i % 4);
    const one = geometricMeanRatio([{ values: b.map((x, i) => Math.log(c[i]! / x)), units }]);
    const cmp = comparePaired(b, c, { units });
    expect(one.geomean).toBeCloseTo(cmp.ratio, 12);
    expect(one.ci[0]).toBeCloseTo(cmp.ci[0], 9);
    expect(one.ci[1]).toBeCloseTo(cmp.ci[1], 9);
    expect(one.units).toBe(4);
  });

  it('a process effect shared by every case widens the interval: the cases are not independent', () => {
    const z = normalSource(2);
    const shared = Array.from({ length: 5 }, () => 0.05 * z());
    const cases = Array.from({ length: 10 }, () => ({ values: shared.map((s) => s + 0.005 * z()), units: [0, 1, 2, 3, 4] }));
    const clustered = geometricMeanRatio(cases);
    const asIfIndependent = geometricMeanRatio(cases.map((c) => ({ values: c.values })));
    expect(clustered.units).toBe(5);
    expect(clustered.ci[1] / clustered.ci[0]).toBeGreaterThan((asIfIndependent.ci[1] / asIfIndependent.ci[0]) ** 2);
  });

  it('covers the true geometric mean at about its level in seeded simulations with shared process effects', () => {
    const z = normalSource(3);
    let hits = 0;
    const sims = 1000;
    for (let s = 0; s < sims; s++) {
      const pairEffect = Array.from({ length: 5 }, () => 0.02 * z());
      const cases = Array.from({ length: 8 }, () => ({ values: pairEffect.map((p) => 0.02 + p + 0.03 * z()), units: [0, 1, 2, 3, 4] }));
      const r = geometricMeanRatio(cases);
      if (r.ci[0] <= Math.exp(0.02) && Math.exp(0.02) <= r.ci[1]) hits++;
    }
    expect(hits / sims).toBeGreaterThan(0.92);
    expect(hits / sims).toBeLessThan(0.98);
  });

  it('gives no interval from fewer than 3 units, and throws on bad input', () => {
    expect(geometricMeanRatio([{ values: [0.1, 0.2], units: [0, 1] }]).ci).toEqual([0, Infinity]);
    expect(() => geometricMeanRatio([])).toThrow(/no cases/);
    expect(() => geometricMeanRatio([{ values: [0.1] }, { values: [] }])).toThrow(/case 1/);
    expect(() => geometricMeanRatio([{ values: [0.1, Infinity] }])).toThrow(/non-finite/);
  });
});

describe('geometricMeanRatioUnpaired', () => {
  it('agrees with compareUnpaired on a single case and mirrors when the arms are swapped', () => {
    const z = normalSource(5);
    const b = lognormal(z, 12, 100, 0.03);
    const c = lognormal(z, 15, 108, 0.03);
    const one = geometricMeanRatioUnpaired([{ baseline: { values: b.map(Math.log) }, candidate: { values: c.map(Math.log) } }]);
    expect(one.geomean).toBeCloseTo(compareUnpaired(b, c).ratio, 12);
    const swapped = geometricMeanRatioUnpaired([{ baseline: { values: c.map(Math.log) }, candidate: { values: b.map(Math.log) } }]);
    expect(swapped.geomean).toBeCloseTo(1 / one.geomean, 12);
    expect(one.ci[0]).toBeLessThan(one.geomean);
    expect(one.geomean).toBeLessThan(one.ci[1]);
  });

  it('covers the true geomean in most seeded simulations', () => {
    const z = normalSource(6);
    const make = (): UnpairedCase[] =>
      Array.from({ length: 4 }, (_, k) => ({
        baseline: { values: Array.from({ length: 15 }, () => k + 0.04 * z()) },
        candidate: { values: Array.from({ length: 15 }, () => k + 0.05 + 0.04 * z()) },
      }));
    let hits = 0;
    const sims = 400;
    for (let s = 0; s < sims; s++) {
      const r = geometricMeanRatioUnpaired(make());
      if (r.ci[0] <= Math.exp(0.05) && Math.exp(0.05) <= r.ci[1]) hits++;
    }
    expect(hits / sims).toBeGreaterThanOrEqual(0.9);
  });

  it('throws on no cases, an empty arm, or non-finite values', () => {
    expect(() => geometricMeanRatioUnpaired([])).toThrow(/no cases/);
    expect(() => geometricMeanRatioUnpaired([{ baseline: { values: [1] }, candidate: { values: [] } }])).toThrow(/case 0/);
    expect(() => geometricMeanRatioUnpaired([{ baseline: { values: [1, NaN] }, candidate: { values: [1] } }])).toThrow(/non-finite/);
  });
});

describe('the units behind a suite interval', () => {
  it('three units give an interval; two do not', () => {
    expect(geometricMeanRatio([{ values: [0.1, 0.2, 0.15], units: [0, 1, 2] }]).ci[1]).toBeLessThan(Infinity);
    expect(geometricMeanRatio([{ values: [0.1, 0.2, 0.15], units: [0, 1, 1] }]).ci).toEqual([0, Infinity]);
  });

  it("unpaired: Student t on the smaller run's units − 1, pinned to a hand-computed case", () => {
    // ln values [0, .1, .2] against [.3, .5, .7, .9]: estimate 0.5; the sandwich variances are the variances of the
    // means, 0.01/3 and (0.2/3)/4, summed 0.02; 3 units (the smaller run), t(0.975, 2) = 4.302653.
    const g = geometricMeanRatioUnpaired([{ baseline: { values: [0, 0.1, 0.2] }, candidate: { values: [0.3, 0.5, 0.7, 0.9] } }]);
    expect(g.units).toBe(3);
    expect(g.geomean).toBeCloseTo(Math.exp(0.5), 12);
    expect(g.ci[0]).toBeCloseTo(Math.exp(0.5 - 4.302652729749462 * Math.sqrt(0.02)), 9);
    expect(g.ci[1]).toBeCloseTo(Math.exp(0.5 + 4.302652729749462 * Math.sqrt(0.02)), 9);
    const swapped = geometricMeanRatioUnpaired([{ baseline: { values: [0.3, 0.5, 0.7, 0.9] }, candidate: { values: [0, 0.1, 0.2] } }]);
    expect(swapped.units).toBe(3);
  });
});
