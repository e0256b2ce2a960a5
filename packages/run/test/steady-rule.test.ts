/** The lockstep measurer's warmup rule: the steady rule built from an engine's horizon, and the tier-up horizon learned per arm and case. */
import { describe, expect, it } from 'vitest';
import type { WarmupSeries } from '@rtbench/core/protocol';
import { TierUpHorizons, withSteadyRule } from '../src/measurers/steady-rule.ts';

const series = (tierUp?: WarmupSeries['tierUp']): WarmupSeries => ({ calls: [1], ms: [1], ns: [1], calibrationCalls: 1, maxMs: 3000, ...(tierUp ? { tierUp } : {}) });
const crossed = (stepped: boolean): WarmupSeries => series({ kind: 'crossed', flatAt: { calls: 4000, ms: 90 }, ratio: stepped ? 0.5 : 1, stepped });

describe('TierUpHorizons', () => {
  it('waives the horizon for an arm and case once a process crossed it flat, and for no other arm or case', () => {
    const h = new TierUpHorizons();
    expect(h.waives('node', 'a')).toBe(false);
    h.learn('node', 'a', crossed(false));
    expect(h.waives('node', 'a')).toBe(true);
    expect(h.waives('node --no-maglev', 'a')).toBe(false);
    expect(h.waives('node', 'b')).toBe(false);
  });

  it('keeps the horizon for good once a process stepped there, whatever a later one says', () => {
    const h = new TierUpHorizons();
    h.learn('node', 'a', crossed(true));
    h.learn('node', 'a', crossed(false));
    expect(h.waives('node', 'a')).toBe(false);
    const after = new TierUpHorizons();
    after.learn('node', 'a', crossed(false));
    after.learn('node', 'a', crossed(true));
    expect(after.waives('node', 'a')).toBe(false);
  });

  it('learns nothing from a crossing slower after the horizon than before it: the next one judges', () => {
    const h = new TierUpHorizons();
    h.learn('node', 'a', series({ kind: 'crossed', flatAt: { calls: 4000, ms: 90 }, ratio: 1.46, stepped: true }));
    expect(h.waives('node', 'a')).toBe(false);
    h.learn('node', 'a', crossed(false));
    expect(h.waives('node', 'a')).toBe(true);
  });

  it('learns nothing from a process that did not cross the horizon flat, or was waived', () => {
    const h = new TierUpHorizons();
    h.learn('node', 'a', undefined);
    h.learn('node', 'a', series());
    h.learn('node', 'a', series({ kind: 'waived' }));
    expect(h.waives('node', 'a')).toBe(false);
  });
});

describe('withSteadyRule', () => {
  const measure = { warmupMs: 60, warmupMinMs: 20, timeMs: 40, minSamples: 5, maxSamples: 100, sampleMs: 0 };
  const v8 = { minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };

  it('hands the engine its horizons, waived only when asked', () => {
    expect(withSteadyRule(measure, v8).steady).toEqual({ windowBatches: 8, tolerance: 0.02, minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 });
    expect(withSteadyRule(measure, v8, true).steady?.waiveTierUp).toBe(true);
  });

  it('leaves a fixed warmup fixed', () => {
    const fixed = { warmupMs: 60, timeMs: 40, minSamples: 5, maxSamples: 100, sampleMs: 0 };
    expect(withSteadyRule(fixed, v8, true)).toEqual(fixed);
  });
});
