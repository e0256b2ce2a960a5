import { describe, expect, it } from 'vitest';
import { classify, comparePaired, compareUnpaired, growthFactorToDecide, type Comparison } from '../src/verdict.ts';
import { lognormal, normalSource } from './helpers.ts';

const ln = Math.log;

function expectCiContainsRatio(c: Comparison): void {
  expect(c.ci[0]).toBeLessThanOrEqual(c.ratio);
  expect(c.ratio).toBeLessThanOrEqual(c.ci[1]);
}

describe('classify (verdict rules on the log scale)', () => {
  const t = 0.01;
  it('faster / slower need the CI to exclude 1 and the estimate beyond the threshold', () => {
    expect(classify(ln(0.95), [ln(0.9), ln(0.995)], t)).toBe('faster');
    expect(classify(ln(1.05), [ln(1.005), ln(1.1)], t)).toBe('slower');
    expect(classify(ln(0.995), [ln(0.992), ln(0.998)], t)).toBe('small'); // certain, under the threshold: its own word
    expect(classify(ln(0.95), [ln(0.9), ln(1.001)], t)).toBe('inconclusive');
    expect(classify(ln(0.995), [ln(0.985), ln(0.999)], t)).toBe('small'); // excludes 1, effect < threshold
    expect(classify(ln(1.001), [ln(0.998), ln(1.004)], t)).toBe('equivalent'); // holds 1, inside the band
    expect(classify(0, undefined, t)).toBe('inconclusive'); // no interval, no verdict
  });
  it('the band is [1/(1+t), 1+t], symmetric in log space', () => {
    expect(classify(0, [ln(0.9901), ln(1.0099)], t)).toBe('equivalent');
    expect(classify(0, [ln(0.99), ln(1.01)], t)).toBe('inconclusive'); // 0.99 < 1/1.01
    expect(classify(ln(1 / 1.0101), [ln(0.98), ln(0.999)], t)).toBe('faster');
  });
});

describe('growthFactorToDecide (CI sides shrink like 1/sqrt(n))', () => {
  it('effect route: needs the near side of the CI to clear 0', () => {
    expect(growthFactorToDecide(0.05, [-0.01, 0.11], 0.01)).toBeCloseTo(1.44, 12);
    expect(growthFactorToDecide(-0.05, [-0.11, 0.01], 0.01)).toBeCloseTo(1.44, 12);
  });
  it('equivalence route: both sides must fit in the band', () => {
    const tau = Math.log1p(0.01);
    expect(growthFactorToDecide(0, [-0.02, 0.02], 0.01)).toBeCloseTo((0.02 / tau) ** 2, 12);
  });
  it('an estimate exactly at the threshold can never be decided', () => {
    const tau = Math.log1p(0.01);
    expect(growthFactorToDecide(tau, [0, 2 * tau], 0.01)).toBe(Infinity);
  });
});

