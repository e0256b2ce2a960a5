/**
 * A warmup without a steady rule (a job that names none): exactly warmupMs of
 * batches, whatever warmupMinMs says, and whatever calls the engine might
 * tier up by (the rule, with its engine's horizons, is the measurer's:
 * steady-state.test.ts). The clock is simulated: each call of the case
 * advances it by a fixed cost, so nothing here depends on the machine.
 */
import { describe, expect, it } from 'vitest';
import { warmUp, TIER_UP_CALLS, type MeasureOptions } from '../src/measure.ts';
import type { Clock, ClockInfo } from '../src/clock.ts';

function simulated(costNs: number): { clock: Clock; fn: () => number } {
  let now = 0;
  let calls = 0;
  return {
    clock: { name: 'simulated', now: () => now },
    fn: () => {
      now += costNs;
      return ++calls;
    },
  };
}

const info: ClockInfo = { name: 'simulated', resolutionNs: 1, readCostNs: 0, edgeAligned: false };
const fixed: MeasureOptions = { warmupMs: 300, timeMs: 100, minSamples: 5, maxSamples: 1e5, sampleMs: 0 };

describe('a warmup without a steady rule', () => {
  for (const [what, options] of [
    ['no warmupMinMs', fixed],
    ['a warmupMinMs but no rule', { ...fixed, warmupMinMs: 100 }],
  ] as const) {
    it(`takes exactly warmupMs (${what}), not waiting for the tier-up calls of a flat 20 µs case`, async () => {
      const c = simulated(20_000);
      const sampler = await warmUp(c.fn, false, c.clock, info, options);
      const ms = c.clock.now() / 1e6;
      expect(ms).toBeGreaterThanOrEqual(fixed.warmupMs);
      // One batch (~1 ms) past its end at most.
      expect(ms).toBeLessThanOrEqual(fixed.warmupMs + 5);
      expect(sampler.warmupIterations).toBeLessThan(TIER_UP_CALLS);
      expect(sampler.warmup).toBeUndefined();
    });
  }
});
