import { describe, expect, it } from 'vitest';
import { studentTQuantile, studentTTwoSided } from '../src/index.ts';

describe('Student t', () => {
  it('gives the tabulated 97.5% quantiles', () => {
    // Tables: df 1 12.706, 2 4.303, 3 3.182, 5 2.571, 10 2.228, 30 2.042.
    const table: [number, number][] = [[1, 12.706], [2, 4.303], [3, 3.182], [5, 2.571], [10, 2.228], [30, 2.042]];
    for (const [df, t] of table) expect(studentTQuantile(0.975, df)).toBeCloseTo(t, df <= 2 ? 3 : 1);
    expect(Math.abs(studentTQuantile(0.975, 3) - 3.182)).toBeLessThan(0.05);
  });

  it('gives two-sided p-values that match the quantiles', () => {
    for (const df of [1, 2, 4, 8, 20]) expect(studentTTwoSided(studentTQuantile(0.975, df), df)).toBeCloseTo(0.05, 2);
  });
});

describe('studentTQuantile in the tails (the adjusted levels a table reads)', () => {
  it('inverts the exact two-sided p-value to 1e-9 for whole degrees of freedom', () => {
    for (const df of [3, 4, 6, 19]) for (const p of [0.975, 0.995, 0.9995, 0.99995]) expect(studentTTwoSided(studentTQuantile(p, df), df)).toBeCloseTo(2 * (1 - p), 9);
    // tabulated: t(0.9995, 4) = 8.610
    expect(studentTQuantile(0.9995, 4)).toBeCloseTo(8.610, 3);
  });
});
