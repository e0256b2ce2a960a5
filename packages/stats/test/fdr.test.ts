import { describe, expect, it } from 'vitest';
import { applyFdr, benjaminiHochberg } from '../src/fdr.ts';
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
  });
});

function fake(over: Partial<Comparison>): Comparison {
  return { ratio: 1, ci: [0.98, 1.02], pValue: 0.5, verdict: 'inconclusive', threshold: 0.01, n: 20, method: 'test', ...over };
}

describe('applyFdr', () => {
  it('adds q-values and demotes changes that do not survive the correction', () => {
    const input: Comparison[] = [
      fake({ ratio: 0.8, ci: [0.75, 0.85], pValue: 0.0001, verdict: 'faster' }),
      fake({ ratio: 1.05, ci: [1.001, 1.1], pValue: 0.04, verdict: 'slower' }),
      ...Array.from({ length: 8 }, () => fake({ pValue: 0.6 })),
      fake({ ratio: 1.001, ci: [0.999, 1.003], pValue: 0.3, verdict: 'equivalent' }),
    ];
    const out = applyFdr(input);
    expect(out).toHaveLength(11);
    expect(out[0]).toMatchObject({ verdict: 'faster', qValue: 0.0011 });
    expect(out[1]?.qValue).toBeCloseTo(0.22, 12); // 0.04 * 11 / 2
    expect(out[1]?.verdict).toBe('inconclusive');
    // needs p <= 0.05 * 2 / 11 ~ 0.0091 instead of 0.04: (z(0.0091)/z(0.04))^2 ~ 1.6x the rounds
    expect(out[1]?.roundsToDecide).toBeGreaterThan(25);
    expect(out[1]?.roundsToDecide).toBeLessThan(40);
    expect(out[10]?.verdict).toBe('equivalent');
    expect(input[1]?.verdict).toBe('slower'); // inputs are not mutated
  });
  it('a single comparison keeps its verdict when p < alpha (q = p)', () => {
    const z = normalSource(1);
    const c = comparePaired(lognormal(z, 30, 100, 0.02), lognormal(z, 30, 105, 0.02));
    const [out] = applyFdr([c]);
    expect(out?.qValue).toBe(c.pValue);
    expect(out?.verdict).toBe('slower');
  });
  it('honours a custom alpha and handles an empty list', () => {
    const c = fake({ ratio: 0.9, ci: [0.85, 0.95], pValue: 0.02, verdict: 'faster' });
    expect(applyFdr([c], { alpha: 0.01 })[0]?.verdict).toBe('inconclusive');
    expect(applyFdr([c], { alpha: 0.05 })[0]?.verdict).toBe('faster');
    expect(applyFdr([])).toEqual([]);
  });
});
