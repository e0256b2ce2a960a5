import { describe, expect, it } from 'vitest';
import { LOCKSTEP, lockstepOptions, takesTurn, turnsFor, type LockstepSetup } from '../src/measurers/lockstep.ts';

const samples = (...batchNs: number[]) => batchNs.map((ns) => ({ batchNs: ns }));
/** A span whose samples were raised to the floor, holding `flooredBy` of its batches. */
const floored = (flooredBy: number) => ({ quietCallNs: 1_000, grownBy: 1, flooredBy });

describe('turns per lockstep set', () => {
  const options = { sampleTimeMs: 40, minTurns: 12, maxTurns: 10_000 };
  it('fills the sampling time at the longest arm sample', () => {
    expect(turnsFor(options, samples(1e6, 2e6))).toBe(20);
  });
  it('gives a long operation its minimum of turns, not the few its sampling time would buy', () => {
    expect(turnsFor(options, samples(8e6, 16e6))).toBe(12);
  });
  it('counts a floored longest sample as the span batches it holds: minTurns of those, and 2 turns at least', () => {
    // 20 ms samples that hold 20 span batches of 1 ms: the sampling time's 2 turns.
    expect(turnsFor(options, [{ batchNs: 1e6 }, { batchNs: 20e6, span: floored(20) }])).toBe(2);
    // 24 ms samples of 3 calls of 8 ms (raised from one): 12 calls of 8 ms want 4 turns.
    expect(turnsFor(options, [{ batchNs: 24e6, span: floored(3) }])).toBe(4);
    // Only the longest arm's floor counts: a shorter floored arm leaves an unfloored long one its minimum.
    expect(turnsFor(options, [{ batchNs: 20e6, span: floored(20) }, { batchNs: 30e6 }])).toBe(12);
    expect(turnsFor(options, [{ batchNs: 20e6, span: floored(40) }])).toBe(2);
  });
  it('caps the turns', () => {
    expect(turnsFor({ ...options, maxTurns: 30 }, samples(1e3))).toBe(30);
  });
  it("gives a long operation the minimum of turns lockstep prepares for the kind of run (a table: 8, a comparison: 12)", () => {
    // A watched warmup (warmupMinMs): a smoke run's turns are its own (test/smoke-timing.test.ts).
    const setup = { sampleTimeMs: 40, warmupMs: 300, warmupMinMs: 100, timeoutMs: 60_000 };
    const own = (mode: 'bench' | 'compare'): LockstepSetup => LOCKSTEP.prepare!({ given: {}, mode, cacheDir: '/nowhere' }).setup as LockstepSetup;
    expect(turnsFor(lockstepOptions(setup, own('bench')), samples(16e6))).toBe(8);
    expect(turnsFor(lockstepOptions(setup, own('compare')), samples(16e6))).toBe(12);
  });
});

describe('when a lockstep set stops taking turns', () => {
  const options = { sampleTimeMs: 40 };
  it('takes every planned turn while its sampling stays within 3x its arms\' sampling time', () => {
    // 4 arms at 40 ms each: 160 ms of sampling, capped at 480 ms.
    expect(takesTurn(11, 12, 479, options, 4)).toBe(true);
    expect(takesTurn(12, 12, 10, options, 4)).toBe(false);
  });
  it('stops past the cap once it has taken its loaded minimum of 5 turns', () => {
    expect(takesTurn(5, 12, 481, options, 4)).toBe(false);
    expect(takesTurn(4, 12, 10_000, options, 4)).toBe(true);
  });
  it('holds only the time beyond the run-up asked for (--run-up) against the cap', () => {
    // 4 arms, turn 6: 6 × 4 × 150 ms of run-up asked; the cap is 3 × 40 ms × 4 arms beyond it.
    expect(takesTurn(6, 12, 3_600 + 480, { ...options, runUpMs: 150 }, 4)).toBe(true);
    expect(takesTurn(6, 12, 3_600 + 481, { ...options, runUpMs: 150 }, 4)).toBe(false);
    expect(takesTurn(6, 12, 3_600, options, 4)).toBe(false);
  });
  it('scales the cap with the number of arms sampling in turn', () => {
    expect(takesTurn(6, 12, 200, options, 1)).toBe(false);
    expect(takesTurn(6, 12, 200, options, 2)).toBe(true);
  });
});
