/** The lockstep measurer's warmup rule: the steady rule built from an engine's horizon, and the tier-up horizon learned per runtime as run and case. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RoundRecord } from '@rtbench/core/schema';
import type { Arm } from '../src/measurer.ts';
import { TierUpHorizons, warmupKey, withSteadyRule } from '../src/measurers/steady-rule.ts';

const round = (samples: number[]): Pick<RoundRecord, 'samples'> => ({ samples });

describe('TierUpHorizons', () => {
  it('learns a process\'s median sample, for that runtime and case only', () => {
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

describe("an arm's first process, held to the rate its later ones teach", () => {
  const v8 = { minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };
  /** A process steady at `calls` and `ms` into its warmup, sampled at `ns` per call, classed flat by its own data. */
  const process = (ns: number, calls: number, ms: number): Pick<RoundRecord, 'samples' | 'warmup' | 'steadyState'> => ({
    samples: [ns, ns * 1.01, ns * 0.99, ns],
    warmup: { calls: [calls], ms: [ms], ns: [ns], calibrationCalls: 0, steadyAt: { calls, ms }, maxMs: 3_000 },
    steadyState: { class: 'flat' },
  });

  it('is classed warmed late when it was sampled 4× slower, where a later process would have waited for the tier-up calls', () => {
    const h = new TierUpHorizons();
    const first = process(66_000, 2_000, 120);
    h.learn('node', 'a', first, v8);
    expect(first.steadyState).toEqual({ class: 'flat' });
    const second = process(16_500, 30_000, 600);
    h.learn('node', 'a', second, v8, 66_000);
    expect(first.steadyState).toEqual({ class: 'warmed-late' });
    expect(first.samples[0]).toBe(66_000);
    expect(second.steadyState).toEqual({ class: 'flat' });
  });

  it('is classed warmed late when a case of milliseconds was sampled 4× slower before the horizon\'s time, though its calls could never come within it', () => {
    const h = new TierUpHorizons();
    const first = process(4e6, 60, 240);
    h.learn('node', 'a', first, v8);
    h.learn('node', 'a', process(1e6, 600, 800), v8);
    expect(first.steadyState).toEqual({ class: 'warmed-late' });
  });

  it('keeps its class under twice the rate (processes differ that much without a state), or past the horizon\'s time (and calls)', () => {
    const cases: [Pick<RoundRecord, 'samples' | 'warmup' | 'steadyState'>, number][] = [
      [process(30_000, 2_000, 120), 16_500],
      [process(66_000, 30_000, 1_600), 16_500],
      [process(4e6, 400, 1_600), 1e6],
    ];
    for (const [first, rate] of cases) {
      const h = new TierUpHorizons();
      h.learn('node', 'a', first, v8);
      h.learn('node', 'a', process(rate, 30_000, 600), v8);
      expect(first.steadyState).toEqual({ class: 'flat' });
    }
  });

  it('holds every process of the first round, the slower learned after the faster (an A/A\'s two arms, one runtime as run)', () => {
    const h = new TierUpHorizons();
    const fast = process(16_500, 30_000, 600);
    const slow = process(66_000, 200, 20);
    h.learn('node', 'a', fast, v8);
    h.learn('node', 'a', slow, v8);
    expect(slow.steadyState).toEqual({ class: 'warmed-late' });
    expect(fast.steadyState).toEqual({ class: 'flat' });
    expect(h.callNs('node', 'a')).toBe(16_500);
  });

  it('judges only processes told no rate: a later slow process met the test when it ran', () => {
    const h = new TierUpHorizons();
    const first = process(16_500, 30_000, 600);
    h.learn('node', 'a', first, v8);
    const slowLater = process(66_000, 2_000, 120);
    h.learn('node', 'a', slowLater, v8, 16_500);
    h.learn('node', 'a', process(16_000, 30_000, 600), v8, 16_500);
    expect(slowLater.steadyState).toEqual({ class: 'flat' });
    expect(first.steadyState).toEqual({ class: 'flat' });
  });
});

