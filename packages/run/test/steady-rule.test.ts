/** The lockstep measurer's warmup rule: the steady rule built from an engine's horizon, and the tier-up horizon learned per arm and case. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RoundRecord } from '@rtbench/core/schema';
import { TierUpHorizons, withSteadyRule } from '../src/measurers/steady-rule.ts';

type Warmup = NonNullable<RoundRecord['warmup']>;
const series = (extra: Partial<Warmup> = {}): Warmup => ({ calls: [1], ms: [1], ns: [1], calibrationCalls: 1, maxMs: 3000, ...extra });
const crossed: Warmup['tierUp'] = { kind: 'crossed', flatAt: { calls: 4000, ms: 90 }, ratio: 1, stepped: false };
const round = (samples: number[], warmup?: Warmup): Pick<RoundRecord, 'samples' | 'warmup'> => ({ samples, ...(warmup ? { warmup } : {}) });

describe('TierUpHorizons', () => {
  it('learns the median sample of a process that crossed the horizon, for that arm and case only', () => {
    const h = new TierUpHorizons();
    expect(h.callNs('node', 'a')).toBeUndefined();
    h.learn('node', 'a', round([18, 16, 30, 15, 17], series({ tierUp: crossed, steadyAt: { calls: 30_000, ms: 600 } })), 30_000);
    expect(h.callNs('node', 'a')).toBe(17);
    expect(h.callNs('node --no-maglev', 'a')).toBeUndefined();
    expect(h.callNs('node', 'b')).toBeUndefined();
  });

  it('keeps the fastest rate its waiting processes reached, whatever their order', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 8 }), (rates) => {
        const h = new TierUpHorizons();
        for (const r of rates) h.learn('node', 'a', round([r], series({ steadyAt: { calls: 30_050, ms: 700 } })), 30_000);
        expect(h.callNs('node', 'a')).toBe(Math.min(...rates));
      }),
    );
  });

  it('learns nothing from a process that did not wait for the tier-up calls, or ended at the known rate', () => {
    const h = new TierUpHorizons();
    h.learn('node', 'a', round([10]), 30_000);
    h.learn('node', 'a', round([10], series({ steadyAt: { calls: 2_000, ms: 60 } })), 30_000);
    h.learn('node', 'a', round([10], series({ steadyAt: { calls: 31_000, ms: 60 }, tierUp: { kind: 'waived', ratio: 1.02 } })), 30_000);
    h.learn('node', 'a', round([], series({ tierUp: crossed })), 30_000);
    expect(h.callNs('node', 'a')).toBeUndefined();
    // Steady past the engine's own tier-up calls: it waited.
    h.learn('node', 'a', round([10], series({ steadyAt: { calls: 2_000, ms: 60 } })), 1_000);
    expect(h.callNs('node', 'a')).toBe(10);
  });
});

describe('withSteadyRule', () => {
  const measure = { warmupMs: 60, warmupMinMs: 20, timeMs: 40, minSamples: 5, maxSamples: 100, sampleMs: 0 };
  const v8 = { minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };

  it('hands the engine its horizons, and the rate known past them when there is one', () => {
    expect(withSteadyRule(measure, v8).steady).toEqual({ windowBatches: 8, tolerance: 0.02, minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 });
    expect(withSteadyRule(measure, v8, 16_500).steady?.tierUpCallNs).toBe(16_500);
  });

  it('leaves a fixed warmup fixed', () => {
    const fixed = { warmupMs: 60, timeMs: 40, minSamples: 5, maxSamples: 100, sampleMs: 0 };
    expect(withSteadyRule(fixed, v8, 16_500)).toEqual(fixed);
  });
});
