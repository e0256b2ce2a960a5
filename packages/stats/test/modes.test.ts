import { describe, expect, it } from 'vitest';
import { bestSplit, criticalRatio, detectModes, type ModeSummary } from '../src/index.ts';
import { createRandom } from '../src/random.ts';
import { lognormal, normalSource } from './helpers.ts';

const multimodal = (s: ModeSummary): boolean => s.modes.length > 1;

/** Share of `reps` seeded data sets on which detectModes reports two modes. */
function alarmRate(make: (next: () => number, random: () => number) => number[], reps: number, seed: number): number {
  const next = normalSource(seed);
  const random = createRandom(seed + 1);
  let alarms = 0;
  for (let r = 0; r < reps; r++) if (multimodal(detectModes(make(next, random)))) alarms++;
  return alarms / reps;
}

/** Upper end of a one-sided 99.9% binomial bound on the alarm count at rate p: generous, so a correct method never fails. */
function maxAlarms(p: number, reps: number): number {
  return (p * reps + 3.1 * Math.sqrt(reps * p * (1 - p)) + 1) / reps;
}

/** Two clusters `ratio` apart, `share` of the values in the upper one, log-sd `sigma` each. */
function twoClusters(next: () => number, n: number, ratio: number, share: number, sigma: number): number[] {
  const upper = Math.round(share * n);
  return [...lognormal(next, n - upper, 100, sigma), ...lognormal(next, upper, 100 * ratio, sigma)];
}

describe('detectModes: false alarms (stated rate: alpha = 1% on log-normal data)', () => {
  const reps = 600;
  for (const n of [10, 30, 100]) {
    it(`log-normal timings, n = ${n}, alarm at about alpha`, () => {
      const rate = alarmRate((next) => lognormal(next, n, 100, 0.05), reps, 11 + n);
      expect(rate).toBeLessThanOrEqual(maxAlarms(0.01, reps));
    });
    it(`heavy-tailed timings (log values ~ Student t, 3 df), n = ${n}, alarm no more than alpha`, () => {
      const rate = alarmRate(
        (next) =>
          Array.from({ length: n }, () => {
            const chi2 = next() ** 2 + next() ** 2 + next() ** 2;
            return 100 * Math.exp((0.03 * next()) / Math.sqrt(chi2 / 3));
          }),
        reps,
        21 + n,
      );
      expect(rate).toBeLessThanOrEqual(maxAlarms(0.01, reps));
    });
    it(`timings with scattered slow outliers (10% delayed by an exponential amount), n = ${n}`, () => {
      const rate = alarmRate(
        (next, random) => Array.from({ length: n }, () => 100 * Math.exp(0.02 * next() + (random() < 0.1 ? -0.3 * Math.log(1 - random()) : 0))),
        reps,
        31 + n,
      );
      // Outliers spread out do not form a cluster; at n = 10 two of them sometimes land close together.
      expect(rate).toBeLessThanOrEqual(maxAlarms(0.05, reps));
    });
  }
});

