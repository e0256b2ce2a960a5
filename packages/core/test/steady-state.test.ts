/**
 * The in-runtime steady-state watch (steady-state.ts) and the warmup it ends
 * (measure.ts warmUp with MeasureOptions.steady). Pure functions with
 * property tests; the warmups run on a simulated clock (each call advances
 * it by the case's cost), so nothing depends on the machine's speed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { medianOf, pastHorizons, TIER_UP_STEP, WarmupWatch, WARMUP_SERIES_POINTS, windowsOneLevel, type SteadyRule } from '../src/steady-state.ts';
import { warmUp, type MeasureOptions } from '../src/measure.ts';
import type { Clock, ClockInfo } from '../src/clock.ts';

const level = fc.double({ min: 1, max: 1e7, noNaN: true });

describe('medianOf', () => {
  it('is the middle of the sorted values (the mean of the two middle ones for an even count)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e9, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 40 }), (values) => {
        const sorted = [...values].sort((a, b) => a - b);
        const n = sorted.length;
        const expected = n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
        expect(medianOf(values, 0, n)).toBeCloseTo(expected, 6);
      }),
    );
  });
});

describe('windowsOneLevel', () => {
  it('calls two windows of one level one level, whatever their spread within the tolerance', () => {
    fc.assert(
      fc.property(level, fc.array(fc.double({ min: -0.009, max: 0.009, noNaN: true }), { minLength: 16, maxLength: 16 }), (base, jitter) => {
        expect(windowsOneLevel(jitter.map((j) => base * (1 + j)), 8, 0.02)).toBe(true);
      }),
    );
  });

  it('calls a step between quiet windows (wider than the tolerance and their noise) two levels, either way', () => {
    fc.assert(
      fc.property(level, fc.double({ min: 0.05, max: 3, noNaN: true }), fc.boolean(), fc.array(fc.double({ min: -0.002, max: 0.002, noNaN: true }), { minLength: 16, maxLength: 16 }), (base, step, down, jitter) => {
        const second = down ? base / (1 + step) : base * (1 + step);
        const values = jitter.map((j, i) => (i < 8 ? base : second) * (1 + j));
        expect(windowsOneLevel(values, 8, 0.02)).toBe(false);
      }),
    );
  });

  it('needs two full windows', () => {
    expect(windowsOneLevel([1, 1, 1, 1, 1, 1, 1], 4, 0.02)).toBe(false);
    expect(windowsOneLevel([1, 1, 1, 1, 1, 1, 1, 1], 4, 0.02)).toBe(true);
  });
});

const RULE: SteadyRule = { windowBatches: 8, tolerance: 0.02, minMs: 20, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };

describe('pastHorizons', () => {
  it('holds a case short of the tier-up calls when they would come within the horizon, and never before minMs', () => {
    expect(pastHorizons(RULE, 10, 1e6, 1)).toBe(false);
    // 30,000 calls of 20 µs: 600 ms, within 1.5 s; 10,000 to go.
    expect(pastHorizons(RULE, 100, 20_000, 20_000)).toBe(false);
    // 30,000 calls of 200 µs: 6 s, past the horizon.
    expect(pastHorizons(RULE, 100, 1_000, 200_000)).toBe(true);
    expect(pastHorizons(RULE, 100, 30_000, 20_000)).toBe(true);
  });

  it('holds a process sharing its core to the same call as one alone: the calls counted at their rate, not the wall clock', () => {
    const known: SteadyRule = { ...RULE, tierUpCallNs: 12_300 };
    // Alone, 18,000 calls of a 12-28 µs case in 500 ms; beside three runtimes on two cores the same calls took 1.4 s.
    for (const elapsedMs of [500, 1_400, 2_900]) expect(pastHorizons(known, elapsedMs, 18_000, 12_500)).toBe(false);
    expect(pastHorizons(known, 1_400, 30_000, 12_500)).toBe(true);
  });

  it("holds a process twice its arm's known rate or slower until the horizon's time, however few calls it needs", () => {
    const known: SteadyRule = { ...RULE, tierUpCallNs: 250_000 };
    // 1.5 ms a call where the arm ran 0.25 ms: a slow state, held until 1.5 s.
    expect(pastHorizons(known, 100, 60, 1_500_000)).toBe(false);
    expect(pastHorizons(known, 1_400, 900, 1_500_000)).toBe(false);
    expect(pastHorizons(known, 1_500, 1_000, 1_500_000)).toBe(true);
    // Within twice the rate: processes differ that much without a state.
    expect(pastHorizons(known, 100, 300, 450_000)).toBe(true);
    // No rate known (an arm's first process): nothing to hold it to.
    expect(pastHorizons(RULE, 100, 60, 1_500_000)).toBe(true);
  });
});

describe('WarmupWatch series', () => {
  it('keeps at most WARMUP_SERIES_POINTS points, in order, ending at the last batch, with the total time of the batches', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 1, max: 1e6, noNaN: true })), { minLength: 1, maxLength: 700 }), (batches) => {
        const watch = new WarmupWatch(RULE);
        let calls = 0;
        let ms = 0;
        let totalNs = 0;
        for (const [n, ns] of batches) {
          calls += n;
          ms += 1;
          totalNs += n * ns;
          watch.add(ns, calls, ms);
        }
        const s = watch.series();
        expect(s.ns.length).toBeLessThanOrEqual(WARMUP_SERIES_POINTS);
        expect(s.ns.length).toBe(s.calls.length);
        expect(s.ms.length).toBe(s.calls.length);
        expect(s.calls[s.calls.length - 1]).toBe(calls);
        expect(s.ms[s.ms.length - 1]).toBe(ms);
        for (let i = 1; i < s.calls.length; i++) expect(s.calls[i]!).toBeGreaterThan(s.calls[i - 1]!);
        // Merged points are means weighted by calls: the series still holds the warmup's total time (to its rounding: ns per call to the ps).
        const kept = s.ns.reduce((sum, ns, i) => sum + ns * (s.calls[i]! - (i ? s.calls[i - 1]! : 0)), 0);
        // Each point is off by at most 0.0005 ns of at least 1 ns: at most 0.05% of the total.
        expect(Math.abs(kept / totalNs - 1)).toBeLessThanOrEqual(5e-4 + 1e-12);
      }),
    );
  });
});

/** A case on a simulated clock whose cost per call is `costNs(call)`. */
function simulated(costNs: (call: number) => number): { clock: Clock; fn: () => number } {
  let now = 0;
  let calls = 0;
  return {
    clock: { name: 'simulated', now: () => now },
    fn: () => {
      now += costNs(++calls);
      return calls;
    },
  };
}

