import { describe, expect, it } from 'vitest';
import { REQUEST_STEADY_DEFAULTS, steadyEnough, steadyPoint } from '../src/index.ts';
import { lognormal, normalSource } from './helpers.ts';

const flat = (n: number, x: number): number[] => Array.from({ length: n }, () => x);

describe('steadyPoint', () => {
  it('a series of one level from its second request is steady there', () => {
    expect(steadyPoint([40, ...flat(20, 5)])).toBe(1);
    const next = normalSource(7);
    expect(steadyPoint([40, ...lognormal(next, 60, 5, 0.03)])).toBe(1);
  });

  it('never the first request, even when the series is flat from it', () => {
    expect(steadyPoint(flat(21, 5))).toBe(1);
    expect(steadyPoint(flat(20, 5))).toBeUndefined();
  });

  it('a plateau before a later step down is warm-up: steady only once the lower level holds', () => {
    const next = normalSource(3);
    const series = [40, ...lognormal(next, 59, 12, 0.03), ...lognormal(next, 60, 5, 0.03)];
    const s = steadyPoint(series)!;
    expect(s).toBeGreaterThanOrEqual(50);
    expect(s).toBeLessThanOrEqual(60);
    // The same plateau alone (the step not yet come) reads steady: the lower level must be seen to move the point.
    expect(steadyPoint(series.slice(0, 60))).toBe(1);
  });

  it('a step down of 5% or less is one level; more is not', () => {
    const small = [40, ...flat(30, 10), ...flat(30, 9.5)];
    expect(steadyPoint(small)).toBe(1);
    // Windows compare medians: a point up to half a window before a sharp step already reads the lower level.
    const big = [40, ...flat(30, 10), ...flat(30, 9.4)];
    expect(steadyPoint(big)).toBe(26);
  });

  it('a step up (a slowdown) after a flat stretch does not move the point', () => {
    expect(steadyPoint([40, ...flat(30, 5), ...flat(30, 8)])).toBe(1);
  });

  it('a series still falling at its end is never steady', () => {
    expect(steadyPoint(Array.from({ length: 80 }, (_, i) => 100 * 0.9 ** i))).toBeUndefined();
  });

  it('the two windows are compared side by side: a point whose next window steps is not steady', () => {
    // Windows [1, 11) and [11, 21) differ by 50%; from 11 on it is flat, and from 7 on most of each window is.
    expect(steadyPoint([40, ...flat(10, 15), ...flat(30, 10)])).toBe(7);
    expect(steadyPoint([40, ...flat(10, 10), ...flat(10, 15)], { ...REQUEST_STEADY_DEFAULTS })).toBeUndefined();
  });

  it('a window option of 4 (waves) finds the point in fewer points', () => {
    const waves = { ...REQUEST_STEADY_DEFAULTS, window: 4 };
    expect(steadyPoint([40, 20, 20, 20, 20, ...flat(8, 5)], waves)).toBe(3);
    expect(steadyPoint([40, 20, 20, 20, 20, ...flat(5, 5)], waves)).toBeUndefined();
  });

  it('noise the windows cannot tell apart is one level (at alpha), however far apart the medians', () => {
    const next = normalSource(11);
    const series = [40, ...lognormal(next, 40, 5, 0.5)];
    expect(steadyPoint(series)).toBe(1);
  });
});

describe('steadyEnough', () => {
  it('needs the steady stretch to hold the points asked for', () => {
    const series = [40, ...flat(10, 15), ...flat(30, 10)];
    expect(steadyEnough(series, 34)).toBe(true);
    expect(steadyEnough(series, 35)).toBe(false);
    expect(steadyEnough(Array.from({ length: 80 }, (_, i) => 100 * 0.9 ** i), 1)).toBe(false);
  });
});

describe('steadyPoint, the later stretches', () => {
  it('a lower level in the very last whole stretch moves the point past it', () => {
    // 41 points: [21, 41) is the last whole stretch of 20, lower than any before it; from 17 most of each window is at 5.
    expect(steadyPoint([40, ...flat(20, 10), ...flat(20, 5)])).toBe(17);
    // Its last points alone lower: the last whole stretch still reads them.
    expect(steadyPoint([40, ...flat(20, 10), ...flat(11, 5)])).toBeUndefined();
  });

  it('a lower stretch half a window later is seen (stretches start a window apart)', () => {
    const series = [40, ...flat(25, 10), ...flat(20, 5)];
    expect(steadyPoint(series)).toBe(22);
  });

  it('of two later stretches, the lowest stands for both', () => {
    const series = [40, ...flat(20, 10), ...flat(20, 9), ...flat(20, 5), ...flat(20, 9)];
    expect(steadyPoint(series)).toBeGreaterThanOrEqual(36);
  });
});
