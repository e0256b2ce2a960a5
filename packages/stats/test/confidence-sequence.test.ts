import { describe, expect, it } from 'vitest';
import { anytimeEValue, anytimeHalfWidth, anytimeIntervalAt, anytimeUnitsToDecide, readAnytimeAt, ANYTIME_PRIOR_PRECISION } from '../src/confidence-sequence.ts';
import { applyEbh, eBenjaminiHochberg } from '../src/fdr.ts';
import { intervalAt, unitInference, withoutFarthestUnit, type UnitInference } from '../src/units.ts';
import { comparePaired } from '../src/verdict.ts';
import { lognormal, normalSource } from './helpers.ts';

/** The inference of t unit means with mean `mean` and sample sd `sd` (se = sd/√t). */
const inference = (units: number, mean: number, sd: number): UnitInference => ({ estimate: mean, se: sd / Math.sqrt(units), df: units - 1, units });

/** Lai's mixture martingale at μ from the unit means directly (the definition, not the closed form). */
function martingale(xs: readonly number[], mu: number, c = ANYTIME_PRIOR_PRECISION): number {
  const t = xs.length;
  const s = xs.reduce((a, x) => a + (x - mu), 0);
  const v = xs.reduce((a, x) => a + (x - mu) ** 2, 0);
  return Math.sqrt(c / (t + c)) * (v / (v - (s * s) / (t + c))) ** (t / 2);
}

describe('anytimeHalfWidth and anytimeIntervalAt', () => {
  const xs = [0.031, 0.012, 0.044, 0.027, 0.019, 0.038, 0.025, 0.008];
  const inf = unitInference(xs);

  it('ends where the mixture martingale reaches 1/δ: the closed form is the set {μ: M(μ) < 1/δ}', () => {
    for (const confidence of [0.9, 0.95, 0.99]) {
      const [lo, hi] = anytimeIntervalAt(inf, confidence)!;
      expect(martingale(xs, lo)).toBeCloseTo(1 / (1 - confidence), 6);
      expect(martingale(xs, hi)).toBeCloseTo(1 / (1 - confidence), 6);
      expect(martingale(xs, inf.estimate)).toBeLessThan(1 / (1 - confidence));
      expect(martingale(xs, hi + 0.001)).toBeGreaterThan(1 / (1 - confidence));
      expect((lo + hi) / 2).toBeCloseTo(inf.estimate, 12);
    }
  });

  it('is wider than the fixed-design t interval at the same level, and narrows as units come', () => {
    for (const t of [4, 6, 10, 20, 50]) {
      const fixed = intervalAt(inference(t, 0, 0.05), 0.95)!;
      const any = anytimeIntervalAt(inference(t, 0, 0.05), 0.95)!;
      expect(any[1]).toBeGreaterThan(fixed[1]);
      expect(any[1]).toBeLessThan(fixed[1] * 2.5);
    }
    const widths = [4, 6, 10, 20, 50, 200].map((t) => anytimeHalfWidth(t, 0.0025 * (t - 1), 0.95));
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeLessThan(widths[i - 1]!);
    // Stricter levels are wider.
    expect(anytimeHalfWidth(10, 0.02, 0.999)).toBeGreaterThan(anytimeHalfWidth(10, 0.02, 0.95));
    // Scales with the spread: 4× the sum of squares, twice the width.
    expect(anytimeHalfWidth(10, 0.08, 0.95)).toBeCloseTo(2 * anytimeHalfWidth(10, 0.02, 0.95), 12);
  });

  it('is unbounded with too few units for the level, and with no spread has no width', () => {
    expect(anytimeHalfWidth(1, 0, 0.95)).toBe(Infinity);
    expect(anytimeHalfWidth(2, 0.01, 0.95)).toBe(Infinity);
    expect(anytimeHalfWidth(4, 0.01, 0.95)).toBeLessThan(Infinity);
    expect(anytimeHalfWidth(4, 0.01, 0.999)).toBe(Infinity);
    expect(anytimeIntervalAt(inference(3, 0, 0.01), 0.999)).toBeUndefined();
    expect(anytimeIntervalAt({ estimate: 0.1, se: NaN, df: 0, units: 1 }, 0.95)).toBeUndefined();
    expect(anytimeHalfWidth(6, 0, 0.95)).toBe(0);
    // A smaller prior precision spends less width on the first looks.
    expect(anytimeHalfWidth(4, 0.01, 0.95, 0.1)).toBeLessThan(anytimeHalfWidth(4, 0.01, 0.95, 0.3));
  });

  it('is bounded from two units at a loose level, and unbounded for a count or spread that is not one', () => {
    // At 50% two units already bound the sequence (a = 1.87 < 2); at 95% they do not.
    expect(anytimeHalfWidth(2, 0.01, 0.5)).toBeGreaterThan(0);
    expect(anytimeHalfWidth(2, 0.01, 0.5)).toBeLessThan(Infinity);
    expect(anytimeHalfWidth(NaN, 0.01, 0.5)).toBe(Infinity);
    expect(anytimeHalfWidth(5, -0.01, 0.95)).toBe(Infinity);
    expect(anytimeHalfWidth(5, NaN, 0.95)).toBe(Infinity);
    expect(anytimeIntervalAt({ estimate: 0.1, se: Infinity, df: 4, units: 5 }, 0.95)).toBeUndefined();
  });

  it('rejects a confidence or prior out of range', () => {
    expect(() => anytimeHalfWidth(5, 0.01, 1)).toThrow(/anytimeHalfWidth: confidence/);
    expect(() => anytimeHalfWidth(5, 0.01, 0.95, 0)).toThrow(/prior precision/);
  });

  it('covers the true mean at every look at once: stopping at the first miss errs at most δ of the time, where the t interval does far more', () => {
    const z = normalSource(11);
    const runs = 1000;
    const looks = 40;
    let anytimeMissed = 0;
    let fixedMissed = 0;
    for (let r = 0; r < runs; r++) {
      const xs: number[] = [];
      let anyMiss = false;
      let fixedMiss = false;
      for (let t = 1; t <= looks; t++) {
        xs.push(0.3 + 0.05 * z());
        if (t < 3) continue;
        const inf = unitInference(xs);
        const a = anytimeIntervalAt(inf, 0.9);
        if (a && (a[0] > 0.3 || a[1] < 0.3)) anyMiss = true;
        const f = intervalAt(inf, 0.9)!;
        if (f[0] > 0.3 || f[1] < 0.3) fixedMiss = true;
      }
      if (anyMiss) anytimeMissed++;
      if (fixedMiss) fixedMissed++;
    }
    // δ = 0.1; the Monte-Carlo error of 1000 runs is about 0.01.
    expect(anytimeMissed / runs).toBeLessThan(0.1);
    expect(fixedMissed / runs).toBeGreaterThan(0.3);
  });
});

