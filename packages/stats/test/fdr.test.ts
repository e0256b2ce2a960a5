import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyFdr, benjaminiHochberg, fdrStep } from '../src/fdr.ts';
import { comparePaired, type Comparison } from '../src/verdict.ts';
import { lognormal, normalSource } from './helpers.ts';

describe('benjaminiHochberg', () => {
  // Benjamini & Hochberg (1995), section 4: 15 p-values from a multiple-endpoint trial;
  // at FDR 0.05 the procedure rejects the four smallest.
  const p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1.0];
  it('reproduces the 1995 worked example', () => {
    const q = benjaminiHochberg(p);
    expect(q.filter((v) => v <= 0.05)).toHaveLength(4);
    // adjusted values computed independently (same as R's p.adjust(p, "BH"))
    const want = [0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714285714286, 0.06385714285714286, 0.0645, 0.0765, 0.486, 0.5811818181818182, 0.714875, 0.7532307692307694, 0.8132142857142857, 1];
    want.forEach((w, i) => expect(q[i]).toBeCloseTo(w, 14));
  });
  it('keeps input order, is monotone in p, never below p, capped at 1', () => {
    const shuffled = [0.5, 0.01, 0.04, 0.03, 0.9, 0.04];
    const q = benjaminiHochberg(shuffled);
    const order = shuffled.map((_, i) => i).sort((a, b) => (shuffled[a] as number) - (shuffled[b] as number));
    for (let r = 1; r < order.length; r++) expect(q[order[r] as number]).toBeGreaterThanOrEqual(q[order[r - 1] as number] as number);
    q.forEach((v, i) => {
      expect(v).toBeGreaterThanOrEqual(shuffled[i] as number);
      expect(v).toBeLessThanOrEqual(1);
    });
    expect(q[2]).toBe(q[5]); // tied p-values share a q-value
    expect(q[1]).toBeCloseTo(0.06, 14); // 0.01 * 6 / 1
    expect(benjaminiHochberg([0.9, 0.8])).toEqual([0.9, 0.9]);
    expect(benjaminiHochberg([])).toEqual([]);
  });
  it('rejects p-values outside [0, 1]', () => {
    expect(() => benjaminiHochberg([0.1, 1.2])).toThrow(RangeError);
    expect(() => benjaminiHochberg([NaN])).toThrow(RangeError);
    expect(() => benjaminiHochberg([0.1, -0.01])).toThrow(/benjaminiHochberg: p-values must be in \[0, 1\], got -0.01/);
    expect(benjaminiHochberg([0, 1])).toEqual([0, 1]);
  });
});

describe('fdrStep (applyFdr over p-values alone)', () => {
  it('reads each cell as applyFdr does, from a typed array of the p-values with ties', () => {
    const rng = normalSource(23);
    const cells = Array.from({ length: 60 }, (_, i) => {
      const a = lognormal(rng, 8, 100, 0.02);
      // Every third cell repeats the one before: tied p-values.
      const b = i % 3 === 2 ? a.map((x) => x * 1.01) : lognormal(rng, 8, 100 * (i % 5 === 0 ? 1.03 : 1), 0.02);
      return comparePaired(a, b, { threshold: 0.01 });
    });
    const step = fdrStep(Float64Array.from(cells.map((c) => c.pValue)), { alpha: 0.05 });
    expect(cells.map((c) => step.readAt(c))).toEqual(applyFdr(cells, { alpha: 0.05 }));
    expect(applyFdr(cells, { alpha: 0.05 }).some((c) => c.verdict === 'faster' || c.verdict === 'slower')).toBe(true);
  });

  it('reads the same from p-values in any order, ascending ones (a resumed history walk\'s) taken as they are', () => {
    const pValue = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.01, 0.05, 1));
    fc.assert(
      fc.property(fc.array(pValue, { minLength: 1, maxLength: 60 }), fc.integer(), (pValues, seed) => {
        const ascending = Float64Array.from(pValues).sort();
        const shuffled = [...pValues].sort((a, b) => Math.sin(a * 1e3 + seed) - Math.sin(b * 1e3 + seed));
        const cell = (p: number): Comparison => ({ ...comparePaired([1, 1.1, 0.9], [1, 1.2, 1]), pValue: p });
        const [one, other] = [fdrStep(ascending), fdrStep(shuffled)];
        expect(one.level).toBe(other.level);
        for (const p of pValues) expect(one.readAt(cell(p)).qValue).toBe(other.readAt(cell(p)).qValue);
        expect(pValues.map((p) => one.readAt(cell(p)).qValue)).toEqual(benjaminiHochberg(pValues));
      }),
    );
  });
});

describe('applyFdr (intervals at the false-coverage-rate adjusted level)', () => {
  function table(seed: number, cells: number, effects: number[]): Comparison[] {
    const z = normalSource(seed);
    return Array.from({ length: cells }, (_, i) => comparePaired(lognormal(z, 6, 100, 0.02), lognormal(z, 6, 100 * (effects[i] ?? 1), 0.02)));
  }

  it('the word is read from the printed interval: decided cells exclude 1, undecided ones hold it', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const out = applyFdr(table(seed, 48, [0.5, 0.8, 0.95, 0.97, 0.98, 1.02, 1.05, 1.3, 1.8]));
      for (const c of out) {
        const excludes = c.ci[0] > 1 || c.ci[1] < 1;
        if (c.verdict === 'faster' || c.verdict === 'slower' || c.verdict === 'small') expect(excludes).toBe(true);
        else expect(excludes).toBe(false);
        expect(c.qValue <= 0.05).toBe(excludes);
      }
    }
  });

  it('reads every interval at 1 − R·α/m and widens it beyond the marginal one', () => {
    const input = table(3, 20, [0.5, 0.6, 0.7]);
    const out = applyFdr(input);
    const selected = out.filter((c) => c.qValue <= 0.05).length;
    expect(selected).toBeGreaterThanOrEqual(3);
    for (const [i, c] of out.entries()) {
      expect(c.confidence).toBeCloseTo(1 - (selected * 0.05) / 20, 12);
      expect(c.ci[0]).toBeLessThanOrEqual(input[i]!.ci[0]);
      expect(c.ci[1]).toBeGreaterThanOrEqual(input[i]!.ci[1]);
    }
    expect(input[0]?.confidence).toBe(0.95); // inputs are not mutated
  });

  it('a single comparison keeps its verdict when p < alpha (q = p)', () => {
    const z = normalSource(1);
    const c = comparePaired(lognormal(z, 30, 100, 0.02), lognormal(z, 30, 105, 0.02));
    const [out] = applyFdr([c]);
    expect(out?.qValue).toBe(c.pValue);
    expect(out?.verdict).toBe('slower');
  });

  it('A/A tables: at most about α of 48-cell tables hold any decided cell', () => {
    let withVerdict = 0;
    for (let seed = 100; seed < 500; seed++) if (applyFdr(table(seed, 48, [])).some((c) => c.verdict === 'faster' || c.verdict === 'slower' || c.verdict === 'small')) withVerdict++;
    expect(withVerdict / 400).toBeLessThan(0.08); // nominal ≤ 5%; binomial sd at 400 tables is 1.1 points
  });

  it('honours a custom alpha and handles an empty list', () => {
    expect(() => applyFdr([], { alpha: 1 })).toThrow(/alpha/);
    expect(() => applyFdr([], { alpha: 0 })).toThrow(/applyFdr: alpha must be in \(0, 1\), got 0/);
    expect(applyFdr([])).toEqual([]);
  });
});
