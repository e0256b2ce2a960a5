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
    expect(classify(ln(0.995), [ln(0.992), ln(0.998)], t)).toBe('equivalent'); // excludes 1 but inside the band
    expect(classify(ln(0.95), [ln(0.9), ln(1.001)], t)).toBe('inconclusive');
    expect(classify(ln(0.995), [ln(0.985), ln(0.999)], t)).toBe('inconclusive'); // below 1, effect < threshold, CI leaves band
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
  it('detects a 5% slowdown in 30 pairs with 2% lognormal noise', () => {
    const z = normalSource(1);
    const base = lognormal(z, 30, 100, 0.02);
    const cand = lognormal(z, 30, 105, 0.02);
    const c = comparePaired(base, cand);
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeGreaterThan(1.03);
    expect(c.ratio).toBeLessThan(1.07);
    expect(c.ci[0]).toBeGreaterThan(1);
    expect(c.pValue).toBeLessThan(0.001);
    expect(c).toMatchObject({ n: 30, threshold: 0.01 });
    expect(c.method).toBe('paired Hodges-Lehmann on log ratios, Wilcoxon signed-rank CI (exact)');
    expect(c.roundsToDecide).toBeUndefined();
    expectCiContainsRatio(c);
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

  it('identical arms with zero noise are equivalent, never faster/slower', () => {
    const same = [100, 100, 100, 100, 100, 100, 100, 100];
    expect(comparePaired(same, same)).toMatchObject({ ratio: 1, ci: [1, 1], pValue: 1, verdict: 'equivalent' });
    const z = normalSource(3);
    const noisy = lognormal(z, 12, 100, 0.05);
    expect(comparePaired(noisy, [...noisy])).toMatchObject({ ratio: 1, ci: [1, 1], verdict: 'equivalent' });
    // quantized timer (e.g. 1 ms steps): many zero differences and ties
    const q1 = [3, 3, 4, 3, 3, 4, 3, 3, 3, 4, 3, 3];
    const q2 = [3, 3, 3, 4, 3, 4, 3, 3, 3, 3, 4, 3];
    const v = comparePaired(q1, q2).verdict;
    expect(v === 'equivalent' || v === 'inconclusive').toBe(true);
  });

  it('a constant ratio with zero noise is decided exactly', () => {
    const base = [10, 20, 30, 40, 50, 60, 70];
    const c = comparePaired(base, base.map((v) => v * 2));
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeCloseTo(2, 12);
    expect(c.ci[0]).toBeCloseTo(2, 12);
    expect(c.pValue).toBeCloseTo(2 / 128, 12);
  });

  it('a tiny real effect with little noise is equivalent', () => {
    const z = normalSource(4);
    const c = comparePaired(lognormal(z, 30, 100, 0.001), lognormal(z, 30, 100.2, 0.001));
    expect(c.verdict).toBe('equivalent');
  });

  it('with fewer than 6 pairs: widest CI, inconclusive, roundsToDecide >= 6', () => {
    const c = comparePaired([1, 2, 3], [2, 4, 6]);
    expect(c.verdict).toBe('inconclusive');
    expect(c.ratio).toBeCloseTo(2, 12);
    expect(c.roundsToDecide).toBeGreaterThanOrEqual(6);
    const one = comparePaired([5], [5.5]);
    expect(one.verdict).toBe('inconclusive');
    expect(one.roundsToDecide).toBe(6);
  });

  it('inconclusive results estimate how many rounds would decide, and more rounds do decide', () => {
    const z = normalSource(5);
    const base = lognormal(z, 8, 100, 0.04);
    const cand = lognormal(z, 8, 104, 0.04);
    const c = comparePaired(base, cand);
    expect(c.verdict).toBe('inconclusive');
    expect(c.roundsToDecide).toBeGreaterThan(8);
    const more = (c.roundsToDecide as number) * 2;
    const z2 = normalSource(6);
    const c2 = comparePaired(lognormal(z2, more, 100, 0.04), lognormal(z2, more, 104, 0.04));
    expect(c2.verdict).toBe('slower');
  });

  it('gives no roundsToDecide when the effect sits at the threshold', () => {
    const base = [100, 100, 100, 100, 100, 100, 100, 100, 100, 100];
    const cand = [101.5, 100.5, 101.2, 100.8, 101, 100.9, 101.1, 100.95, 101.05, 101];
    const c = comparePaired(base, cand);
    expect(c.verdict).toBe('inconclusive');
    expect(c.ratio).toBeCloseTo(1.01, 3);
    expect(c.roundsToDecide).toBeUndefined();
  });

  it('A/A calibration: 200 seeded simulations give <= 9% false faster/slower', () => {
    const z = normalSource(7);
    let falseVerdicts = 0;
    let excludes = 0;
    for (let s = 0; s < 200; s++) {
      // per-round machine drift hits both arms alike; arm-specific noise 3%
      const drift = Array.from({ length: 30 }, () => 100 * Math.exp(0.05 * z()));
      const a = drift.map((d) => d * Math.exp(0.03 * z()));
      const b = drift.map((d) => d * Math.exp(0.03 * z()));
      const c = comparePaired(a, b);
      if (c.verdict === 'faster' || c.verdict === 'slower') falseVerdicts++;
      if (c.ci[0] > 1 || c.ci[1] < 1) excludes++;
    }
    expect(falseVerdicts / 200).toBeLessThanOrEqual(0.09);
    // the CI itself is calibrated, not trivially wide: ~5% of A/A CIs exclude 1
    expect(excludes / 200).toBeGreaterThanOrEqual(0.01);
    expect(excludes / 200).toBeLessThanOrEqual(0.09);
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
  it('detects a 5% slowdown between two runs of 20 rounds', () => {
    const z = normalSource(10);
    const c = compareUnpaired(lognormal(z, 20, 100, 0.02), lognormal(z, 20, 105, 0.02));
    expect(c.verdict).toBe('slower');
    expect(c).toMatchObject({ n: 40, nBaseline: 20, nCandidate: 20 });
    expect(c.method).toBe('two-sample Hodges-Lehmann shift on log times, Mann-Whitney CI (exact)');
    expectCiContainsRatio(c);
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

  it('3 vs 3 is inconclusive with roundsToDecide >= 4 per arm', () => {
    const c = compareUnpaired([100, 101, 102], [150, 151, 152]);
    expect(c.verdict).toBe('inconclusive');
    expect(c.roundsToDecide).toBeGreaterThanOrEqual(4);
  });

  it('A/A calibration: 200 seeded simulations give <= 9% false faster/slower', () => {
    const z = normalSource(12);
    let falseVerdicts = 0;
    let excludes = 0;
    for (let s = 0; s < 200; s++) {
      const a = lognormal(z, 20, 100, 0.03);
      const b = lognormal(z, 20, 100, 0.03);
      const c = compareUnpaired(a, b);
      if (c.verdict === 'faster' || c.verdict === 'slower') falseVerdicts++;
      if (c.ci[0] > 1 || c.ci[1] < 1) excludes++;
    }
    expect(falseVerdicts / 200).toBeLessThanOrEqual(0.09);
    expect(excludes / 200).toBeGreaterThanOrEqual(0.01);
    expect(excludes / 200).toBeLessThanOrEqual(0.09);
  });

  it('validates inputs', () => {
    expect(() => compareUnpaired([], [1])).toThrow(/both arms/);
    expect(() => compareUnpaired([1, NaN], [1])).toThrow(/> 0/);
  });
});
