/**
 * What a reader of a table relies on, as properties over generated data: an
 * interval holds its estimate, a word agrees with its interval, quantiles
 * are ordered, adjusted p-values never fall below the raw ones, a process
 * (pair) counts once, and an unpaired interval is the textbook Welch one.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyFdr,
  benjaminiHochberg,
  classify,
  comparePaired,
  compareUnpaired,
  median,
  pairRounds,
  pairedStopping,
  processesOf,
  quantile,
  studentTQuantile,
  summarizeArm,
  summarizeRounds,
  welchInference,
  type PairableRound,
} from '../src/index.ts';

/** Positive timings, a few orders of magnitude apart. */
const timing = fc.double({ min: 1, max: 1e4, noNaN: true });
const round = fc.array(timing, { minLength: 1, maxLength: 7 });
const shuffled = <T>(xs: readonly T[], seed: number): T[] => {
  const out = [...xs];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};
const sortedCopy = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);

describe('quantiles', () => {
  it('are ordered in q and lie between the smallest and the largest value', () => {
    fc.assert(
      fc.property(fc.array(timing, { minLength: 1, maxLength: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (xs, p, q) => {
        const s = sortedCopy(xs);
        const [lo, hi] = p <= q ? [p, q] : [q, p];
        expect(quantile(s, lo)).toBeLessThanOrEqual(quantile(s, hi));
        expect(quantile(s, 0)).toBe(s[0]);
        expect(quantile(s, 1)).toBe(s[s.length - 1]);
        expect(median(shuffled(xs, xs.length))).toBe(quantile(s, 0.5));
      }),
    );
  });
});

describe('summarizeRounds: a summary of the samples, whatever order they came in', () => {
  it('min, max, quartiles and median do not depend on the order of samples or rounds', () => {
    fc.assert(
      fc.property(fc.array(round, { minLength: 1, maxLength: 8 }), fc.integer(), (rounds, seed) => {
        const a = summarizeRounds(rounds);
        const b = summarizeRounds(shuffled(rounds.map((r) => shuffled(r, seed)), seed + 1));
        const pooled = sortedCopy(rounds.flat());
        expect(a.min).toBe(pooled[0]);
        expect(a.max).toBe(pooled[pooled.length - 1]);
        expect(a.p25).toBe(quantile(pooled, 0.25));
        expect(a.p75).toBe(quantile(pooled, 0.75));
        for (const key of ['min', 'max', 'p25', 'p75', 'median', 'mad'] as const) expect(b[key]).toBe(a[key]);
      }),
    );
  });

  it("a process's median is the median of all its rounds' samples, and the interval holds the estimate", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), round), { minLength: 1, maxLength: 14 }), (labelled) => {
        const rounds = labelled.map(([, r]) => r);
        const processes = labelled.map(([p]) => p);
        const s = summarizeRounds(rounds, { processes });
        const byProcess = new Map<number, number[]>();
        labelled.forEach(([p, r]) => byProcess.set(p, [...(byProcess.get(p) ?? []), ...r]));
        expect(s.processes).toBe(byProcess.size);
        expect(s.processMedians).toEqual([...byProcess.values()].map(median));
        if (s.ci) {
          expect(s.ci[0]).toBeLessThanOrEqual(s.median);
          expect(s.median).toBeLessThanOrEqual(s.ci[1]);
          expect(s.median).toBe(median(s.processMedians));
        } else expect(s.processes).toBeLessThan(5);
      }),
    );
  });
});

describe('a word agrees with its interval, for every interval', () => {
  const edge = fc.oneof(fc.double({ min: -0.2, max: 0.2, noNaN: true }), fc.constantFrom(0, Math.log1p(0.01), -Math.log1p(0.01)));
  it('faster/slower only when the interval excludes 1 and the estimate is past the threshold; equivalent only inside the band', () => {
    fc.assert(
      fc.property(edge, edge, edge, (x, y, z) => {
        const [lo, est, hi] = [x, y, z].sort((a, b) => a - b) as [number, number, number];
        const tau = Math.log1p(0.01);
        const word = classify(est, [lo, hi], 0.01);
        const expected = hi < 0 ? (est < -tau ? 'faster' : 'small') : lo > 0 ? (est > tau ? 'slower' : 'small') : lo >= -tau && hi <= tau ? 'equivalent' : 'inconclusive';
        expect(word).toBe(expected);
      }),
    );
  });

  it('an interval touching 1 is not a difference; an estimate exactly at the threshold is small; the band includes its edges', () => {
    const tau = Math.log1p(0.01);
    expect(classify(-0.5, [-1, 0], 0.01)).toBe('inconclusive');
    expect(classify(0.5, [0, 1], 0.01)).toBe('inconclusive');
    expect(classify(-tau, [-2 * tau, -tau / 2], 0.01)).toBe('small');
    expect(classify(tau, [tau / 2, 2 * tau], 0.01)).toBe('small');
    expect(classify(0, [-tau, tau], 0.01)).toBe('equivalent');
  });

  it('a paired comparison: the interval holds the ratio, and the word is read from that interval', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(timing, fc.double({ min: 0.8, max: 1.25, noNaN: true })), { minLength: 1, maxLength: 12 }), ([...pairs]) => {
        const c = comparePaired(
          pairs.map(([b]) => b),
          pairs.map(([b, f]) => b * f),
        );
        expect(c.ci[0]).toBeLessThanOrEqual(c.ratio * (1 + 1e-12));
        expect(c.ratio).toBeLessThanOrEqual(c.ci[1] * (1 + 1e-12));
        const logCi = Number.isFinite(c.ci[1]) ? ([Math.log(c.ci[0]), Math.log(c.ci[1])] as const) : undefined;
        expect(c.verdict).toBe(classify(Math.log(c.ratio), logCi, c.threshold));
      }),
    );
  });
});

