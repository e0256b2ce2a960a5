import { describe, expect, it } from 'vitest';
import { erfc, normalCdf, normalQuantile, normalTwoSidedP } from '../src/normal.ts';

// Reference values from Python 3.11: math.erfc and statistics.NormalDist (AS 241).
describe('normal distribution', () => {
  it('erfc matches math.erfc to ~1e-14 relative across both branches', () => {
    const cases: [number, number][] = [
      [0.3, 0.6713732405408726],
      [2.4, 0.0006885138966450789],
      [2.6, 0.00023603441652934908],
      [5, 1.5374597944280351e-12],
      [-1, 1.842700792949715],
      [0, 1],
    ];
    for (const [x, want] of cases) expect(Math.abs(erfc(x) - want) / want).toBeLessThan(1e-13);
    expect(erfc(40)).toBe(0);
  });
  it('normalCdf and the two-sided p-value keep tail precision', () => {
    expect(normalCdf(-1.5)).toBeCloseTo(0.06680720126885809, 15);
    expect(Math.abs(normalCdf(-8) - 6.220960574271819e-16) / 6.22e-16).toBeLessThan(1e-12);
    expect(normalTwoSidedP(1.959963984540054)).toBeCloseTo(0.05, 14);
    expect(normalCdf(0)).toBe(0.5);
  });
  it('normalQuantile matches NormalDist.inv_cdf', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489, 12);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12);
    expect(normalQuantile(0.3)).toBeCloseTo(-0.5244005127080407, 13);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(() => normalQuantile(1.2)).toThrow(RangeError);
  });
  it('normalQuantile inverts normalCdf', () => {
    for (const p of [1e-300, 1e-20, 0.001, 0.2, 0.49, 0.51, 0.8, 0.999]) {
      expect(normalCdf(normalQuantile(p)) / p).toBeCloseTo(1, 10);
    }
  });
});

describe('normalQuantile in the upper tail', () => {
  it('is as exact as in the lower one (scipy.stats.norm.isf(2^-33) = 6.3379577545537895)', () => {
    expect(normalQuantile(1 - 2 ** -33)).toBeCloseTo(6.3379577545537895, 12);
    expect(normalQuantile(1 - 2 ** -33)).toBe(-normalQuantile(2 ** -33));
  });
});
