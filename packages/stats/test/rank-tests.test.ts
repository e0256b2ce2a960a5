import { describe, expect, it } from 'vitest';
import {
  hodgesLehmann,
  mannWhitney,
  mannWhitneyNullUntied,
  midranks,
  rankSumNull,
  signedRankNull,
  signedRankNullUntied,
  wilcoxonSignedRank,
} from '../src/rank-tests.ts';
import fc from 'fast-check';
import { normalQuantile } from '../src/normal.ts';
import { createRandom } from '../src/random.ts';
import { normalSource } from './helpers.ts';

// Expected values: published results where they exist (the data of Hollander & Wolfe 1973,
// pp. 29 and 69, which are also R's wilcox.test examples), otherwise brute-force enumeration in
// plain Python.

describe('Wilcoxon signed-rank / one-sample Hodges-Lehmann', () => {
  it('Hollander & Wolfe (1973) p. 29, Hamilton depression scale: V = 40, p = 0.039', () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const r = wilcoxonSignedRank(x.map((v, i) => v - (y[i] as number)));
    expect(r.statistic).toBe(40);
    expect(r.pValue).toBeCloseTo(0.0390625, 12); // R: one-sided 0.01953
    expect(r.estimate).toBeCloseTo(0.46, 12); // R: (pseudo)median 0.46
    expect(r.ci[0]).toBeCloseTo(0.01, 12); // R: 0.010 0.786
    expect(r.ci[1]).toBeCloseTo(0.786, 12);
    expect(r.coverage).toBeCloseTo(0.9609375, 12);
    expect(r).toMatchObject({ exact: true, attained: true });
  });

  it('zeros and ties: exact conditional p-value (brute force over sign flips) and T+ = Walsh count', () => {
    const r = wilcoxonSignedRank([0, 0, 1, -1, 2, 2, 3, -3, 4, 5, -0.5, 6]);
    expect(r.pValue).toBeCloseTo(0.09765625, 12);
    expect(r.statistic).toBe(60.5);
    expect(r.estimate).toBe(1.5);
  });

  it('large n uses the normal approximation (values from an independent Python computation)', () => {
    const d = Array.from({ length: 60 }, (_, i) => Math.sin(i * 1.7) + 0.3);
    const r = wilcoxonSignedRank(d);
    expect(r.exact).toBe(false);
    expect(r.pValue).toBeCloseTo(0.0031197694647672287, 12);
    expect(r.estimate).toBeCloseTo(0.30059442999312475, 12);
    expect(r.ci[0]).toBeCloseTo(0.11791115127454627, 12);
    expect(r.ci[1]).toBeCloseTo(0.4705580738152201, 12);
  });

  it('all-zero differences give estimate 0, CI [0, 0], p = 1', () => {
    expect(wilcoxonSignedRank([0, 0, 0, 0, 0, 0, 0, 0])).toMatchObject({ estimate: 0, ci: [0, 0], pValue: 1, attained: true });
  });

  it('too few pairs for 95% (n < 6): full-range CI and attained = false, no throw', () => {
    const r = wilcoxonSignedRank([0.1, 0.3, -0.2, 0.5, 0.4]);
    expect(r.attained).toBe(false);
    expect(r.ci).toEqual([-0.2, 0.5]);
    expect(wilcoxonSignedRank([0.3, 0.1, 0.2, 0.5, 0.4, 0.6]).attained).toBe(true);
    expect(wilcoxonSignedRank([0.2])).toMatchObject({ estimate: 0.2, ci: [0.2, 0.2], attained: false });
  });

  it('is antisymmetric: negating the data negates the estimate and CI, keeps p', () => {
    const z = normalSource(5);
    const d = Array.from({ length: 17 }, () => 0.2 + z());
    const a = wilcoxonSignedRank(d);
    const b = wilcoxonSignedRank(d.map((v) => -v));
    expect(b.estimate).toBeCloseTo(-a.estimate, 14);
    expect(b.ci[0]).toBeCloseTo(-a.ci[1], 14);
    expect(b.ci[1]).toBeCloseTo(-a.ci[0], 14);
    expect(b.pValue).toBeCloseTo(a.pValue, 14);
  });

  it('CI excludes 0 exactly when p <= alpha, and always contains the estimate (continuous data)', () => {
    const z = normalSource(6);
    let agreements = 0;
    let rejections = 0;
    for (let t = 0; t < 300; t++) {
      const n = 6 + (t % 40);
      const d = Array.from({ length: n }, () => 0.25 * (t % 3) + z());
      const r = wilcoxonSignedRank(d);
      const excludes = r.ci[0] > 0 || r.ci[1] < 0;
      if (excludes === r.pValue <= 0.05) agreements++;
      if (excludes) rejections++;
      expect(r.ci[0]).toBeLessThanOrEqual(r.estimate);
      expect(r.estimate).toBeLessThanOrEqual(r.ci[1]);
    }
    expect(agreements).toBe(300);
    expect(rejections).toBeGreaterThan(50);
  });

  it('hodgesLehmann is the median of the Walsh averages', () => {
    // Walsh averages of [1, 2, 10], sorted: 1, 1.5, 2, 5.5, 6, 10 -> median (2 + 5.5) / 2
    expect(hodgesLehmann([1, 2, 10])).toBe(3.75);
    expect(hodgesLehmann([4])).toBe(4);
    expect(() => hodgesLehmann([])).toThrow(/empty/);
  });
});

