/** The lockstep measurer's warmup rule: the steady rule built from an engine's horizon, and the tier-up horizon learned per arm and case. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RoundRecord } from '@rtbench/core/schema';
import { TierUpHorizons, withSteadyRule } from '../src/measurers/steady-rule.ts';

const round = (samples: number[]): Pick<RoundRecord, 'samples'> => ({ samples });

describe('TierUpHorizons', () => {
  it('learns a process\'s median sample, for that arm and case only', () => {
    const h = new TierUpHorizons();
    expect(h.callNs('node', 'a')).toBeUndefined();
    h.learn('node', 'a', round([18, 16, 30, 15, 17]));
    expect(h.callNs('node', 'a')).toBe(17);
    expect(h.callNs('node --no-maglev', 'a')).toBeUndefined();
    expect(h.callNs('node', 'b')).toBeUndefined();
  });

  it('keeps the fastest rate its processes ran at, whatever their order', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 8 }), (rates) => {
        const h = new TierUpHorizons();
        for (const r of rates) h.learn('node', 'a', round([r, r * 2, r / 2]));
        expect(h.callNs('node', 'a')).toBe(Math.min(...rates));
      }),
    );
  });

  it('learns nothing from a round without samples', () => {
    const h = new TierUpHorizons();
    h.learn('node', 'a', round([]));
    expect(h.callNs('node', 'a')).toBeUndefined();
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
