/**
 * The clock probe and edge-aligned timing on a virtual clock whose every read
 * costs a known time: what the harness says about a clock (its step, the cost
 * of a read, whether it is coarse) and the time it gives a batch on a coarse
 * clock are checked exactly, whatever the machine's load.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clockInfoOf, EdgeTimer, probeClock, type Clock } from '../src/clock.ts';

/** A clock read costing `readNs` of virtual time, showing it in steps of `stepNs`; `spend` is work done between reads. */
function virtualClock(readNs: number, stepNs: number): Clock & { spend(ns: number): void; readonly elapsed: number } {
  let t = 0;
  return {
    name: `virtual ${stepNs} ns steps`,
    now: () => Math.floor((t += readNs) / stepNs) * stepNs,
    spend: (ns) => void (t += ns),
    get elapsed() {
      return t;
    },
  };
}

describe('probeClock', () => {
  it('finds the step of the clock and the cost of one read, and calls it coarse only above 5 µs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 200 }), (readNs, reads) => {
        const step = readNs * reads;
        const info = probeClock(virtualClock(readNs, step));
        expect(info.resolutionNs).toBe(step);
        // Over about 50 steps: within a read or two of the whole span.
        expect(Math.abs(info.readCostNs - readNs)).toBeLessThanOrEqual(0.03 * readNs);
        expect(info.edgeAligned).toBe(step > 5000);
      }),
      { numRuns: 30 },
    );
    expect(probeClock(virtualClock(100, 5000)).edgeAligned).toBe(false);
    expect(probeClock(virtualClock(100, 5100)).edgeAligned).toBe(true);
  });

  it('stops after 50 steps on a fine clock, and after a few once 5 ms have passed on a coarse one', () => {
    const fine = virtualClock(1, 10);
    probeClock(fine);
    // 50 steps of 10 ns: the probe stops on the 50th edge.
    expect(fine.elapsed).toBe(50 * 10);
    const coarse = virtualClock(1000, 1e6);
    probeClock(coarse);
    // 1 ms steps: it stops on the first edge at least 5 ms after its first read (by then past 4 steps).
    expect(coarse.elapsed).toBe(5e6);
  });

  it('refuses a clock that never moves, naming it', () => {
    expect(() => probeClock({ name: 'stopped', now: () => 7 })).toThrow(/clock stopped did not advance in 50000000 reads/);
  });

  it('measures the smallest step of an irregular clock', () => {
    const steps = [300, 100, 500, 200];
    let reads = 0;
    let t = 0;
    // Advances by the next of `steps` every 10 reads.
    const irregular: Clock = { name: 'irregular', now: () => (++reads % 10 === 0 ? (t += steps[(reads / 10) % steps.length]!) : t) };
    expect(probeClock(irregular).resolutionNs).toBe(100);
  });

  it("finds a coarse clock's tick when a starved process saw only steps of two and three ticks", () => {
    const steps = [2e6, 3e6, 2e6, 2e6, 3e6, 2e6];
    let reads = 0;
    let t = 0;
    const starved: Clock = { name: 'starved', now: () => (++reads % 10 === 0 ? (t += steps[(reads / 10) % steps.length]!) : t) };
    expect(probeClock(starved)).toMatchObject({ resolutionNs: 1e6, edgeAligned: true });
    // Steps that share no tick above 5 µs: the smallest step, as on any irregular clock.
    const uneven = [2e6 + 7, 3e6 + 11, 2e6 + 3];
    reads = 0;
    const jittered: Clock = { name: 'jittered', now: () => (++reads % 10 === 0 ? (t += uneven[(reads / 10) % uneven.length]!) : t) };
    expect(probeClock(jittered).resolutionNs).toBe(2e6 + 3);
  });
});