describe('detectModes: finds two clusters 1.5x apart', () => {
  it('with 20% in the smaller cluster and n = 30 (log-sd 5% each): found in nearly every data set, right counts', () => {
    const next = normalSource(41);
    let found = 0;
    for (let r = 0; r < 200; r++) {
      const s = detectModes(twoClusters(next, 30, 1.5, 0.2, 0.05));
      if (multimodal(s)) {
        found++;
        // 24 and 6 drawn; a 4-sigma draw can cross the midpoint between the clusters.
        expect(Math.abs(s.modes[1]!.count - 6)).toBeLessThanOrEqual(1);
        expect(s.modes[0]!.count + s.modes[1]!.count).toBe(30);
        expect(s.modes[1]!.center / s.modes[0]!.center).toBeGreaterThan(1.35);
        expect(s.modes[1]!.center / s.modes[0]!.center).toBeLessThan(1.65);
      }
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.97);
  });

  it('with the slower cluster the larger, broader one (30% at log-sd 3%, 70% 1.7x slower at log-sd 10%), n = 20', () => {
    const next = normalSource(42);
    let found = 0;
    for (let r = 0; r < 200; r++) {
      const values = [...lognormal(next, 6, 100, 0.03), ...lognormal(next, 14, 170, 0.1)];
      if (multimodal(detectModes(values))) found++;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('in pooled samples (n = 2000, reduced to 200 quantiles): modes keep the full counts', () => {
    const next = normalSource(43);
    const s = detectModes(twoClusters(next, 2000, 1.5, 0.3, 0.04));
    expect(s.modes).toHaveLength(2);
    expect(s.modes[0]!.count + s.modes[1]!.count).toBe(2000);
    expect(Math.abs(s.modes[1]!.count - 600)).toBeLessThan(10);
    expect(s.modes[0]!.low).toBeLessThan(s.modes[0]!.center);
    expect(s.modes[0]!.high).toBeLessThan(s.modes[1]!.low);
  });

  it('reports a single cluster as one mode spanning everything', () => {
    const values = lognormal(normalSource(44), 25, 100, 0.02);
    const s = detectModes(values);
    expect(s.modes).toHaveLength(1);
    expect(s.modes[0]).toMatchObject({ count: 25, low: Math.min(...values), high: Math.max(...values) });
    expect(s.method).toContain('one mode');
  });

  it('ignores a minority smaller than minShare, and finds it when minShare allows', () => {
    // 2 of 20 (10%) at 1.5x: an outlying pair, not a mode at the default 20%.
    const values = [...lognormal(normalSource(45), 18, 100, 0.02), 150, 152];
    expect(detectModes(values).modes).toHaveLength(1);
    expect(detectModes(values, { minShare: 0.1 }).modes.map((m) => m.count)).toEqual([18, 2]);
  });

  it('calls clusters closer than minRatio one mode even when they are separate', () => {
    const values = [...Array(10).fill(100), ...Array(10).fill(103)].map((v, i) => v + i * 1e-4);
    expect(detectModes(values).modes).toHaveLength(1);
    expect(detectModes(values, { minRatio: 1.01 }).modes).toHaveLength(2);
  });
});

describe('detectModes: edge cases', () => {
  it('does not test fewer than 6 values, and treats equal values as one mode', () => {
    expect(detectModes([100, 150, 100, 150, 100]).method).toContain('not tested');
    expect(detectModes([100, 150, 100, 150, 100]).modes).toHaveLength(1);
    expect(detectModes(Array(12).fill(5)).modes).toEqual([{ center: 5, count: 12, low: 5, high: 5 }]);
  });

  it('rejects bad input with a RangeError', () => {
    expect(() => detectModes([])).toThrow(RangeError);
    expect(() => detectModes([1, 2, 0])).toThrow(RangeError);
    expect(() => detectModes([1, 2, Number.NaN])).toThrow(RangeError);
    expect(() => detectModes([1, 2, 3], { alpha: 0 })).toThrow(RangeError);
    expect(() => detectModes([1, 2, 3], { minShare: 0.6 })).toThrow(RangeError);
  });

  it('bestSplit finds the exact minimum-SS split', () => {
    const logs = [0, 0.01, 0.02, 1, 1.01, 1.02, 1.03];
    expect(bestSplit(logs, 2).lowerCount).toBe(3);
    expect(bestSplit(logs, 2).ratio).toBeLessThan(0.01);
    expect(bestSplit([3, 3, 3, 3], 2).ratio).toBe(1);
  });

  it('criticalRatio is deterministic and rises towards 1 - 2/pi as n grows', () => {
    expect(criticalRatio(10, 0.2, 0.01)).toBe(criticalRatio(10, 0.2, 0.01));
    const small = criticalRatio(10, 0.2, 0.01);
    const large = criticalRatio(200, 0.2, 0.01);
    expect(small).toBeLessThan(large);
    expect(large).toBeLessThan(1 - 2 / Math.PI);
    expect(criticalRatio(30, 0.2, 0.05)).toBeGreaterThan(criticalRatio(30, 0.2, 0.01));
  });
});

describe('detectModes: what it decides on, and what it says', () => {
  it('the critical ratio is the alpha-quantile of the split ratio of normal samples (independent estimate: numpy, 10^6 samples each)', () => {
    for (const [n, alpha, want] of [[10, 0.05, 0.13659], [30, 0.05, 0.2403], [200, 0.05, 0.32011], [200, 0.01, 0.30473]] as const) {
      // 4,000 seeded draws: within 1% of the reference.
      expect(Math.abs(criticalRatio(n, 0.2, alpha) / want - 1)).toBeLessThan(0.01);
    }
  });

  it('from 6 values on, two clusters are two modes', () => {
    expect(detectModes([100, 100, 100, 150, 150, 150]).modes.map((m) => m.count)).toEqual([3, 3]);
  });

  it('centers exactly minRatio apart are two modes; closer ones one', () => {
    const tenEach = (upper: number): number[] => [...Array<number>(10).fill(100), ...Array<number>(10).fill(upper)];
    expect(detectModes(tenEach(105)).modes.map((m) => m.center)).toEqual([100, 105]);
    expect(detectModes(tenEach(104)).modes).toHaveLength(1);
  });

  it('the method says the test, its statistic against the critical value, and why one mode', () => {
    const critical = criticalRatio(20, 0.2, 0.01).toFixed(3);
    const two = [...Array<number>(10).fill(100), ...Array<number>(10).fill(150)];
    expect(detectModes(two).method).toBe(`log two-means split: two modes (R = 0.000 vs ${critical} at alpha 0.01, n 20)`);
    const close = [...Array<number>(10).fill(100), ...Array<number>(10).fill(103)];
    expect(detectModes(close).method).toBe(`log two-means split: one mode (R = 0.000 vs ${critical} at alpha 0.01, n 20; centers within 1.05x)`);
    expect(detectModes(lognormal(normalSource(46), 20, 100, 0.02)).method).toMatch(new RegExp(`^log two-means split: one mode \\(R = 0\\.\\d{3} vs ${critical} at alpha 0\\.01, n 20\\)$`));
    expect(detectModes([1, 2, 3, 4, 5]).method).toBe('log two-means split: not tested (fewer than 6 values)');
  });

  it('the test does not depend on the unit: counts that barely vary (±5 in 10^9) read the same in units of 10^9', () => {
    const random = createRandom(47);
    for (let trial = 0; trial < 10; trial++) {
      const counts = Array.from({ length: 30 }, () => 1e9 + Math.floor(random() * 11) - 5);
      const inBillions = detectModes(counts.map((c) => c / 1e9));
      expect(detectModes(counts).method).toBe(inBillions.method);
      expect(inBillions.modes).toHaveLength(1);
    }
  });
});
