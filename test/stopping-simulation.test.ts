/**
 * The stopping simulation's noise (scripts/stopping-simulation.ts): what a
 * simulated A/A table is drawn from decides what its false-verdict rate
 * means, so the draws are checked for the spread and correlation they claim.
 */
import { describe, expect, it } from 'vitest';
import { createRandom } from '../packages/stats/src/index.ts';
import { firstCandidate, unitSource, type Components } from '../scripts/stopping-simulation.ts';

/** Two cases of three candidates against one baseline (a four-arm table), spreads 1–6%. */
const src: Components = {
  cells: ['a · x', 'a · y', 'a · z', 'b · x', 'b · y', 'b · z'],
  cases: ['a', 'b'],
  caseOf: [0, 0, 0, 1, 1, 1],
  variantOf: [0, 1, 2, 0, 1, 2],
  sd: [0.01, 0.02, 0.03, 0.04, 0.05, 0.06],
  mean: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
  standardized: [[1, -1, 0.5, 0, 2, -2], [-1, 1, -0.5, 0, -2, 2]],
};

/** n units of every cell, and each cell's sample sd and the correlation of two cells. */
function draws(noise: 't4' | 't4-arms', n: number): { sd: (i: number) => number; corr: (i: number, j: number) => number; mean: (i: number) => number } {
  const draw = unitSource(src, noise, src.cells.map(() => 0), createRandom(7));
  const units = Array.from({ length: n }, draw);
  const means = src.cells.map((_, i) => units.reduce((a, u) => a + u[i]!, 0) / n);
  const mean = (i: number): number => means[i]!;
  const cov = (i: number, j: number): number => units.reduce((a, u) => a + (u[i]! - means[i]!) * (u[j]! - means[j]!), 0) / (n - 1);
  return { mean, sd: (i) => Math.sqrt(cov(i, i)), corr: (i, j) => cov(i, j) / Math.sqrt(cov(i, i) * cov(j, j)) };
}

describe('stopping simulation: the noise a table is drawn from', () => {
  it('per cell: each cell at its own spread, cells uncorrelated', () => {
    const d = draws('t4', 20_000);
    src.sd.forEach((s, i) => expect(d.sd(i) / s).toBeCloseTo(1, 1));
    expect(Math.abs(d.corr(0, 1))).toBeLessThan(0.05);
  });

  it('per arm: each cell at its own spread, a case\'s cells correlated ½ through their shared baseline, cases apart', () => {
    const d = draws('t4-arms', 20_000);
    src.sd.forEach((s, i) => expect(d.sd(i) / s).toBeCloseTo(1, 1));
    expect(d.corr(0, 1)).toBeGreaterThan(0.4);
    expect(d.corr(0, 1)).toBeLessThan(0.6);
    expect(d.corr(3, 5)).toBeGreaterThan(0.4);
    expect(Math.abs(d.corr(0, 3))).toBeLessThan(0.05);
    expect(Math.abs(d.mean(2))).toBeLessThan(0.002);
  });

  it('two arms: only the first candidate\'s cells, with their spreads, means and standardized units', () => {
    const two = firstCandidate(src);
    expect(two.cells).toEqual(['a · x', 'b · x']);
    expect(two.caseOf).toEqual([0, 1]);
    expect(two.variantOf).toEqual([0, 0]);
    expect(two.sd).toEqual([0.01, 0.04]);
    expect(two.mean).toEqual([0.1, 0.4]);
    expect(two.standardized).toEqual([[1, 0], [-1, 0]]);
    expect(two.cases).toEqual(src.cases);
  });
});