describe('Mann-Whitney / two-sample Hodges-Lehmann', () => {
  it('Hollander & Wolfe (1973) p. 69, chorioamnion permeability: W = 35, p = 0.254', () => {
    const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const y = [1.15, 0.88, 0.9, 0.74, 1.21];
    const r = mannWhitney(y, x); // shift of x relative to y
    expect(r.statistic).toBe(35);
    expect(r.pValue).toBeCloseTo(0.2544122544122544, 12); // R: one-sided 0.1272
    expect(r.estimate).toBeCloseTo(0.305, 12);
    expect(r.ci[0]).toBeCloseTo(-0.15, 12);
    expect(r.ci[1]).toBeCloseTo(0.76, 12);
    expect(r.coverage).toBeCloseTo(0.9600399600399601, 12);
  });

  it('ties: exact conditional p-value (brute force over all subsets)', () => {
    const r = mannWhitney([10, 11, 11, 12, 13, 13, 13, 15], [12, 13, 14, 14, 15, 16, 16, 17, 18]);
    expect(r.pValue).toBeCloseTo(0.009296585767174003, 12);
    expect(r.statistic).toBe(62.5);
    expect(r.estimate).toBe(3);
  });

  it('large samples use the normal approximation with tie correction', () => {
    const x = Array.from({ length: 60 }, (_, i) => Math.cos(i * 0.9) * 2);
    const y = Array.from({ length: 70 }, (_, i) => Math.cos(i * 1.3) * 2 + 0.6);
    const r = mannWhitney(x, y);
    expect(r.exact).toBe(false);
    expect(r.statistic).toBe(2637);
    expect(r.pValue).toBeCloseTo(0.012226712957121338, 12);
    expect(r.estimate).toBeCloseTo(0.5968746596340642, 12);
    expect(r.ci[0]).toBeCloseTo(0.1972269778015856, 12);
    expect(r.ci[1]).toBeCloseTo(1.0699384188756969, 12);
  });

  it('3 vs 3 cannot reach 95%: full-range CI, attained = false; 4 vs 4 can', () => {
    const r = mannWhitney([1, 2, 3], [2, 4, 6]);
    expect(r.attained).toBe(false);
    expect(r.ci).toEqual([-1, 5]);
    expect(mannWhitney([1, 2, 3, 4], [2, 4, 6, 8]).attained).toBe(true);
  });

  it('CI excludes 0 exactly when p <= alpha (continuous data, exact path)', () => {
    const z = normalSource(8);
    let agreements = 0;
    for (let t = 0; t < 200; t++) {
      const m = 4 + (t % 17);
      const n = 4 + ((t * 7) % 23);
      const x = Array.from({ length: m }, () => z());
      const y = Array.from({ length: n }, () => 0.5 * (t % 3) + z());
      const r = mannWhitney(x, y);
      if ((r.ci[0] > 0 || r.ci[1] < 0) === r.pValue <= 0.05) agreements++;
      expect(r.ci[0]).toBeLessThanOrEqual(r.estimate);
      expect(r.estimate).toBeLessThanOrEqual(r.ci[1]);
    }
    expect(agreements).toBe(200);
  });

  it('refuses inputs whose pairwise differences would not fit in memory', () => {
    const big = new Array<number>(5000).fill(1);
    expect(() => mannWhitney(big, big)).toThrow(/too many/);
  });
});