describe('anytimeEValue', () => {
  it('is the martingale at 0: 1 or less with no effect, growing with the effect, and ≥ 1/δ exactly when the interval excludes 0', () => {
    const xs = [0.031, 0.012, 0.044, 0.027, 0.019, 0.038, 0.025, 0.008];
    const inf = unitInference(xs);
    expect(anytimeEValue(inf)).toBeCloseTo(martingale(xs, 0), 9);
    expect(anytimeEValue(inference(8, 0, 0.02))).toBeLessThan(1);
    expect(anytimeEValue(inference(8, 0.01, 0.02))).toBeLessThan(anytimeEValue(inference(8, 0.02, 0.02)));
    expect(anytimeEValue(inference(8, -0.02, 0.02))).toBeCloseTo(anytimeEValue(inference(8, 0.02, 0.02)), 12);
    for (const mean of [0.005, 0.01, 0.015, 0.02, 0.03]) {
      const i = inference(8, mean, 0.02);
      const [lo] = anytimeIntervalAt(i, 0.95)!;
      expect(anytimeEValue(i) >= 20).toBe(lo > 0);
    }
  });

  it('is 1 without evidence: fewer than 2 units, no interval, or every unit mean 0', () => {
    expect(anytimeEValue({ estimate: 0.5, se: NaN, df: 0, units: 1 })).toBe(1);
    expect(anytimeEValue(inference(5, 0, 0))).toBe(1);
    // One unit: exactly 1 (the formula gives it only up to rounding), and a spread that is not a number gives none.
    expect(anytimeEValue({ estimate: 0.5, se: 0, df: 0, units: 1 })).toBe(1);
    expect(anytimeEValue({ estimate: 0.5, se: NaN, df: 4, units: 5 })).toBe(1);
    expect(anytimeEValue(inference(2, 0.5, 0.01))).toBeGreaterThan(1);
  });

  it('can reach a 48-cell table\'s first selection (m/α = 960) from five clear units, and is capped by ((t+c)/c)^((t−1)/2)', () => {
    const cap = (t: number): number => ((t + ANYTIME_PRIOR_PRECISION) / ANYTIME_PRIOR_PRECISION) ** ((t - 1) / 2);
    expect(anytimeEValue(inference(5, 0.4, 0.004))).toBeGreaterThan(960);
    expect(anytimeEValue(inference(5, 0.4, 0.004))).toBeLessThanOrEqual(cap(5));
    expect(anytimeEValue(inference(4, 0.4, 0.004))).toBeLessThan(960);
  });
});

