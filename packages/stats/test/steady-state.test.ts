import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellSteadyState, classifyProcess, levelChange, STEADY_STATE_DEFAULTS, studentTQuantile, type ProcessSteadyState, type WarmupCourse } from '../src/index.ts';
import { lognormal, normalSource } from './helpers.ts';

/** A watched warmup whose points after calibration are `ns` (one call each), steady at its end unless `steady` is false. */
function course(ns: readonly number[], steady = true): WarmupCourse {
  const calls = ns.map((_, i) => 10 + (i + 1) * 100);
  return { calls, ms: calls.map((c) => c / 100), ns, calibrationCalls: 10, ...(steady ? { steadyAt: { calls: calls.at(-1)!, ms: calls.at(-1)! / 100 } } : {}) };
}

const level = fc.double({ min: 10, max: 1e7, noNaN: true });
const sigma = fc.double({ min: 0, max: 0.01, noNaN: true });

describe('classifyProcess', () => {
  it('says no steady state when the watch never found one, whatever the samples', () => {
    fc.assert(
      fc.property(level, (x) => {
        expect(classifyProcess(course([x, x, x], false), [x, x, x, x]).class).toBe('no-steady-state');
      }),
    );
  });

  it('says flat when the first watched batches and the samples are one level', () => {
    fc.assert(
      fc.property(level, sigma, fc.integer({ min: 1, max: 1000 }), (x, s, seed) => {
        const next = normalSource(seed);
        expect(classifyProcess(course(lognormal(next, 8, x, s)), lognormal(next, 20, x, s)).class).toBe('flat');
      }),
    );
  });

  it('says warmed, and where, when the first watched batches were slower by more than the tolerance and the noise', () => {
    fc.assert(
      fc.property(level, sigma, fc.double({ min: 1.1, max: 10, noNaN: true }), fc.integer({ min: 1, max: 1000 }), (x, s, slower, seed) => {
        const next = normalSource(seed);
        const warmup = course([...lognormal(next, 8, x * slower, s), ...lognormal(next, 16, x, s)]);
        expect(classifyProcess(warmup, lognormal(next, 20, x, s))).toEqual({ class: 'warmed', calls: warmup.steadyAt!.calls, ms: warmup.steadyAt!.ms });
      }),
    );
  });

  it('says slowdown when the samples are slower than the first watched batches', () => {
    fc.assert(
      fc.property(level, sigma, fc.double({ min: 1.1, max: 10, noNaN: true }), fc.integer({ min: 1, max: 1000 }), (x, s, slower, seed) => {
        const next = normalSource(seed);
        expect(classifyProcess(course(lognormal(next, 8, x, s)), lognormal(next, 20, x * slower, s)).class).toBe('slowdown');
      }),
    );
  });

  it('catches a step within the samples: down is warmed-late, up is slowdown', () => {
    fc.assert(
      fc.property(level, sigma, fc.double({ min: 1.1, max: 10, noNaN: true }), fc.boolean(), fc.integer({ min: 1, max: 1000 }), (x, s, step, down, seed) => {
        const next = normalSource(seed);
        const later = down ? x / step : x * step;
        const samples = [...lognormal(next, 10, x, s), ...lognormal(next, 10, later, s)];
        expect(classifyProcess(course(lognormal(next, 8, x, s)), samples).class).toBe(down ? 'warmed-late' : 'slowdown');
      }),
    );
  });

  it('classifies from the samples alone without a warmup series (a kept case rewarmed)', () => {
    expect(classifyProcess(undefined, [5, 5, 5, 5, 5, 5, 5, 5, 5, 5]).class).toBe('flat');
    expect(classifyProcess(undefined, [9, 9, 9, 9, 9, 9, 5, 5, 5, 5, 5, 5]).class).toBe('warmed-late');
  });

  // The stated rates (STEADY_STATE_DEFAULTS): one log-normal level with a spread twice the 5% tolerance (log-sd 10%),
  // 8 early batches, is called anything but flat in 0.7% of processes of 30 samples and 2.8% of 12 (4,000 seeded each).
  // Bounds with room: a binomial 99.9% margin above the measured rate.
  for (const [n, rate] of [[30, 0.007], [12, 0.028]] as const) {
    it(`rarely calls one noisy level anything but flat: ${n} samples (seeded, 2,000 processes)`, () => {
      const next = normalSource(54 + n);
      let wrong = 0;
      for (let i = 0; i < 2000; i++) if (classifyProcess(course(lognormal(next, 8, 1000, 0.1)), lognormal(next, n, 1000, 0.1)).class !== 'flat') wrong++;
      expect(wrong / 2000).toBeLessThan(rate + 3.1 * Math.sqrt((rate * (1 - rate)) / 2000) + 0.005);
    });
  }
});