/**
 * A watch fed batches of 50 calls whose ns per call is `nsPerCall(batch, calls before it)`, the clock advancing by
 * each batch, until it is steady (at most 10,000 batches): its series.
 */
function watchUntilSteady(nsPerCall: (batch: number, calls: number) => number, rule: Partial<SteadyRule> = {}): ReturnType<WarmupWatch['series']> {
  const watch = new WarmupWatch({ ...RULE, ...rule });
  let calls = 0;
  let ms = 0;
  let fastest = Infinity;
  for (let batch = 0; batch < 10_000 && !watch.steady(ms, calls, fastest); batch++) {
    const ns = nsPerCall(batch, calls);
    calls += 50;
    ms += (50 * ns) / 1e6;
    fastest = Math.min(fastest, ns);
    watch.add(ns, calls, ms);
  }
  return watch.series();
}

const info: ClockInfo = { name: 'simulated', resolutionNs: 1, readCostNs: 0, edgeAligned: false };
const options = (rule: Partial<SteadyRule>): MeasureOptions => ({ warmupMs: 300, warmupMinMs: 20, timeMs: 100, minSamples: 5, maxSamples: 1e5, sampleMs: 0, steady: { ...RULE, ...rule } });

describe('a watched warmup', () => {
  it('ends a flat case soon after minMs when no call horizon holds it', async () => {
    const c = simulated(() => 20_000);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({ tierUpCalls: 0 }));
    expect(sampler.warmup!.steadyAt!.ms).toBeGreaterThanOrEqual(20);
    // Calibration, then two windows of ~1 ms batches past minMs.
    expect(c.clock.now() / 1e6).toBeLessThan(60);
  });

  it('holds a flat 20 µs case for the tier-up calls that come within the horizon', async () => {
    const c = simulated(() => 20_000);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({}));
    expect(sampler.warmupIterations).toBeGreaterThanOrEqual(30_000);
    expect(sampler.warmup!.steadyAt!.calls).toBeGreaterThanOrEqual(30_000);
  });

  it('goes on while the case keeps stepping, and samples after its last step', async () => {
    // 10% faster every 150 calls (every few batches) up to call 3,000, then steady: no two windows are one level before.
    const cost = (call: number): number => 40_000 * 0.9 ** Math.floor(Math.min(call, 3_000) / 150);
    const c = simulated(cost);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({ tierUpCalls: 0 }));
    expect(sampler.warmup!.steadyAt!.calls).toBeGreaterThan(3_000);
    expect(sampler.batchNs / sampler.iterationsPerSample).toBeCloseTo(cost(3_000), 6);
  });

  it('samples a case that never settles at the maximum, with no steady point', async () => {
    // Faster by 3% every 500 calls, without end within the maximum: every window is faster than the one before by more than 2%.
    const c = simulated((call) => 20_000 * 0.97 ** (call / 500));
    const sampler = await warmUp(c.fn, false, c.clock, info, options({ tierUpCalls: 0, maxMs: 200 }));
    const end = c.clock.now() / 1e6;
    expect(sampler.warmup!.steadyAt).toBeUndefined();
    expect(end).toBeGreaterThanOrEqual(200);
    expect(end).toBeLessThan(210);
  });
});