describe('anytimeUnitsToDecide', () => {
  it('names the first count whose interval decides, and none when it lies past 1,000 units', () => {
    const inf = inference(4, Math.log(1.05), 0.04);
    const t = anytimeUnitsToDecide(inf, 0.95, 0.01)!;
    expect(t).toBeGreaterThan(4);
    const at = (n: number): [number, number] | undefined => anytimeIntervalAt(inference(n, inf.estimate, 0.04), 0.95);
    expect(at(t)![0]).toBeGreaterThan(0);
    expect(at(t - 1)?.[0] ?? -1).toBeLessThanOrEqual(0);
    // Within the band: decided as equivalent when the interval fits inside ±1%.
    const same = anytimeUnitsToDecide(inference(6, 0, 0.01), 0.95, 0.01)!;
    expect(anytimeIntervalAt(inference(same, 0, 0.01), 0.95)![1]).toBeLessThanOrEqual(Math.log1p(0.01));
    expect(anytimeIntervalAt(inference(same - 1, 0, 0.01), 0.95)?.[1] ?? Infinity).toBeGreaterThan(Math.log1p(0.01));
    // Past 1,000 units: out of reach.
    expect(anytimeUnitsToDecide(inference(6, 0.0005, 0.5), 0.95, 0.01)).toBeUndefined();
    expect(anytimeUnitsToDecide({ estimate: 0.1, se: NaN, df: 0, units: 1 }, 0.95, 0.01)).toBeUndefined();
    // Already decided: the units there are.
    expect(anytimeUnitsToDecide(inference(10, 0.5, 0.01), 0.95, 0.01)).toBe(10);
    // From two units on a projection is made (the sequence is unbounded at 2 at 95%, so the first count that decides is 3 or more).
    expect(anytimeUnitsToDecide(inference(2, 0.5, 0.01), 0.95, 0.01)).toBeGreaterThanOrEqual(3);
    // None from no units, even with a spread of 0 (which alone would bound every later width at 0).
    expect(anytimeUnitsToDecide({ estimate: 0.5, se: 0, df: 0, units: 0 }, 0.95, 0.01)).toBeUndefined();
    expect(anytimeUnitsToDecide({ estimate: 0.5, se: Infinity, df: 4, units: 5 }, 0.95, 0.01)).toBeUndefined();
  });
});

