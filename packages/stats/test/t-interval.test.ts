import { describe, expect, it } from 'vitest';
import { comparePairedT, compareUnpairedT, studentTQuantile, studentTTwoSided } from '../src/index.ts';

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

describe('comparePairedT', () => {
  it('decides a 2% difference from three rounds that agree to 0.01%', () => {
    const c = comparePairedT([4.32e6, 4.3205e6, 4.3198e6], [4.4064e6, 4.4068e6, 4.4061e6], { threshold: 0.005 });
    expect(c.ratio).toBeCloseTo(1.02, 3);
    expect(c.ci[0]).toBeGreaterThan(1.015);
    expect(c.ci[1]).toBeLessThan(1.025);
    expect(c.verdict).toBe('slower');
  });

  it('calls identical counts equivalent and one round inconclusive', () => {
    expect(comparePairedT([5, 5, 5], [5, 5, 5], { threshold: 0.005 }).verdict).toBe('equivalent');
    expect(comparePairedT([5], [6]).verdict).toBe('inconclusive');
  });

  it('widens when one round is off, instead of deciding on it', () => {
    const c = comparePairedT([100, 100, 100], [100, 100, 110], { threshold: 0.005 });
    expect(c.ci[0]).toBeLessThan(1);
    expect(c.verdict).toBe('inconclusive');
  });
});

describe('compareUnpairedT (counts from two saved runs)', () => {
  it('decides a 2% change from 3 rounds a side when rounds agree to parts per million', () => {
    const base = [2_000_000, 2_000_004, 1_999_998];
    const head = base.map((x, i) => x * 1.02 + i);
    const c = compareUnpairedT(base, head, { threshold: 0.005 });
    expect(c.ratio).toBeCloseTo(1.02, 5);
    expect(c.ci[0]).toBeGreaterThan(1.019);
    expect(c.ci[1]).toBeLessThan(1.021);
    expect(c.verdict).toBe('slower');
    expect(compareUnpairedT(head, base, { threshold: 0.005 }).verdict).toBe('faster');
  });

  it('calls the same counts equivalent, and one round a side inconclusive', () => {
    expect(compareUnpairedT([5, 5, 5], [5, 5, 5]).verdict).toBe('equivalent');
    expect(compareUnpairedT([100, 100.01, 99.99], [100.005, 99.995, 100]).verdict).toBe('equivalent');
    const one = compareUnpairedT([100], [120]);
    expect(one).toMatchObject({ verdict: 'inconclusive', coverage: 0 });
    expect(one.ratio).toBeCloseTo(1.2, 10);
  });
});