describe('the unit of replication counts once', () => {
  const lockstep = (process: number, samples: number[], i: number): PairableRound => ({ round: i, samples, turns: { process } });

  it('pairs from the same two warm processes are one unit; sets of fresh processes are each their own', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), round, round), { minLength: 1, maxLength: 10 }), (sets) => {
        const base = sets.map(([bp, , b], i) => lockstep(bp, b, i));
        const cand = sets.map(([, cp, , c], i) => lockstep(cp, c, i));
        const pairs = pairRounds(base, cand);
        expect(pairs.units).toEqual(sets.map(([bp, cp]) => `${bp}/${cp}`));
        const distinct = new Set(pairs.units).size;
        expect(comparePaired(pairs.baseline, pairs.candidate, { units: pairs.units! }).units).toBe(distinct);
        expect(summarizeArm(base).processes).toBe(new Set(sets.map(([bp]) => bp)).size);
        const fresh = pairRounds(
          sets.map(([, , b], i) => ({ round: i, samples: b, turns: undefined })),
          sets.map(([, , , c], i) => ({ round: i, samples: c, turns: undefined })),
        );
        expect(fresh.units).toBeUndefined();
      }),
    );
  });

  it('an arm names its processes only when every round says which', () => {
    expect(processesOf([lockstep(1, [1], 0), lockstep(1, [2], 1)])).toEqual([1, 1]);
    expect(processesOf([lockstep(1, [1], 0), { round: 1, samples: [2], turns: undefined }])).toBeUndefined();
    expect(processesOf([])).toBeUndefined();
  });
});

describe('the unpaired (Welch) interval', () => {
  it('is pinned to a hand-computed case: ln values [0, .1, .2] against [.3, .5, .7, .9]', () => {
    // Means 0.1 and 0.6; variances of the means 0.01/3 and (0.2/3)/4; se √0.02;
    // Welch–Satterthwaite df 0.0004 / ((0.01/3)²/2 + (0.2/12)²/3) = 4.075 → 4; t(0.975, 4) = 2.776445.
    const inf = welchInference({ values: [0, 0.1, 0.2] }, { values: [0.3, 0.5, 0.7, 0.9] });
    expect(inf.estimate).toBeCloseTo(0.5, 12);
    expect(inf.se).toBeCloseTo(Math.sqrt(0.02), 12);
    expect(inf.df).toBe(4);
    expect(inf.units).toBe(3);
    const c = compareUnpaired([0, 0.1, 0.2].map(Math.exp), [0.3, 0.5, 0.7, 0.9].map(Math.exp));
    expect(c.ratio).toBeCloseTo(Math.exp(0.5), 10);
    expect(c.ci[0]).toBeCloseTo(1.1133253723, 6);
    expect(c.ci[1]).toBeCloseTo(2.4415879634, 6);
    expect(c.units).toBe(3);
  });

  it('has the Welch–Satterthwaite degrees of freedom, rounded down, for any two arms', () => {
    const arm = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 2, maxLength: 8 });
    /** The variance of an arm's mean. */
    const varianceOfMean = (xs: number[]): number => {
      const m = xs.reduce((a, x) => a + x, 0) / xs.length;
      return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length;
    };
    fc.assert(
      fc.property(arm, arm, (a, b) => {
        const [va, vb] = [varianceOfMean(a), varianceOfMean(b)];
        fc.pre(va + vb > 1e-12);
        const satterthwaite = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
        const inf = welchInference({ values: a }, { values: b });
        expect(inf.se).toBeCloseTo(Math.sqrt(va + vb), 12);
        // Rounding in the last bits can only matter where the value is a whole number.
        if (Math.abs(satterthwaite - Math.round(satterthwaite)) > 1e-9) expect(inf.df).toBe(Math.max(1, Math.floor(satterthwaite)));
      }),
    );
  });

  it("an arm's rounds from one process are one unit", () => {
    const inf = welchInference({ values: [0, 0.1, 0.2, 0.2], units: [1, 2, 3, 3] }, { values: [0.3, 0.5, 0.7, 0.9] });
    expect(inf.units).toBe(3);
    expect(inf.estimate).toBeCloseTo(0.5, 12);
    expect(welchInference({ values: [0, 0.1, 0.2] }, { values: [0.3, 0.3, 0.3], units: ['a', 'a', 'a'] }).units).toBe(1);
  });
});