describe('withoutFarthestUnit', () => {
  it('leaves out the unit mean farthest from the median, and gives the paired inference of the rest', () => {
    const rest = unitInference([-0.024, -0.026, -0.022, -0.025]);
    expect(withoutFarthestUnit([-0.024, -0.026, 0.09, -0.022, -0.025])).toEqual(rest);
    // Units are reduced to their means first: unit b's mean is the far one.
    expect(withoutFarthestUnit([1, 3, 2, 2, 9, 11, 2, 4], ['a', 'a', 'c', 'c', 'b', 'b', 'd', 'd'])).toEqual(unitInference([2, 2, 3]));
  });

  it('measures farness from the median, the middle two averaged for an even count', () => {
    // Median 1.5: 3.2 is 1.7 from it, 0 is 1.5 (from the upper middle, 2, it would be 0 that goes).
    expect(withoutFarthestUnit([0, 1, 2, 3.2])!.estimate).toBeCloseTo(1, 12);
    // Median 1.5: −0.2 is 1.7 from it, 3 is 1.5 (from the lower middle, 1, it would be 3).
    expect(withoutFarthestUnit([-0.2, 1, 2, 3])!.estimate).toBeCloseTo(2, 12);
    // An odd count: the middle one, 4, from which 0 is 4 away and 7.8 is 3.8 (from the middle two's mean, 3, 7.8 would go).
    expect(withoutFarthestUnit([0, 2, 4, 4.5, 7.8])!.estimate).toBeCloseTo(4.575, 12);
    // Two equally far: the first goes.
    expect(withoutFarthestUnit([0, 1, 1, 2])!.estimate).toBeCloseTo(4 / 3, 12);
  });

  it('needs one unit more than an interval does', () => {
    expect(withoutFarthestUnit([1, 2, 3])).toBeUndefined();
    expect(withoutFarthestUnit([1, 2, 3, 3], [0, 1, 2, 2])).toBeUndefined();
    expect(withoutFarthestUnit([1, 2, 3, 10])).toMatchObject({ units: 3, df: 2 });
  });
});

describe('readAnytimeAt', () => {
  it('reads the sequence: its interval, the word classified from it, the e-value, and the units that would decide', () => {
    const z = normalSource(5);
    const c = comparePaired(lognormal(z, 6, 100, 0.01), lognormal(z, 6, 160, 0.01));
    const r = readAnytimeAt(c, 0.95);
    const [lo, hi] = anytimeIntervalAt(c.inference, 0.95)!;
    expect(r.ci[0]).toBeCloseTo(Math.exp(lo), 12);
    expect(r.ci[1]).toBeCloseTo(Math.exp(hi), 12);
    expect(r.verdict).toBe('slower');
    expect(r.confidence).toBe(0.95);
    expect(r.eValue).toBeCloseTo(anytimeEValue(c.inference), 12);
    expect(r.unitsToDecide).toBeUndefined();
    const close = readAnytimeAt(comparePaired([100, 100, 100, 100], [103, 101, 104, 102.5]), 0.95);
    expect(close.verdict).toBe('inconclusive');
    expect(close.unitsToDecide).toBeGreaterThan(4);
    // Out of reach (an effect at the threshold, a wide spread): undecided, with no count of units at all.
    const far = comparePaired([100, 100, 100, 100, 100, 100], [160, 62, 150, 65, 140, 70]);
    expect(anytimeUnitsToDecide(far.inference, 0.95, far.threshold)).toBeUndefined();
    const unreachable = readAnytimeAt(far, 0.95);
    expect(unreachable.verdict).toBe('inconclusive');
    expect(Object.keys(unreachable)).not.toContain('unitsToDecide');
    const none = readAnytimeAt(comparePaired([100, 100], [103, 101]), 0.95);
    expect(none.ci).toEqual([0, Infinity]);
    expect(none.verdict).toBe('inconclusive');
  });
  it('reads on the sequence of the prior precision given: its interval, e-value and units to decide', () => {
    const close = comparePaired([100, 100, 100, 100, 100, 100, 100, 100], [103, 101, 104, 102.5, 99, 102, 100.5, 103.5]);
    for (const c of [0.3, 2]) {
      const r = readAnytimeAt(close, 0.95, c);
      const [lo, hi] = anytimeIntervalAt(close.inference, 0.95, c)!;
      expect(r.ci[0]).toBeCloseTo(Math.exp(lo), 12);
      expect(r.ci[1]).toBeCloseTo(Math.exp(hi), 12);
      expect(r.eValue).toBeCloseTo(anytimeEValue(close.inference, c), 12);
      expect(r.unitsToDecide).toBe(anytimeUnitsToDecide(close.inference, 0.95, close.threshold, c));
    }
    // At 8 units a larger c is wider (it spends its width on later looks), so the readings differ.
    expect(readAnytimeAt(close, 0.95, 2).ci[1]).toBeGreaterThan(readAnytimeAt(close, 0.95).ci[1]);
    expect(readAnytimeAt(close, 0.95, 2).unitsToDecide).not.toBe(readAnytimeAt(close, 0.95).unitsToDecide);
    expect(readAnytimeAt(close, 0.95, 2).eValue).not.toBeCloseTo(readAnytimeAt(close, 0.95).eValue, 6);
  });
});

