import { describe, expect, it } from 'vitest';
import { medianBootstrapInterval } from '../src/median-bootstrap.ts';
import { quantile } from '../src/quantile.ts';
import { createRandom } from '../src/random.ts';
import { normalSource } from './helpers.ts';

const sortedCopy = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);

/** Every resample of `values` (R^R, equally likely): its medians sorted, the bootstrap distribution counted out. */
function everyResampleMedian(values: readonly number[]): number[] {
  const R = values.length;
  const out: number[] = [];
  const picks = new Array<number>(R).fill(0);
  for (let n = 0; n < R ** R; n++) {
    let rest = n;
    for (let i = 0; i < R; i++) {
      picks[i] = values[rest % R]!;
      rest = Math.floor(rest / R);
    }
    out.push(quantile(sortedCopy(picks), 0.5));
  }
  return sortedCopy(out);
}

/** The smallest median whose share of the resamples at or below it reaches `level`. */
const reaching = (medians: readonly number[], level: number): number => medians[Math.max(0, Math.ceil(level * medians.length - 1e-9) - 1)]!;

describe('medianBootstrapInterval', () => {
  // Five and six values, with ties: every resample enumerated gives the distribution the binomial counts must give.
  it.each([
    [[3, 1, 4, 1, 5]],
    [[2.5, 7, 1, 8, 2.5, 9]],
    [[10, 11, 12, 13, 14, 40]],
  ])('is the percentile interval of every resample of %j counted out', (values) => {
    const medians = everyResampleMedian(values);
    for (const confidence of [0.2, 0.5, 0.8, 0.9, 0.95, 0.99]) {
      const a = (1 - confidence) / 2;
      expect(medianBootstrapInterval(values, confidence)).toEqual([reaching(medians, a), reaching(medians, 1 - a)]);
    }
  });

  // Ten process medians on a grid (ties), and 24: a random bootstrap of 10,000 resamples lands where the exact one does.
  it.each([
    [10, 200],
    [24, 1000],
  ])('matches a large random bootstrap of %i values (copy, sort, type-7 median) within its sampling error', (count, grid) => {
    const z = normalSource(count);
    const values = Array.from({ length: count }, () => Math.round(grid * Math.exp(0.05 * z())) / 10);
    const B = 10_000;
    const random = createRandom(77);
    const reps = sortedCopy(Array.from({ length: B }, () => quantile(sortedCopy(values.map(() => values[Math.floor(random() * count)]!)), 0.5)));
    // Within ±1% of the level: far beyond the binomial error of 10,000 draws (sd < 0.2% at 2.5%), far below a wrong distribution's.
    for (const confidence of [0.5, 0.9, 0.95]) {
      const a = (1 - confidence) / 2;
      const [low, high] = [quantile(reps, a), quantile(reps, 1 - a)];
      expect(low).toBeGreaterThanOrEqual(medianBootstrapInterval(values, confidence + 0.02)[0]);
      expect(low).toBeLessThanOrEqual(medianBootstrapInterval(values, confidence - 0.02)[0]);
      expect(high).toBeLessThanOrEqual(medianBootstrapInterval(values, confidence + 0.02)[1]);
      expect(high).toBeGreaterThanOrEqual(medianBootstrapInterval(values, confidence - 0.02)[1]);
    }
  });

  it('lies within the values, widens with the confidence, and one value is its own interval', () => {
    const values = [5, 9, 1, 7, 3, 8, 2];
    const [narrow, wide] = [medianBootstrapInterval(values, 0.5), medianBootstrapInterval(values, 0.99)];
    expect(wide[0]).toBeGreaterThanOrEqual(1);
    expect(wide[1]).toBeLessThanOrEqual(9);
    expect(wide[0]).toBeLessThan(narrow[0]);
    expect(wide[1]).toBeGreaterThan(narrow[1]);
    expect(medianBootstrapInterval([4], 0.95)).toEqual([4, 4]);
    expect(() => medianBootstrapInterval([], 0.95)).toThrow(/no values/);
  });

  it('gives an even count the midpoint of its two middle draws: 200 values in two clusters', () => {
    // The likeliest resample median is midway between the clusters' inner ends (99 and 1000), as a resample's would be.
    const values = [...Array.from({ length: 100 }, (_, i) => i), ...Array.from({ length: 100 }, (_, i) => 1000 + i)];
    const [low, high] = medianBootstrapInterval(values, 0.95);
    expect(low).toBeLessThan(500);
    expect(high).toBeGreaterThan(500);
    expect(medianBootstrapInterval(values, 0.01)).toEqual([549.5, 549.5]);
  });
});
