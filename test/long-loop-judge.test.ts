// The word scripts/measure/lockstep/long-loop-check.ts prints per cell: a table against its
// long loops in fresh processes, and whether those loops are a fixed reference.
import { describe, expect, it } from 'vitest';
import { median } from '@rtbench/stats';
import { aloneArgs, BAND, judged, tablesFigure } from '../scripts/measure/lockstep/long-loop-check/judge.ts';

describe("the long-loop check's judgement of a cell", () => {
  it('reads a table within the band of its loops as within, beyond it as outside, at its edge within', () => {
    expect(BAND).toBe(1.2);
    expect(judged({ tableNs: 110, loops: [100, 102, 98] })).toBe('within ±20%');
    expect(judged({ tableNs: 120, loops: [100, 100, 100] })).toBe('within ±20%');
    expect(judged({ tableNs: 100 / 1.2, loops: [100] })).toBe('within ±20%');
    expect(judged({ tableNs: 121, loops: [100, 100, 100] })).toBe('outside ±20%');
    expect(judged({ tableNs: 80, loops: [100, 100, 100] })).toBe('outside ±20%');
  });

  it("holds the table against the loops' median, not their mean", () => {
    expect(median([100, 130, 101])).toBe(101);
    expect(median([100, 110])).toBe(105);
    // The mean of these loops is 107.6: 121 is within 20% of it, and not of their median (100).
    expect(judged({ tableNs: 121, loops: [100, 100, 119, 100, 119] })).toBe('outside ±20%');
  });

  it("judges a cell against its loops' median and says beside the word where its fresh loops differ by more than the band", () => {
    expect(judged({ tableNs: 150, loops: [114, 150, 140] })).toBe('within ±20%; loop not fixed: its processes 1.32× apart');
    expect(judged({ tableNs: 100, loops: [100, 121] })).toBe('within ±20%; loop not fixed: its processes 1.21× apart');
    // Outside the loops' median (140) by more than the band, whatever their spread.
    expect(judged({ tableNs: 180, loops: [114, 150, 140] })).toBe('outside ±20%; loop not fixed: its processes 1.32× apart');
    // 1.2× apart is still a reference.
    expect(judged({ tableNs: 110, loops: [100, 120] })).toBe('within ±20%');
    expect(judged({ tableNs: 100, loops: [] })).toBe('no loop');
  });

  it("takes the tables between the loops as their geometric mean, and says the load moved where they are more than the band apart", () => {
    const three = tablesFigure([100, 121, 110]);
    expect(three.ns).toBeCloseTo(Math.cbrt(100 * 121 * 110), 9);
    expect(three.apart).toBeCloseTo(1.21, 9);
    expect(three.moved).toBe(true);
    const two = tablesFigure([100, 120]);
    expect(two.ns).toBeCloseTo(Math.sqrt(100 * 120), 9);
    expect([two.apart, two.moved]).toEqual([1.2, false]);
    const one = tablesFigure([250]);
    expect(one.ns).toBeCloseTo(250, 9);
    expect([one.apart, one.moved]).toEqual([1, false]);
    expect(tablesFigure([120, 100]).apart).toBe(1.2);
  });

  it('judges a table between the one-core and free-core loops only where those two are more than the band apart', () => {
    // Free core 250, one core 320 (1.28× apart): 327 is within 20% of the one-core end.
    expect(judged({ tableNs: 327, loops: [250, 252, 251], oneCoreNs: 320 })).toBe('between the 1-core and free-core loops');
    expect(judged({ tableNs: 200, loops: [400, 401], oneCoreNs: 240 })).toBe('between the 1-core and free-core loops');
    expect(judged({ tableNs: 390, loops: [250, 252, 251], oneCoreNs: 320 })).toBe('outside ±20%');
    expect(judged({ tableNs: 190, loops: [400, 401], oneCoreNs: 240 })).toBe('outside ±20%');
    // 291 against 251: 1.16× apart, no range to read the table in; 1.2× apart, none either.
    expect(judged({ tableNs: 327, loops: [250, 252, 251], oneCoreNs: 291 })).toBe('outside ±20%');
    expect(judged({ tableNs: 130, loops: [100], oneCoreNs: 120 })).toBe('outside ±20%');
    // The range's edges are in it.
    expect(judged({ tableNs: 240, loops: [100], oneCoreNs: 200 })).toBe('between the 1-core and free-core loops');
  });

  it("runs a runtime alone with the table's other arguments, in place of any runtime the table was given", () => {
    expect(aloneArgs(['--rounds', '6'], 'bun')).toEqual(['--rounds', '6', '--runtime', 'bun']);
    expect(aloneArgs(['--runtime', 'node,bun', '--rounds', '6'], 'bun')).toEqual(['--rounds', '6', '--runtime', 'bun']);
    expect(aloneArgs(['--rounds', '6', '--runtime=node,bun'], 'node@26')).toEqual(['--rounds', '6', '--runtime', 'node@26']);
    expect(aloneArgs([], 'deno')).toEqual(['--runtime', 'deno']);
  });
});