describe('comparePaired', () => {
  it('detects a 5% slowdown in 30 independent pairs with 2% lognormal noise', () => {
    const z = normalSource(1);
    const base = lognormal(z, 30, 100, 0.02);
    const cand = lognormal(z, 30, 105, 0.02);
    const c = comparePaired(base, cand);
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeGreaterThan(1.03);
    expect(c.ratio).toBeLessThan(1.07);
    expect(c.ci[0]).toBeGreaterThan(1);
    expect(c.pValue).toBeLessThan(0.001);
    expect(c).toMatchObject({ n: 30, units: 30, threshold: 0.01, confidence: 0.95 });
    expect(c.unitsToDecide).toBeUndefined();
    expectCiContainsRatio(c);
  });

  it('sets that share a unit count once: 8 sets in 2 process pairs give no interval', () => {
    const base = [100, 101, 99, 100, 100, 102, 98, 100];
    const cand = base.map((b) => b * 0.56);
    const c = comparePaired(base, cand, { units: [0, 0, 0, 0, 1, 1, 1, 1] });
    expect(c.units).toBe(2);
    expect(c.verdict).toBe('inconclusive');
    expect(Number.isFinite(c.ci[1])).toBe(false);
    expect(c.ratio).toBeCloseTo(0.56, 10);
    // the same eight values as eight units decide
    expect(comparePaired(base, cand).verdict).toBe('faster');
  });

  it('a unit is the mean of its sets: the interval is the t on the unit means', () => {
    const base = [1, 1, 1, 1, 1, 1];
    const cand = [Math.exp(0.1), Math.exp(0.3), Math.exp(0.2), Math.exp(0.2), Math.exp(0.15), Math.exp(0.25)];
    const c = comparePaired(base, cand, { units: ['a', 'a', 'b', 'b', 'c', 'c'] });
    expect(c.units).toBe(3);
    expect(Math.log(c.ratio)).toBeCloseTo(0.2, 12); // unit means 0.2, 0.2, 0.2
    expect(c.ci[0]).toBeCloseTo(c.ci[1], 12); // no spread between units
  });

  it('swapping the arms mirrors the result exactly', () => {
    const z = normalSource(2);
    const base = lognormal(z, 20, 100, 0.03);
    const cand = lognormal(z, 20, 93, 0.03);
    const a = comparePaired(base, cand);
    const b = comparePaired(cand, base);
    expect(a.verdict).toBe('faster');
    expect(b.verdict).toBe('slower');
    expect(b.ratio).toBeCloseTo(1 / a.ratio, 12);
    expect(b.ci[0]).toBeCloseTo(1 / a.ci[1], 12);
    expect(b.ci[1]).toBeCloseTo(1 / a.ci[0], 12);
    expect(b.pValue).toBeCloseTo(a.pValue, 12);
  });

  it('identical arms are equivalent, never faster/slower', () => {
    const same = [100, 100, 100, 100, 100, 100, 100, 100];
    expect(comparePaired(same, same)).toMatchObject({ ratio: 1, ci: [1, 1], pValue: 1, verdict: 'equivalent' });
    const q1 = [3, 3, 4, 3, 3, 4, 3, 3, 3, 4, 3, 3];
    const q2 = [3, 3, 3, 4, 3, 4, 3, 3, 3, 3, 4, 3];
    const v = comparePaired(q1, q2).verdict;
    expect(v === 'equivalent' || v === 'inconclusive').toBe(true);
  });

  it('a constant ratio with zero noise is decided exactly', () => {
    const base = [10, 20, 30];
    const c = comparePaired(base, base.map((v) => v * 2));
    expect(c.verdict).toBe('slower');
    expect(c.ci[0]).toBeCloseTo(2, 12);
    expect(c.pValue).toBe(0);
  });

  it('a tiny real effect with little noise is certain but small, or equivalent', () => {
    const z = normalSource(4);
    const c = comparePaired(lognormal(z, 30, 100, 0.001), lognormal(z, 30, 100.2, 0.001));
    expect(['small', 'equivalent']).toContain(c.verdict);
    expect(c.ci[1]).toBeLessThan(1.01);
  });

  it('with fewer than 3 units: no interval, inconclusive', () => {
    const c = comparePaired([1, 2], [2, 4]);
    expect(c).toMatchObject({ verdict: 'inconclusive', units: 2, ci: [0, Infinity] });
    expect(c.ratio).toBeCloseTo(2, 12);
  });

  it('inconclusive results estimate how many units would decide, and more units do decide', () => {
    const z = normalSource(5);
    const c = comparePaired(lognormal(z, 8, 100, 0.04), lognormal(z, 8, 104, 0.04));
    expect(c.verdict).toBe('inconclusive');
    expect(c.unitsToDecide).toBeGreaterThan(8);
    const more = (c.unitsToDecide as number) * 2;
    const z2 = normalSource(6);
    expect(comparePaired(lognormal(z2, more, 100, 0.04), lognormal(z2, more, 104, 0.04)).verdict).toBe('slower');
  });

  it('A/A with a process effect shared by a pair\'s sets: the interval on units keeps its level', () => {
    // 5 process pairs × 4 sets, intraclass correlation 0.5; 2000 seeded tables of one cell.
    const z = normalSource(7);
    let excludes = 0;
    const trials = 2000;
    for (let s = 0; s < trials; s++) {
      const base: number[] = [];
      const cand: number[] = [];
      const units: number[] = [];
      for (let u = 0; u < 5; u++) {
        const pairEffect = 0.03 * z();
        for (let k = 0; k < 4; k++) {
          base.push(100);
          cand.push(100 * Math.exp(pairEffect + 0.03 * z()));
          units.push(u);
        }
      }
      const c = comparePaired(base, cand, { units, threshold: 0 });
      if (c.ci[0] > 1 || c.ci[1] < 1) excludes++;
    }
    // nominal 5%; the binomial sd at 2000 trials is 0.5 points
    expect(excludes / trials).toBeGreaterThan(0.035);
    expect(excludes / trials).toBeLessThan(0.065);
  });

  it('validates inputs', () => {
    expect(() => comparePaired([1, 2], [1])).toThrow(/pairs must match/);
    expect(() => comparePaired([], [])).toThrow(/no pairs/);
    expect(() => comparePaired([1, 0], [1, 1])).toThrow(/> 0/);
    expect(() => comparePaired([1, 2], [1, -2])).toThrow(/> 0/);
    expect(() => comparePaired([1], [1], { threshold: -0.1 })).toThrow(/threshold/);
    expect(() => comparePaired([1], [1], { confidence: 95 })).toThrow(/confidence/);
  });
});

