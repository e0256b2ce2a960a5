/**
 * The adaptive warmup's call floor (TIER_UP_CALLS): a case whose batch times
 * are flat from the start still gets TIER_UP_CALLS calls before sampling when
 * that fits in TIER_UP_MAX_MS, and is warmed by time alone when it does not.
 * The clock is simulated: each call of the case advances it by a fixed cost,
 * so nothing here depends on the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { warmUp, TIER_UP_CALLS, TIER_UP_MAX_MS, type MeasureOptions } from '../src/measure.ts';
import type { Clock, ClockInfo } from '../src/clock.ts';

function simulated(costNs: number): { clock: Clock; fn: () => number; calls: () => number } {
  let now = 0;
  let calls = 0;
  return {
    clock: { name: 'simulated', now: () => now },
    fn: () => {
      now += costNs;
      return ++calls;
    },
    calls: () => calls,
  };
}

const info: ClockInfo = { name: "simulated", resolutionNs: 1, readCostNs: 0, edgeAligned: false };
const adaptive: MeasureOptions = { warmupMs: 300, warmupMinMs: 100, timeMs: 100, minSamples: 5, maxSamples: 1e5, sampleMs: 0 };

describe('adaptive warmup waits for the calls an engine takes to tier up', () => {
  it('goes on past a flat stretch until TIER_UP_CALLS when they fit in TIER_UP_MAX_MS (20 µs a call)', async () => {
    const c = simulated(20_000);
    const sampler = await warmUp(c.fn, false, c.clock, info, adaptive);
    expect(sampler.warmupIterations).toBeGreaterThanOrEqual(TIER_UP_CALLS);
    expect(c.clock.now() / 1e6).toBeLessThanOrEqual(TIER_UP_MAX_MS + 50);
  });

  it('ends by time when TIER_UP_CALLS would take longer than TIER_UP_MAX_MS (200 µs a call)', async () => {
    const c = simulated(200_000);
    const sampler = await warmUp(c.fn, false, c.clock, info, adaptive);
    expect(sampler.warmupIterations).toBeLessThan(TIER_UP_CALLS);
    // The flat stretch ends it between the floor (100 ms) and the cap (300 ms).
    expect(c.clock.now() / 1e6).toBeLessThanOrEqual(adaptive.warmupMs + 50);
  });

  it('leaves a fixed warmup (no warmupMinMs) at exactly its time', async () => {
    const c = simulated(20_000);
    const { warmupMinMs: _, ...fixed } = adaptive;
    const sampler = await warmUp(c.fn, false, c.clock, info, fixed);
    expect(sampler.warmupIterations).toBeLessThan(TIER_UP_CALLS);
    expect(c.clock.now() / 1e6).toBeLessThanOrEqual(fixed.warmupMs + 50);
  });
});