describe('null distributions', () => {
  it('signedRankNull equals brute-force enumeration, including tied weights', () => {
    for (const weights of [[1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 5, 5, 5, 9, 12], [3]]) {
      const pmf = signedRankNull(weights);
      const counts = new Array<number>(pmf.length).fill(0);
      for (let mask = 0; mask < 1 << weights.length; mask++) {
        let s = 0;
        weights.forEach((w, i) => (s += mask & (1 << i) ? w : 0));
        counts[s] = (counts[s] ?? 0) + 1;
      }
      counts.forEach((c, s) => expect(pmf[s]).toBeCloseTo(c / 2 ** weights.length, 15));
    }
  });

  it('rankSumNull equals brute-force enumeration of k-subsets', () => {
    const weights = [2, 4, 5, 5, 9, 10, 14, 14, 14, 20];
    const k = 4;
    const pmf = rankSumNull(weights, k);
    const counts = new Map<number, number>();
    let total = 0;
    const rec = (start: number, left: number, sum: number) => {
      if (left === 0) {
        counts.set(sum, (counts.get(sum) ?? 0) + 1);
        total++;
        return;
      }
      for (let i = start; i < weights.length; i++) rec(i + 1, left - 1, sum + (weights[i] as number));
    };
    rec(0, k, 0);
    expect(total).toBe(210);
    for (let s = 0; s < pmf.length; s++) expect(pmf[s]).toBeCloseTo((counts.get(s) ?? 0) / total, 15);
  });

  it('untied nulls are symmetric, sum to 1, and match the normal approximation near the switch-over', () => {
    const sr = signedRankNullUntied(50);
    const M = (50 * 51) / 2;
    expect(sr.length).toBe(M + 1);
    expect(sr.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(sr[10]).toBeCloseTo(sr[M - 10] as number, 18);
    // lower 2.5% point vs normal approximation with continuity correction
    let cdf = 0;
    let c = 0;
    for (let s = 0; s < sr.length && cdf + (sr[s] as number) <= 0.025; s++) {
      cdf += sr[s] as number;
      c = s + 1;
    }
    const sd = Math.sqrt((50 * 51 * 101) / 24);
    expect(Math.abs(c - Math.floor(M / 2 + 0.5 - normalQuantile(0.975) * sd))).toBeLessThanOrEqual(1);
    const mw = mannWhitneyNullUntied(7, 5);
    expect(mw.length).toBe(36);
    expect(mw.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(mw[0]).toBeCloseTo(1 / 792, 15); // 1 / C(12, 5)
    expect(mannWhitneyNullUntied(5, 7)).toEqual(mw);
  });

  it('midranks average tied positions and treat last-bit differences as ties', () => {
    const r = midranks([10, 20, 20, 30, Math.log(4 / 3), -Math.log(3 / 4)]);
    expect(Array.from(r.ranks)).toEqual([3, 4.5, 4.5, 6, 1.5, 1.5]);
    expect(r.tieSum).toBe(12);
    expect(r.ties).toBe(true);
  });
});

describe('inputs', () => {
  it('throws on empty or non-finite samples and bad confidence', () => {
    expect(() => wilcoxonSignedRank([])).toThrow(/empty/);
    expect(() => wilcoxonSignedRank([1, NaN])).toThrow(/non-finite/);
    expect(() => mannWhitney([], [1])).toThrow(/non-empty/);
    expect(() => mannWhitney([1], [2], 0)).toThrow(/confidence/);
  });
  it('the achieved coverage is at least the requested confidence whenever attained', () => {
    const random = createRandom(3);
    for (const conf of [0.8, 0.9, 0.95, 0.99]) {
      for (const n of [6, 9, 15, 30, 49, 80]) {
        const r = wilcoxonSignedRank(Array.from({ length: n }, () => random()), conf);
        if (r.attained) expect(r.coverage).toBeGreaterThanOrEqual(conf - 1e-9);
      }
    }
  });
});

describe('rank tests: which null, and what it covers', () => {
  it('the exact null up to 50 pairs and up to m + n times the smaller group of 5,000; the normal one beyond', () => {
    const d = (n: number): number[] => Array.from({ length: n }, (_, i) => Math.sin(i * 1.7) + 0.3);
    expect(wilcoxonSignedRank(d(50)).exact).toBe(true);
    expect(wilcoxonSignedRank(d(51)).exact).toBe(false);
    const x = (n: number): number[] => Array.from({ length: n }, (_, i) => Math.cos(i * 0.9));
    expect(mannWhitney(x(50), d(50)).exact).toBe(true);
    expect(mannWhitney(x(50), d(51)).exact).toBe(false);
  });

  it("the normal null's coverage (independent computation: Python, scipy.stats.norm)", () => {
    const d = Array.from({ length: 60 }, (_, i) => Math.sin(i * 1.7) + 0.3);
    expect(wilcoxonSignedRank(d).coverage).toBeCloseTo(0.950222052567406, 12);
    const x = Array.from({ length: 60 }, (_, i) => Math.cos(i * 0.9) * 2);
    const y = Array.from({ length: 70 }, (_, i) => Math.cos(i * 1.3) * 2 + 0.6);
    expect(mannWhitney(x, y).coverage).toBeCloseTo(0.950446224353221, 12);
  });

  it("too few for the confidence: the full range, and that range's own coverage", () => {
    expect(wilcoxonSignedRank([0.1, 0.3, -0.2, 0.5, 0.4]).coverage).toBe(1 - 2 / 32);
    expect(mannWhitney([1, 2, 3], [2, 4, 6]).coverage).toBeCloseTo(1 - 2 / 20, 15);
  });

  it('a confidence an interval attains exactly is attained (6 pairs at 1 − 2/64)', () => {
    const r = wilcoxonSignedRank([0.3, 0.1, 0.2, 0.5, 0.4, 0.6], 1 - 2 / 64);
    expect(r).toMatchObject({ attained: true, coverage: 1 - 2 / 64, ci: [0.1, 0.6] });
  });

  it('no difference at all has p = 1, exact or not', () => {
    expect(wilcoxonSignedRank(Array<number>(60).fill(0)).pValue).toBe(1);
    expect(mannWhitney(Array<number>(60).fill(1), Array<number>(70).fill(1)).pValue).toBe(1);
  });

  it('large samples with ties: the tie-corrected normal p-value (scipy.stats.mannwhitneyu, asymptotic, continuity corrected)', () => {
    const x = Array.from({ length: 60 }, (_, i) => Math.floor(Math.cos(i * 0.9) * 20 + 0.5));
    const y = Array.from({ length: 70 }, (_, i) => Math.floor(Math.cos(i * 1.3) * 20 + 0.5) + 6);
    const r = mannWhitney(x, y);
    expect(r.exact).toBe(false);
    expect(r.statistic).toBe(2636.5);
    expect(r.pValue).toBeCloseTo(0.012220568731601607, 12);
  });

  it('swapping the two samples keeps the p-value and mirrors the shift, ties or not', () => {
    const x = [10, 11, 11, 12, 13, 13, 13, 15];
    const y = [12, 13, 14, 14, 15, 16, 16, 17, 18];
    const a = mannWhitney(x, y);
    const b = mannWhitney(y, x);
    expect(b.pValue).toBeCloseTo(a.pValue, 14);
    expect(b.estimate).toBe(-a.estimate);
  });

  it('hodgesLehmann is the median of every pairwise average, itself included', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 12 }), (d) => {
        const walsh: number[] = [];
        d.forEach((a, i) => d.slice(i).forEach((b) => walsh.push((a + b) / 2)));
        walsh.sort((p, q) => p - q);
        const mid = (walsh.length - 1) / 2;
        expect(hodgesLehmann(d)).toBeCloseTo((walsh[Math.floor(mid)]! + walsh[Math.ceil(mid)]!) / 2, 10);
      }),
    );
  });

  it('a null of subsets ends at the sum of the k largest weights', () => {
    expect(rankSumNull([2, 4, 5, 5, 9], 2)).toHaveLength(9 + 5 + 1);
    expect(rankSumNull([2, 4, 5, 5, 9], 5)).toHaveLength(25 + 1);
  });

  it('ties are values within a relative 1e-10 of each other, at any magnitude', () => {
    expect(midranks([1e6, 1e6 * (1 + 1e-11)]).ties).toBe(true);
    expect(midranks([1e-6, 1e-6 * (1 + 1e-9)]).ties).toBe(false);
  });
});