describe('compareUnpaired', () => {
  it('detects a 5% slowdown between two runs of 20 processes', () => {
    const z = normalSource(10);
    const c = compareUnpaired(lognormal(z, 20, 100, 0.02), lognormal(z, 20, 105, 0.02));
    expect(c.verdict).toBe('slower');
    expect(c).toMatchObject({ n: 40, nBaseline: 20, nCandidate: 20, units: 20 });
    expectCiContainsRatio(c);
  });

  it('rounds of one process count once on their side', () => {
    const z = normalSource(13);
    const a = lognormal(z, 8, 100, 0.02);
    const b = lognormal(z, 8, 110, 0.02);
    const c = compareUnpaired(a, b, { baselineUnits: [0, 0, 0, 0, 1, 1, 1, 1], candidateUnits: [0, 0, 0, 0, 1, 1, 1, 1] });
    expect(c.units).toBe(2);
    expect(c.verdict).toBe('inconclusive');
  });

  it('identical runs are equivalent; swapping mirrors', () => {
    const z = normalSource(11);
    const a = lognormal(z, 15, 100, 0.001);
    expect(compareUnpaired(a, [...a]).verdict).toBe('equivalent');
    const b = lognormal(z, 12, 90, 0.02);
    const x = compareUnpaired(a, b);
    const y = compareUnpaired(b, a);
    expect(x.verdict).toBe('faster');
    expect(y.verdict).toBe('slower');
    expect(y.ratio).toBeCloseTo(1 / x.ratio, 12);
  });

  it('A/A calibration: 2000 seeded simulations keep the interval near its level', () => {
    const z = normalSource(12);
    let excludes = 0;
    for (let s = 0; s < 2000; s++) {
      const c = compareUnpaired(lognormal(z, 6, 100, 0.03), lognormal(z, 6, 100, 0.03), { threshold: 0 });
      if (c.ci[0] > 1 || c.ci[1] < 1) excludes++;
    }
    expect(excludes / 2000).toBeGreaterThan(0.03);
    expect(excludes / 2000).toBeLessThan(0.065);
  });

  it('validates inputs', () => {
    expect(() => compareUnpaired([], [1])).toThrow(/both arms/);
    expect(() => compareUnpaired([1, NaN], [1])).toThrow(/> 0/);
  });
});