describe('eBenjaminiHochberg', () => {
  it('selects the k largest for the largest k with e_(k) ≥ m/(kα)', () => {
    // m = 5, α = 0.05: the bars are 100/k.
    expect(eBenjaminiHochberg([100, 30, 12, 1, 0.5], 0.05)).toBe(1);
    expect(eBenjaminiHochberg([99.9, 30, 12, 1, 0.5], 0.05)).toBe(0);
    // m = 3: bars 60, 30, 20; the second largest clears 30.
    expect(eBenjaminiHochberg([10, 60, 30], 0.05)).toBe(2);
    expect(eBenjaminiHochberg([20, 60, 30], 0.05)).toBe(3);
    expect(eBenjaminiHochberg([], 0.05)).toBe(0);
  });
  it('rejects a bad level or e-value, and takes an e-value of 0 (no evidence at all)', () => {
    expect(() => eBenjaminiHochberg([1], 0)).toThrow(/eBenjaminiHochberg: alpha must be in \(0, 1\), got 0/);
    expect(() => eBenjaminiHochberg([1], 1)).toThrow(RangeError);
    expect(() => eBenjaminiHochberg([-1], 0.05)).toThrow(/eBenjaminiHochberg: e-values must be >= 0, got -1/);
    expect(() => eBenjaminiHochberg([NaN], 0.05)).toThrow(RangeError);
    // m = 2: bars 40, 20.
    expect(eBenjaminiHochberg([0, 100], 0.05)).toBe(1);
  });
});

describe('applyEbh (sequences at the e-BH level)', () => {
  function table(seed: number, cells: number, effects: number[], units = 8) {
    const z = normalSource(seed);
    return Array.from({ length: cells }, (_, i) => comparePaired(lognormal(z, units, 100, 0.02), lognormal(z, units, 100 * (effects[i] ?? 1), 0.02)));
  }

  it('reads every cell at 1 − R·α/m, R the e-BH selections; the word agrees with the interval and the q-value', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const input = table(seed, 24, [0.5, 0.8, 0.9, 0.97, 1.03, 1.3, 1.8]);
      const out = applyEbh(input);
      const selected = eBenjaminiHochberg(out.map((c) => c.eValue), 0.05);
      for (const [i, c] of out.entries()) {
        expect(c.confidence).toBeCloseTo(1 - (Math.max(1, selected) * 0.05) / 24, 12);
        expect(c.eValue).toBeCloseTo(anytimeEValue(input[i]!.inference), 12);
        const excludes = c.ci[0] > 1 || c.ci[1] < 1;
        expect(['faster', 'slower', 'small'].includes(c.verdict)).toBe(excludes);
        expect(c.qValue <= 0.05).toBe(excludes);
        expect(c.eValue >= 24 / (Math.max(1, selected) * 0.05)).toBe(excludes);
      }
      expect(out.filter((c) => c.qValue <= 0.05)).toHaveLength(selected);
    }
  });

  it('is wider than the fixed design read at its own level, and decides the large effects', () => {
    const out = applyEbh(table(2, 12, [0.5, 0.6, 2]));
    expect(out[0]!.verdict).toBe('faster');
    expect(out[2]!.verdict).toBe('slower');
    expect(out.slice(3).every((c) => c.verdict !== 'faster' && c.verdict !== 'slower')).toBe(true);
    for (const alpha of [0, 1, -0.1, 1.5, NaN]) expect(() => applyEbh(out, { alpha })).toThrow(/applyEbh: alpha must be in \(0, 1\)/);
  });
  it('reads every cell on the sequences of the prior precision given', () => {
    const input = table(3, 6, [0.97, 1.03, 1.3]);
    const out = applyEbh(input, { priorPrecision: 1.5 });
    const plain = applyEbh(input);
    for (const [i, c] of out.entries()) {
      expect(c.eValue).toBeCloseTo(anytimeEValue(input[i]!.inference, 1.5), 12);
      expect(c).toEqual({ ...readAnytimeAt(input[i]!, c.confidence, 1.5), qValue: c.qValue });
      expect(c.eValue).not.toBeCloseTo(plain[i]!.eValue, 6);
    }
  });
});