describe('the tier-up horizon, crossed and waived', () => {
  it('says a flat case crossed the horizon without a step: flat before it, the same level after', async () => {
    const c = simulated(() => 20_000);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({}));
    const tierUp = sampler.warmup!.tierUp;
    expect(tierUp).toMatchObject({ kind: 'crossed', ratio: 1, stepped: false });
    // Flat well before the 30,000th call, where the horizon let it end.
    expect(tierUp?.kind === 'crossed' && tierUp.flatAt.calls).toBeLessThan(10_000);
    expect(sampler.warmup!.steadyAt!.calls).toBeGreaterThanOrEqual(30_000);
  });

  it('says a case that steps at the horizon stepped, by how much, and samples the level after the step', async () => {
    // Flat at 40 µs, then twice as fast from the 27,000th call (V8 moving a case inlined by its mid tier to its top tier).
    const cost = (call: number): number => (call < 27_000 ? 40_000 : 20_000);
    const c = simulated(cost);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({}));
    const tierUp = sampler.warmup!.tierUp;
    expect(tierUp).toMatchObject({ kind: 'crossed', stepped: true });
    expect(tierUp?.kind === 'crossed' && tierUp.ratio).toBeCloseTo(0.5, 2);
    expect(sampler.batchNs / sampler.iterationsPerSample).toBeCloseTo(20_000, 6);
  });

  it('does not wait for the horizon when the process is already at the rate known past it, and says so with the ratio', async () => {
    const c = simulated(() => 20_000);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({ tierUpCallNs: 19_000 }));
    expect(sampler.warmup!.tierUp).toEqual({ kind: 'waived', ratio: expect.closeTo(20 / 19, 3) as number });
    expect(sampler.warmupIterations).toBeLessThan(30_000);
    expect(c.clock.now() / 1e6).toBeLessThan(60);
  });

  it('waits for the horizon in a process slower than the rate known past it, and samples the level past it', async () => {
    // A slow start: 80 µs a call for the first 2,000 calls, 20 µs after (V8's JSON.stringify of 10 KB in some processes).
    const cost = (call: number): number => (call < 2_000 ? 80_000 : 20_000);
    const known = simulated(cost);
    const sampler = await warmUp(known.fn, false, known.clock, info, options({ minMs: 50, tierUpCallNs: 20_000 }));
    expect(sampler.batchNs / sampler.iterationsPerSample).toBeCloseTo(20_000, 6);
    // It ended once at the known rate, before the tier-up calls.
    expect(sampler.warmup!.tierUp).toMatchObject({ kind: 'waived' });
    // Without the known rate the tier-up calls, projected at 80 µs, lie past the horizon: it is sampled at the slow level.
    const unknown = simulated(cost);
    const alone = await warmUp(unknown.fn, false, unknown.clock, info, options({ minMs: 50 }));
    expect(alone.batchNs / alone.iterationsPerSample).toBeCloseTo(80_000, 6);
  });

  it('holds a process flat at a level slower than the known rate by more than the least step: to the tier-up calls, or the horizon\'s time at the known rate', () => {
    fc.assert(
      fc.property(fc.double({ min: 1 + TIER_UP_STEP + 0.01, max: 4, noNaN: true }), (slower) => {
        const { tierUp, steadyAt } = watchUntilSteady(() => 20_000 * slower, { tierUpCallNs: 20_000 });
        expect(tierUp?.kind).toBe('crossed');
        // Ended where the calls left, at 20 µs each, no longer fit in the horizon's 1.5 s, or at the calls themselves.
        const { calls, ms } = steadyAt!;
        expect(calls >= 30_000 || ms + ((30_000 - calls) * 20_000) / 1e6 > 1_500).toBe(true);
        expect(ms).toBeGreaterThan(600);
      }),
      { numRuns: 20 },
    );
  });

  it('ends a process within the least step of the known rate as soon as its windows are one level past minMs', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 1 + TIER_UP_STEP - 0.01, noNaN: true }), (ratio) => {
        const { tierUp, steadyAt } = watchUntilSteady(() => 20_000 * ratio, { tierUpCallNs: 20_000 });
        expect(tierUp).toEqual({ kind: 'waived', ratio: expect.closeTo(ratio, 3) as number });
        expect(steadyAt!.ms).toBeLessThan(RULE.minMs + 20 * ratio);
      }),
      { numRuns: 20 },
    );
  });

  it('judges the crossing on the fastest batches: a shared core that slowed most batches before the horizon is not a step', () => {
    // 1 ms batches of 50 calls at 20 µs; until the 10,000th call five of every eight batches were preempted to 3× as long
    // (window medians 60 µs), after it none were: the medians are 3× apart, the fastest batches one level.
    const { tierUp } = watchUntilSteady((batch, calls) => (calls < 10_000 && batch % 8 < 5 ? 60_000 : 20_000));
    expect(tierUp).toMatchObject({ kind: 'crossed', ratio: 1, stepped: false });
  });

  it('calls a tier-up-sized drop of the fastest batch a step, and a small one none', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.95, noNaN: true }), (after) => {
        const { tierUp } = watchUntilSteady((_, calls) => (calls < 27_000 ? 40_000 : 40_000 * after));
        expect(tierUp).toMatchObject({ kind: 'crossed', stepped: after < 1 - TIER_UP_STEP });
      }),
      { numRuns: 20 },
    );
  });

  it('judges nothing from a flat window found past a quarter of the tier-up calls (it may straddle the step): the horizon stays', () => {
    // Flat at 20 µs, judged first at minMs (200 ms: the 10,000th call), twice as fast from the 27,000th.
    const { tierUp, steadyAt } = watchUntilSteady((_, calls) => (calls < 27_000 ? 20_000 : 10_000), { minMs: 200 });
    expect(tierUp).toBeUndefined();
    expect(steadyAt!.calls).toBeGreaterThanOrEqual(30_000);
  });

  it('says nothing of the horizon where it held nothing', async () => {
    const c = simulated(() => 200_000);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({}));
    expect(sampler.warmup!.tierUp).toBeUndefined();
  });
});

describe('a watched warmup of a long case', () => {
  it('compares windows of 4 batches when a batch is one call of milliseconds, calibration\'s three one-call batches the first of them', async () => {
    const c = simulated(() => 10e6);
    const sampler = await warmUp(c.fn, false, c.clock, info, options({ tierUpCalls: 0 }));
    // Calibration's 3 calls open the first window of 4 one-call batches (not 8): steady at the 8th call.
    expect(sampler.warmup!.steadyAt!.calls).toBe(8);
  });

  it('goes on past calibration\'s batches when they were slower than the ones after', async () => {
    // The first three calls at 20 ms, then 10 ms: not steady at the 8th call, as a flat case is.
    const c = simulated((call) => (call <= 3 ? 20e6 : 10e6));
    const sampler = await warmUp(c.fn, false, c.clock, info, options({ tierUpCalls: 0 }));
    expect(sampler.warmup!.steadyAt!.calls).toBeGreaterThan(8);
    expect(sampler.batchNs).toBe(10e6);
  });
});