describe("Student's t quantile", () => {
  it('is symmetric about 0 and increasing in p, for every df', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.499, noNaN: true }), fc.double({ min: 0.001, max: 0.499, noNaN: true }), fc.integer({ min: 1, max: 60 }), (p, q, df) => {
        expect(studentTQuantile(p, df)).toBeCloseTo(-studentTQuantile(1 - p, df), 8);
        expect(studentTQuantile(p, df)).toBeLessThan(0);
        // The bisection stops at 1e-12 relative: p and q closer than that may come out in either order.
        if (p <= q) expect(studentTQuantile(p, df)).toBeLessThanOrEqual(studentTQuantile(q, df) + 1e-9 * Math.abs(studentTQuantile(q, df)));
        if (q - p > 1e-6) expect(studentTQuantile(p, df)).toBeLessThan(studentTQuantile(q, df));
      }),
    );
    // Table values: t(0.025, 4) and t(0.05, 10).
    expect(studentTQuantile(0.025, 4)).toBeCloseTo(-2.776445, 5);
    expect(studentTQuantile(0.05, 10)).toBeCloseTo(-1.812461, 5);
  });
});

describe('false discovery rate', () => {
  it('BH adjusted p-values are never below the raw ones, at most 1, and in the order of the raw ones', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }), (ps) => {
        const q = benjaminiHochberg(ps);
        ps.forEach((p, i) => {
          // m/j·p: one rounding of a product and a quotient may land an ulp below p.
          expect(q[i]).toBeGreaterThanOrEqual(p * (1 - 1e-15));
          expect(q[i]).toBeLessThanOrEqual(1);
          ps.forEach((p2, j) => {
            if (p <= p2) expect(q[i]).toBeLessThanOrEqual(q[j]!);
          });
        });
      }),
    );
  });

  it('a cell whose adjusted p equals α is selected (the step-up test rejects q ≤ α), and the level counts it', () => {
    const cell = comparePaired([1, 1, 1, 1], [1.1, 1.2, 1.1, 1.2]);
    const read = applyFdr([{ ...cell, pValue: 0.05 }, { ...cell, pValue: 0.05 }], { alpha: 0.05 });
    expect(read.map((c) => c.qValue)).toEqual([0.05, 0.05]);
    // Both selected: 1 − 2·0.05/2; none selected would read at 1 − 0.05/2.
    expect(read[0]!.confidence).toBeCloseTo(0.95, 12);
  });
});

describe('the stopping rule', () => {
  it('judges the wider side of the interval, and stops exactly when it is within the target', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(timing, fc.double({ min: 0.7, max: 1.4, noNaN: true })), { minLength: 3, maxLength: 12 }), fc.constantFrom(0.01, 0.02, 0.1), (pairs, target) => {
        const d = pairedStopping(
          pairs.map(([b]) => b),
          pairs.map(([b, f]) => b * f),
          { target },
        );
        const upper = d.ci[1] / d.ratio - 1;
        const lower = 1 - d.ci[0] / d.ratio;
        expect(d.halfWidth).toBeGreaterThanOrEqual(upper);
        expect(d.halfWidth).toBeGreaterThanOrEqual(lower);
        expect(d.reached).toBe(d.halfWidth <= target);
        expect(d.moreRounds === 0).toBe(d.reached);
      }),
    );
  });

  it('"~N more process pairs": the interval narrows like 1/√units, so units grow by the squared ratio of log half-widths', () => {
    // Log ratios ±0.1 around 0: mean 0, sd 0.1069 (n = 8), t(0.975, 7) = 2.3646, half-width exp(0.0894) − 1 = 9.35%.
    const d = pairedStopping([1, 1, 1, 1, 1, 1, 1, 1], [0.1, -0.1, 0.1, -0.1, 0.1, -0.1, 0.1, -0.1].map(Math.exp), { target: 0.02, maxRounds: 100 });
    expect(d.rounds).toBe(8);
    expect(d.halfWidth).toBeCloseTo(Math.exp(2.3646243 * Math.sqrt(0.08 / 7 / 8)) - 1, 5);
    // On the log scale the lower side is the wider, −ln(1 − 0.0935) = 0.0982:
    // 8 · (0.0982 / ln 1.02)² = 196.8 → 197 units in all, 189 more; beyond a budget of 100.
    expect(d.rounds + d.moreRounds).toBe(Math.ceil(8 * (-Math.log(1 - d.halfWidth) / Math.log1p(0.02)) ** 2));
    expect(d.moreRounds).toBe(189);
    expect(d.withinBudget).toBe(false);
    const none = pairedStopping([], []);
    expect(none.moreRounds).toBe(3);
    expect(none.reached).toBe(false);
  });
});

describe("summarizeRounds' spread", () => {
  it('is the interquartile range of all samples relative to the estimate, with or without an interval', () => {
    fc.assert(
      fc.property(fc.array(round, { minLength: 1, maxLength: 8 }), (rounds) => {
        const s = summarizeRounds(rounds);
        expect(s.rsd).toBeCloseTo((s.p75 - s.p25) / s.median, 12);
      }),
    );
  });
});
