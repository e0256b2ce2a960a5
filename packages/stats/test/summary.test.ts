import { describe, expect, it } from 'vitest';
import { medianCI, summarize } from '../src/summary.ts';
import { createRandom } from '../src/random.ts';
import { normalSource } from './helpers.ts';

describe('medianCI (binomial order statistics)', () => {
  const seq = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);
  it('n = 20 uses order statistics 6 and 15 (coverage 95.86%)', () => {
    const ci = medianCI(seq(20));
    expect([ci.lowerRank, ci.upperRank]).toEqual([6, 15]);
    expect([ci.lower, ci.upper]).toEqual([6, 15]);
    expect(ci.coverage).toBeCloseTo(0.9586105346679688, 12);
    expect(ci.attained).toBe(true);
  });
  it('matches exact binomial ranks computed independently for other n', () => {
    // python: largest k with P(Bin(n, 1/2) <= k-1) <= 0.025
    expect(medianCI(seq(100))).toMatchObject({ lowerRank: 40, upperRank: 61 });
    expect(medianCI(seq(100)).coverage).toBeCloseTo(0.9647997997822951, 12);
    expect(medianCI(seq(10))).toMatchObject({ lowerRank: 2, upperRank: 9 });
    expect(medianCI(seq(6))).toMatchObject({ lowerRank: 1, upperRank: 6, attained: true });
    expect(medianCI(seq(6)).coverage).toBeCloseTo(0.96875, 12);
  });
  it('falls back to [min, max] and says so when n is too small', () => {
    const ci = medianCI(seq(5));
    expect(ci).toMatchObject({ lower: 1, upper: 5, attained: false });
    expect(ci.coverage).toBeCloseTo(1 - 2 / 32, 12);
  });
  it('does not underflow for very large n (agrees with the normal approximation)', () => {
    const n = 200_000;
    const ci = medianCI(seq(n));
    const approx = n / 2 - (1.959963984540054 * Math.sqrt(n)) / 2;
    expect(Math.abs(ci.lowerRank - approx)).toBeLessThan(2);
    expect(ci.upperRank).toBe(n - ci.lowerRank + 1);
    expect(ci.coverage).toBeGreaterThanOrEqual(0.95);
  });
  it('a higher confidence gives a wider interval', () => {
    expect(medianCI(seq(50), 0.99).lowerRank).toBeLessThan(medianCI(seq(50), 0.9).lowerRank);
  });
});

describe('summarize', () => {
  it('computes the descriptive statistics of 1..20', () => {
    const s = summarize(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(s).toMatchObject({ n: 20, min: 1, max: 20, mean: 10.5, median: 10.5, mad: 5, ci: [6, 15], outliers: 0 });
    expect(s.p25).toBeCloseTo(5.75, 12);
    expect(s.p75).toBeCloseTo(15.25, 12);
    expect(s.p5).toBeCloseTo(1.95, 12);
    expect(s.p95).toBeCloseTo(19.05, 12);
    expect(s.rsd).toBeCloseTo(9.5 / 10.5, 12);
    expect(s.ciHalfWidthRel).toBeCloseTo(4.5 / 10.5, 12);
  });
  it('counts samples outside the Tukey fences', () => {
    // p25 = 3.25, p75 = 7.75, IQR = 4.5: fences -3.5 and 14.5
    const s = summarize([1, 2, 3, 4, 5, 6, 7, 8, 9, 100]);
    expect(s.outliers).toBe(1);
    expect(summarize([-20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100]).outliers).toBe(2);
  });
  it('handles a single sample and constant samples without NaN', () => {
    const one = summarize([3]);
    expect(one).toMatchObject({ n: 1, median: 3, ci: [3, 3], mad: 0, rsd: 0, ciHalfWidthRel: 0 });
    const zeros = summarize([0, 0, 0]);
    expect(zeros.rsd).toBe(0);
    expect(Number.isNaN(zeros.ciHalfWidthRel)).toBe(false);
  });
  it('keeps the mean accurate for long samples of close values', () => {
    const v = Array.from({ length: 100_000 }, (_, i) => 1e9 + (i % 2 === 0 ? 0.1 : -0.1));
    expect(summarize(v).mean).toBeCloseTo(1e9, 6);
  });
  it('throws on empty or non-finite input and on a bad confidence', () => {
    expect(() => summarize([])).toThrow(/empty/);
    expect(() => summarize([1, NaN])).toThrow(/non-finite/);
    expect(() => summarize([1, Infinity])).toThrow(/non-finite/);
    expect(() => summarize([1, 2], 1)).toThrow(/confidence/);
  });
  it('the 95% CI of the median covers the true median in ~95% of seeded simulations', () => {
    // lognormal with median 100 and exponential with median ln 2, n = 20: nominal coverage 95.86%
    const normal = normalSource(11);
    const random = createRandom(12);
    let hitsLog = 0;
    let hitsExp = 0;
    const sims = 400;
    for (let s = 0; s < sims; s++) {
      const a = summarize(Array.from({ length: 20 }, () => 100 * Math.exp(0.2 * normal())));
      if (a.ci[0] <= 100 && 100 <= a.ci[1]) hitsLog++;
      const b = summarize(Array.from({ length: 20 }, () => -Math.log(1 - random())));
      if (b.ci[0] <= Math.LN2 && Math.LN2 <= b.ci[1]) hitsExp++;
    }
    for (const hits of [hitsLog, hitsExp]) {
      expect(hits / sims).toBeGreaterThan(0.93);
      expect(hits / sims).toBeLessThan(0.99);
    }
  });
});

describe('summarize: the edges a reader could trip on', () => {
  it('a spread around a zero median is infinitely wide relative to it, not 0 or NaN', () => {
    expect(summarize([-1, 0, 1]).rsd).toBe(Infinity);
  });

  it("a sample on Tukey's fence is not an outlier: only those outside it are", () => {
    // p25 = p75 = 1: both fences at 1; 0 and 2 lie outside.
    expect(summarize([0, 1, 1, 1, 2]).outliers).toBe(2);
  });

  it('the mean stays exact when a huge value cancels (compensated sum)', () => {
    expect(summarize([1, 1e100, 1, -1e100]).mean).toBe(0.5);
  });

  it('a confidence that an order-statistics interval attains exactly is attained (5 samples at 1 − 2/32)', () => {
    const ci = medianCI([1, 2, 3, 4, 5], 1 - 2 / 32);
    expect(ci).toMatchObject({ lowerRank: 1, upperRank: 5, attained: true });
    expect(ci.coverage).toBe(1 - 2 / 32);
  });
});