describe('warmupKey', () => {
  const arm = (over: { binary?: string; args?: string[]; env?: Record<string, string>; bundlePath?: string; id?: string } = {}): Pick<Arm, 'plugin' | 'target' | 'flags' | 'bundlePath'> & { id: string } => ({
    id: over.id ?? 'node@26',
    plugin: { name: 'node' } as Arm['plugin'],
    target: { runtime: 'node', spec: 'node@26', binary: over.binary ?? '/n/26/bin/node', source: 'npm', version: '26.0.0', engine: 'v8', engineVersion: '14.1' },
    flags: { args: over.args ?? [], env: over.env ?? {} },
    bundlePath: over.bundlePath ?? '/b/node.mjs',
  });

  it('is one for arms alike but in name, and apart for another binary, flag, environment or bundle', () => {
    expect(warmupKey(arm({ id: 'node@26#2' }))).toBe(warmupKey(arm()));
    expect(warmupKey(arm({ env: { B: '1', A: '2' } }))).toBe(warmupKey(arm({ env: { A: '2', B: '1' } })));
    for (const other of [arm({ binary: '/n/24/bin/node' }), arm({ args: ['--no-maglev'] }), arm({ env: { NODE_ENV: 'production' } }), arm({ bundlePath: '/b/node-react18.mjs' })]) {
      expect(warmupKey(other)).not.toBe(warmupKey(arm()));
    }
  });

  it("tells an arm, under its key, the rate its runtime as run learned from any arm alike, and another runtime none", () => {
    const h = new TierUpHorizons();
    expect(h.told('a', arm())).toEqual({ key: warmupKey(arm()), ns: undefined });
    h.learn(warmupKey(arm({ id: 'node@26#2' })), 'a', round([20, 21, 19]));
    expect(h.told('a', arm())).toEqual({ key: warmupKey(arm()), ns: 20 });
    expect(h.told('b', arm()).ns).toBeUndefined();
    expect(h.told('a', arm({ args: ['--no-maglev'] })).ns).toBeUndefined();
  });
});

describe('a rate that misled a waiver', () => {
  const v8 = { minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };
  /** A process waived at 700 calls (its fastest batch at the known rate), then sampled at `ns` per call. */
  const waived = (ns: number): Pick<RoundRecord, 'samples' | 'warmup' | 'steadyState'> => ({
    samples: [ns, ns * 1.01, ns * 0.99],
    warmup: { calls: [700], ms: [80], ns: [12_500], calibrationCalls: 0, steadyAt: { calls: 700, ms: 80 }, maxMs: 3_000, tierUp: { kind: 'waived', ratio: 0.99 } },
    steadyState: { class: 'flat' },
  });

  it("classes a waived process sampled twice as slow warmed late, and tells the arm's later processes no rate for that case", () => {
    const h = new TierUpHorizons();
    h.learn('node', 'for loop', round([12_300, 12_400, 12_200]), v8);
    h.learn('node', 'other', round([500, 510, 490]), v8);
    const misled = waived(29_000);
    h.learn('node', 'for loop', misled, v8, 12_300);
    expect(misled.steadyState).toEqual({ class: 'warmed-late' });
    expect(h.callNs('node', 'for loop')).toBeUndefined();
    // A faster process later does not bring the rate back: the early stretch can mislead again.
    h.learn('node', 'for loop', round([12_000, 12_100, 11_900]), v8);
    expect(h.callNs('node', 'for loop')).toBeUndefined();
    expect(h.callNs('node', 'other')).toBe(500);
  });

  it('keeps the rate for a waived process within twice it, and for a slow one that was not waived', () => {
    const h = new TierUpHorizons();
    h.learn('node', 'a', round([12_300, 12_400, 12_200]), v8);
    const near = waived(20_000);
    h.learn('node', 'a', near, v8, 12_300);
    expect(near.steadyState).toEqual({ class: 'flat' });
    const slow = waived(29_000);
    const waited = { ...slow, warmup: { ...slow.warmup!, tierUp: { kind: 'crossed' as const, flatAt: { calls: 900, ms: 60 }, ratio: 0.6, stepped: true } } };
    h.learn('node', 'a', waited, v8, 12_300);
    expect(waited.steadyState).toEqual({ class: 'flat' });
    expect(h.callNs('node', 'a')).toBe(12_300);
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