describe('EdgeTimer on a coarse clock', () => {
  it('times a batch within a few reads of its true cost, though it is far shorter than a tick', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), (batchNs) => {
        const readNs = 25;
        const clock = virtualClock(readNs, 1e6);
        const timer = new EdgeTimer(clock, 4, 1);
        const begin = timer.begin();
        clock.spend(batchNs);
        const took = timer.end(begin);
        expect(took).toBeGreaterThanOrEqual(0);
        expect(Math.abs(took - batchNs)).toBeLessThanOrEqual(2 * readNs);
      }),
      { numRuns: 30 },
    );
  });

  it('keeps timing batches right across refreshes of the read cost, and starts each batch at the last edge', () => {
    const clock = virtualClock(40, 1e6);
    const timer = new EdgeTimer(clock, 2, 0);
    for (let i = 0; i < 9; i++) {
      const begin = timer.begin();
      expect(begin % 1e6).toBe(0);
      clock.spend(1000 * (i + 1));
      expect(Math.abs(timer.end(begin) - 1000 * (i + 1))).toBeLessThanOrEqual(80);
      timer.realign();
    }
  });

  it('reads the cost of a read from the fast end of recent ticks: a preempted tick (fewer reads) does not move it', () => {
    let t = 0;
    let slow = false;
    // Reads cost 10 ns, or 1000 ns while "preempted".
    const clock: Clock = { name: 'preemptible', now: () => Math.floor((t += slow ? 1000 : 10) / 1e5) * 1e5 };
    const timer = new EdgeTimer(clock, 8, 0);
    expect(timer.spinNs).toBeCloseTo(10, 6);
    slow = true;
    timer.end(timer.begin());
    slow = false;
    for (let i = 0; i < 3; i++) timer.end(timer.begin());
    // One slow tick of eight-plus in the window: the 25th percentile stays at the fast rate.
    expect(timer.spinNs).toBeCloseTo(10, 6);
  });

  it('never reads a batch shorter than the ticks it visibly spanned, though the read rate was measured while the process was starved', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: 3_000_000 }), fc.integer({ min: 2, max: 50 }), (batchNs, starvedBy) => {
        const tick = 1e6;
        let t = 0;
        let readNs = 10 * starvedBy;
        // Every calibration tick starved (reads seem starvedBy times dearer); the batch's own spin runs at full speed.
        const clock: Clock = { name: 'starved', now: () => Math.floor((t += readNs) / tick) * tick };
        const timer = new EdgeTimer(clock, 8, 0);
        readNs = 10;
        const begin = timer.begin();
        t += batchNs;
        const took = timer.end(begin);
        // Whole ticks between the edge the batch started on and the clock's value when it ended; a batch spans them at least.
        const spanned = Math.floor((begin + batchNs) / tick) * tick - begin;
        expect(took).toBeGreaterThanOrEqual(spanned);
        expect(took).toBeLessThanOrEqual(batchNs + tick);
      }),
      { numRuns: 40 },
    );
  });

  it('never gives a negative time', () => {
    const clock = virtualClock(25, 1e6);
    const timer = new EdgeTimer(clock, 2, 0);
    expect(timer.end(timer.begin())).toBeGreaterThanOrEqual(0);
  });

  it('refuses a clock that stops advancing', () => {
    let frozen = false;
    const inner = virtualClock(1000, 1e5);
    const clock: Clock = { name: 'freezes', now: () => (frozen ? 0 : inner.now()) };
    const timer = new EdgeTimer(clock, 1, 0);
    frozen = true;
    expect(() => timer.end(timer.begin())).toThrow(/clock freezes stopped advancing/);
  });
});

describe('what a process learns of its clock once', () => {
  it('probes a clock once: a later case on the same clock reads it no more, another clock is probed', () => {
    const coarse = virtualClock(1000, 1e6);
    const info = clockInfoOf(coarse);
    const spent = coarse.elapsed;
    expect(spent).toBe(5e6);
    expect(clockInfoOf(coarse)).toEqual(info);
    expect(coarse.elapsed).toBe(spent);
    const other = virtualClock(1000, 1e6);
    clockInfoOf(other);
    expect(other.elapsed).toBe(5e6);
  });

  it("a case's edge timer goes on from the rates an earlier timer measured on its clock: one tick instead of twenty, timing as right", () => {
    const tick = 1e6;
    const clock = virtualClock(25, tick);
    new EdgeTimer(clock);
    // The first timer: the edge, 3 warmup ticks, 16 calibration ticks.
    expect(clock.elapsed).toBeGreaterThanOrEqual(19 * tick);
    const before = clock.elapsed;
    const timer = new EdgeTimer(clock);
    // The next: at most the rest of a tick to the edge, and one measured tick.
    expect(clock.elapsed - before).toBeLessThanOrEqual(2 * tick);
    for (const batchNs of [700, 40_000, 1_300_000]) {
      const begin = timer.begin();
      clock.spend(batchNs);
      expect(Math.abs(timer.end(begin) - batchNs)).toBeLessThanOrEqual(50);
      timer.realign();
    }
    // A timer on another clock calibrates in full.
    const fresh = virtualClock(25, tick);
    new EdgeTimer(fresh);
    expect(fresh.elapsed).toBeGreaterThanOrEqual(19 * tick);
  });

  it('calibrates in full when the earlier timers measured fewer ticks than it asks for', () => {
    const tick = 1e5;
    const clock = virtualClock(10, tick);
    new EdgeTimer(clock, 2, 0);
    const before = clock.elapsed;
    new EdgeTimer(clock, 8, 0);
    expect(clock.elapsed - before).toBeGreaterThanOrEqual(8 * tick);
  });
});
