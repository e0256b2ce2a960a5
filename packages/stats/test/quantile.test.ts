import { describe, expect, it } from 'vitest';
import { median, medianInPlace, quantile, quantileInPlace, quantileSorted, selectInPlace } from '../src/quantile.ts';
import { createRandom } from '../src/random.ts';

describe('quantile (Hyndman & Fan type 7)', () => {
  const s = [1, 1, 2, 3, 4, 5, 6, 9];
  it('matches R/NumPy type-7 values (python statistics.quantiles inclusive)', () => {
    expect(quantile(s, 0.25)).toBeCloseTo(1.75, 12);
    expect(quantile(s, 0.5)).toBeCloseTo(3.5, 12);
    expect(quantile(s, 0.75)).toBeCloseTo(5.25, 12);
    expect(quantile(s, 0.05)).toBeCloseTo(1.0, 12);
    expect(quantile(s, 0.95)).toBeCloseTo(7.95, 12);
  });
  it('returns the extremes at q = 0 and q = 1 and the value for n = 1', () => {
    expect(quantile(s, 0)).toBe(1);
    expect(quantile(s, 1)).toBe(9);
    expect(quantile([42], 0.3)).toBe(42);
  });
  it('throws on empty, unsorted, NaN or out-of-range q', () => {
    expect(() => quantile([], 0.5)).toThrow(/empty/);
    expect(() => quantile([2, 1], 0.5)).toThrow(/sorted/);
    expect(() => quantile([1, NaN], 0.5)).toThrow(/NaN/);
    expect(() => quantile([1, 2], 1.5)).toThrow(RangeError);
  });
});

describe('selection and median', () => {
  it('selectInPlace agrees with sorting on random arrays with duplicates', () => {
    const random = createRandom(7);
    for (let trial = 0; trial < 300; trial++) {
      const len = 1 + Math.floor(random() * 40);
      const values = Array.from({ length: len }, () => Math.floor(random() * 10));
      const sorted = [...values].sort((a, b) => a - b);
      const k = Math.floor(random() * len);
      const buf = Float64Array.from(values);
      expect(selectInPlace(buf, len, k)).toBe(sorted[k]);
      for (let i = 0; i < k; i++) expect(buf[i]).toBeLessThanOrEqual(buf[k] as number);
      for (let i = k + 1; i < len; i++) expect(buf[i]).toBeGreaterThanOrEqual(buf[k] as number);
      expect(medianInPlace(Float64Array.from(values), len)).toBeCloseTo(quantile(sorted, 0.5), 12);
    }
  });
  it('quantileInPlace reads what quantileSorted reads from the sorted array, at every level', () => {
    const random = createRandom(8);
    for (let trial = 0; trial < 200; trial++) {
      const values = Array.from({ length: 1 + Math.floor(random() * 30) }, () => Math.floor(random() * 8) / 4);
      const sorted = Float64Array.from(values).sort();
      for (const q of [0, 0.025, 0.1, 0.5, 0.9, 0.975, 1]) expect(quantileInPlace(Float64Array.from(values), q)).toBe(quantileSorted(sorted, q));
    }
  });
  it('median copies its input and averages the two middle values', () => {
    const v = [5, 1, 4, 2];
    expect(median(v)).toBe(3);
    expect(v).toEqual([5, 1, 4, 2]);
    expect(() => median([])).toThrow(/empty/);
  });
});
