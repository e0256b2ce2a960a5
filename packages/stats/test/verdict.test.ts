import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classify, comparePaired, compareUnpaired, comparisonHasInterval, growthFactorToDecide, readAt, type Comparison } from '../src/verdict.ts';
import { studentTQuantile, welchInference } from '../src/index.ts';
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
  it('equivalence route, lopsided: the side that needs more units decides, and after growing by it the interval just fits the band', () => {
    const tau = Math.log1p(0.01);
    for (const [e, lo, hi] of [
      [0.004, -0.02, 0.01],
      [0.004, -0.005, 0.009],
      [-0.006, -0.012, 0.02],
    ] as const) {
      const f = growthFactorToDecide(e, [lo, hi], 0.01);
      const [below, above] = [(e - lo) / Math.sqrt(f), (hi - e) / Math.sqrt(f)];
      expect(e - below).toBeGreaterThanOrEqual(-tau - 1e-12);
      expect(e + above).toBeLessThanOrEqual(tau + 1e-12);
      // One side touches its edge of the band: no smaller factor would do.
      expect(Math.min(e - below + tau, tau - (e + above))).toBeCloseTo(0, 12);
    }
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

describe('unpaired: the units of each arm', () => {
  it('an arm without spread on either side: an interval of no width at the difference', () => {
    const c = compareUnpaired([10, 10, 10], [20, 20, 20]);
    expect(c).toMatchObject({ verdict: 'slower', pValue: 0 });
    expect(c.ratio).toBeCloseTo(2, 12);
    expect(c.ci[0]).toBe(c.ratio);
    expect(c.ci[1]).toBe(c.ratio);
    expect(c.method).toBe('unpaired: difference of the mean per-unit log values, Welch t interval with 4 degrees of freedom');
  });

  it('each arm counts its own processes: labels on one side only group that side', () => {
    const six = [1, 1.1, 1.2, 1.3, 1.4, 1.5];
    const twice = [0, 0, 1, 1, 2, 2];
    expect(compareUnpaired(six, six.map((x) => 2 * x), { baselineUnits: twice }).units).toBe(3);
    expect(compareUnpaired(six, six.map((x) => 2 * x), { candidateUnits: twice }).units).toBe(3);
    expect(compareUnpaired(six, six.map((x) => 2 * x)).units).toBe(6);
  });

  it('two units per arm have a standard error; one has none', () => {
    const two = welchInference({ values: [0, 0.1] }, { values: [0.3, 0.5] });
    expect(two.se).toBeCloseTo(Math.sqrt(0.005 / 2 + 0.02 / 2), 12);
    expect(two.units).toBe(2);
    expect(welchInference({ values: [0] }, { values: [0.3, 0.5] })).toMatchObject({ se: NaN, df: 0, units: 1 });
  });
});

describe('what a comparison says it did (the JSON output carries it)', () => {
  it('names the interval, its degrees of freedom and its units', () => {
    const paired = comparePaired([1, 1, 1, 1, 1, 1], [1.1, 1.2, 1.1, 1.3, 1.2, 1.1], { units: [0, 0, 1, 1, 2, 2] });
    expect(paired.method).toBe('paired: mean of the per-unit mean log ratios, Student t interval with 2 degrees of freedom (3 independent units from 6 sets)');
    expect(comparisonHasInterval(paired)).toBe(true);
    expect(comparisonHasInterval(comparePaired([1, 1], [1.1, 1.2]))).toBe(false);
  });
});

describe('how many more units would decide it', () => {
  const tau = Math.log1p(0.01);
  it('is the growth at which an interval shrinking like 1/√units first decides', () => {
    fc.assert(
      fc.property(fc.double({ min: -0.05, max: 0.05, noNaN: true }), fc.double({ min: 0.001, max: 0.1, noNaN: true }), (e, h) => {
        fc.pre(Math.abs(Math.abs(e) - tau) > 1e-9);
        const f = growthFactorToDecide(e, [e - h, e + h], 0.01);
        const shrunk = h / Math.sqrt(f);
        if (e > tau) expect(e - shrunk).toBeCloseTo(0, 12); // its lower side reaches 1
        else if (e < -tau) expect(e + shrunk).toBeCloseTo(0, 12); // its upper side reaches 1
        else expect(Math.max(e + shrunk - tau, -tau - (e - shrunk))).toBeCloseTo(0, 12); // it fits the band, one side touching
      }),
    );
    expect(growthFactorToDecide(-tau, [-2 * tau, 0], 0.01)).toBe(Infinity);
  });

  it('an undecided comparison asks for at least one more unit, about growth × units of them, up to 100× the units', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { minLength: 3, maxLength: 10 }), (d) => {
        const c = comparePaired(d.map(() => 1), d.map(Math.exp));
        if (c.verdict !== 'inconclusive') return;
        const f = growthFactorToDecide(Math.log(c.ratio), [Math.log(c.ci[0]), Math.log(c.ci[1])], 0.01);
        if (!(f <= 100)) {
          expect(c.unitsToDecide).toBeUndefined();
          return;
        }
        // The fewest whole units that are more than now and at least growth × units.
        const asked = c.unitsToDecide!;
        expect(asked).toBeGreaterThanOrEqual(c.units + 1);
        expect(asked).toBeGreaterThanOrEqual(f * c.units * (1 - 1e-12));
        expect(asked - 1).toBeLessThan(Math.max(f * c.units, c.units + 1));
      }),
      { numRuns: 200 },
    );
  });

  it('exactly 100× the units still gets a count; a hair more none', () => {
    const t = studentTQuantile(0.975, 9);
    const read = (half: number) => readAt({ ratio: Math.exp(0.5), pValue: 0.2, threshold: 0.01, n: 10, units: 10, inference: { estimate: 0.5, se: half / t, df: 9, units: 10 }, method: 'm' }, 0.95);
    // The interval is 0.5 ± 5: its lower side must shrink to 0, a factor 10 in width, 100 in units.
    expect(read(5)).toMatchObject({ verdict: 'inconclusive', unitsToDecide: 1000 });
    expect(read(5.001).unitsToDecide).toBeUndefined();
  });
});
