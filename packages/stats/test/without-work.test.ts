/**
 * The rule for a case without work (without-work.ts): a case whose fastest
 * process is within WITHOUT_WORK_FACTOR of the lowest floor. The figures are
 * shaped like those measured (docs/writing-a-suite.md, "A case without
 * work"): node's floor about 1.0 ns, an empty case 1.05–1.1×, one integer
 * add carried between calls 1.35×.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nearFloor, WITHOUT_WORK_FACTOR } from '../src/index.ts';

const proc = (median: number, floorNs?: number) => ({ samples: [median * 0.98, median, median * 1.3], ...(floorNs !== undefined ? { floorNs } : {}) });

describe('nearFloor', () => {
  it('flags an empty case at the floor and not one integer add above it', () => {
    expect(nearFloor([proc(1.1, 1.02), proc(1.16, 1.05)])).toEqual({ fastestNs: 1.1, floorNs: 1.02 });
    expect(nearFloor([proc(1.39, 1.02), proc(1.45, 1.05)])).toBeUndefined();
  });

  it('compares the fastest process with the lowest floor: a slow process or a high floor elsewhere changes nothing', () => {
    // One process ran slow (a preempted or badly placed one), another took a floor before the JIT was done.
    expect(nearFloor([proc(1.1, 1.6), proc(1.9, 1.0), proc(1.5, 1.05)])).toEqual({ fastestNs: 1.1, floorNs: 1.0 });
  });

  it('has no answer without a floor; a floor of 0 (a coarse clock misread) is none', () => {
    expect(nearFloor([proc(0.4), proc(0.41)])).toBeUndefined();
    expect(nearFloor([proc(0.4, 0), proc(0.41)])).toBeUndefined();
    expect(nearFloor([proc(0.4, 0), proc(0.41, 0.38)])).toEqual({ fastestNs: 0.4, floorNs: 0.38 });
  });

  it('a case whose samples read 0 ns (below the clock) is at the floor', () => {
    expect(nearFloor([{ samples: [0, 0, 0], floorNs: 0.5 }])?.fastestNs).toBe(0);
  });

  it("a process whose median reads 0 beside whole ticks (a coarse clock) is no reading: the others' decide", () => {
    // workerd, JSON.stringify of 10 KB (2026-11-25): one process read 0 or 37.5 µs per call, five read ~16.7 µs.
    const coarse = { samples: [0, 0, 0, 0, 37_504, 37_504, 37_504], floorNs: 0.5 };
    expect(nearFloor([coarse, { samples: [16_558, 16_675, 16_900] }])).toBeUndefined();
    expect(nearFloor([coarse])).toBeUndefined();
    expect(nearFloor([coarse, { samples: [0.55, 0.6, 0.58], floorNs: 0.52 }])).toEqual({ fastestNs: 0.58, floorNs: 0.5 });
  });

  it('flags exactly the cases within the factor, whatever the floor', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 50, noNaN: true }), fc.double({ min: 0.2, max: 5, noNaN: true }), (floorNs, times) => {
        const flagged = nearFloor([{ samples: [floorNs * times], floorNs }]) !== undefined;
        expect(flagged).toBe(floorNs * times <= WITHOUT_WORK_FACTOR * floorNs);
      }),
    );
  });
});