describe('levelChange', () => {
  it('is antisymmetric: swapping the stretches swaps the sign', () => {
    fc.assert(
      fc.property(fc.array(level, { minLength: 1, maxLength: 20 }), fc.array(level, { minLength: 1, maxLength: 20 }), (a, b) => {
        const ab = levelChange(a, b);
        const ba = levelChange(b, a);
        // The tolerance is relative to the earlier median, so only a clear change must flip; neither may agree in sign.
        expect(ab === 0 || ba === 0 || ab === -ba).toBe(true);
      }),
    );
  });
});

describe('cellSteadyState', () => {
  const of = (...classes: ProcessSteadyState['class'][]) => classes.map((c) => ({ class: c }));
  it('marks a cell when a third of its processes or more are in a marked class, with the commonest (a tie: the graver)', () => {
    expect(cellSteadyState(of('flat', 'flat', 'flat', 'flat', 'warmed', 'no-steady-state')).mark).toBeUndefined();
    expect(cellSteadyState(of('flat', 'flat', 'flat', 'flat', 'no-steady-state', 'slowdown')).mark).toBe('no-steady-state');
    expect(cellSteadyState(of('flat', 'slowdown', 'slowdown', 'no-steady-state')).mark).toBe('slowdown');
    expect(cellSteadyState(of('warmed', 'warmed')).mark).toBeUndefined();
  });
  it('counts only classified processes (a run saved before the rule has none)', () => {
    expect(cellSteadyState([undefined, undefined])).toEqual({ counts: {}, classified: 0 });
    expect(cellSteadyState([undefined, { class: 'warmed-late' }]).mark).toBe('warmed-late');
  });
});

describe('levelChange: where one level ends', () => {
  it('medians within the tolerance are one level, its edge included', () => {
    expect(levelChange([100, 100, 100], [105, 105, 105])).toBe(0);
    expect(levelChange([100, 100, 100], [95, 95, 95])).toBe(0);
    expect(levelChange([100, 100, 100], [106, 106, 106])).toBe(1);
    expect(levelChange([100, 100, 100], [94, 94, 94])).toBe(-1);
  });

  it("past the tolerance, a step is one only beyond t(1 − α/2, n₁ + n₂ − 2) standard errors of the stretches' medians", () => {
    // Two values a stretch, each 1 from its median: σ = 1.4826, a median's standard error 1.2533 σ √(1/2 + 1/2), 2 df.
    const allowed = studentTQuantile(1 - STEADY_STATE_DEFAULTS.alpha / 2, 2) * 1.2533 * 1.4826;
    const step = (gap: number): number => levelChange([99, 101], [99 + gap, 101 + gap]);
    expect(step(allowed * 0.999)).toBe(0);
    expect(step(allowed * 1.001)).toBe(1);
    expect(step(-allowed * 0.999)).toBe(0);
    expect(step(-allowed * 1.001)).toBe(-1);
  });

  it('a stretch with nothing in it is no change', () => {
    expect(levelChange([], [1, 2, 3])).toBe(0);
    expect(levelChange([1, 2, 3], [])).toBe(0);
  });
});

describe('classifyProcess: what it compares', () => {
  it('fewer than minSamplesToSplit samples are not split in halves', () => {
    expect(classifyProcess(undefined, [9, 9, 9, 9, 9, 5, 5, 5, 5, 5]).class).toBe('flat');
    expect(classifyProcess(undefined, [9, 9, 9, 9, 9, 9, 5, 5, 5, 5, 5, 5]).class).toBe('warmed-late');
  });

  it('the first level is the first earlyPoints watched points after calibration', () => {
    const samples = Array<number>(20).fill(100);
    // Points at calls ≤ calibrationCalls are the calibration's: the first of these is one.
    const withCalibration = (ns: number[]): WarmupCourse => ({ ...course(ns), calls: ns.map((_, i) => 10 + i * 100) });
    expect(classifyProcess(withCalibration([200, 200, 200, 200, 100, 100, 100, 100, 100, 100]), samples).class).toBe('flat');
    // The ninth point after calibration is not in the first level.
    expect(classifyProcess(course([200, 200, 200, 200, 100, 100, 100, 100, 100, 100]), samples).class).toBe('warmed');
  });

  it('a watch with no point after calibration gives no first level: flat', () => {
    expect(classifyProcess({ calls: [5, 10], ms: [1, 2], ns: [500, 400], calibrationCalls: 10, steadyAt: { calls: 10, ms: 2 } }, [100, 100, 100]).class).toBe('flat');
  });
});
