/** A request round's phases: its steady point over requests or waves, when an adapting round has served enough, and the class a table marks. */
import { describe, expect, it } from 'vitest';
import { requestSteadyState, SERVE_UNTIL_STEADY, steadyEnoughOf, steadyFromOf } from '../src/measurers/request-phases.ts';

const flat = (n: number, x: number): number[] => Array.from({ length: n }, () => x);
const each = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('steadyFromOf', () => {
  it('one request at a time: each request is a point, the steady point an index of the samples', () => {
    const ms = [40, ...flat(20, 12), ...flat(30, 5)];
    // Windows of 10 compare medians: the point lands within half a window of the step.
    expect(steadyFromOf(ms, each(ms.length), 1)).toBe(17);
    expect(steadyFromOf([40, ...flat(30, 12)], each(31), 1)).toBe(1);
  });

  it('in waves: a wave is one point, and the steady point is the first request of its wave', () => {
    // The first request is a wave of its own, then waves of 8 requests sharing a figure.
    const waveMs = [20, 20, 20, 20, 5, 5, 5, 5, 5, 5, 5, 5];
    const ms = [40, ...waveMs.flatMap((x) => flat(8, x))];
    const waves = [0, ...waveMs.flatMap((_, w) => flat(8, w + 1))];
    expect(steadyFromOf(ms, waves, 2)).toBe(1 + 2 * 8);
    // Windows of 4 waves compare medians: two waves still at the old level read as the new one's noise.
    // Taken as single requests, the same samples settle in a wave of the old level (windows of 10 requests).
    expect(steadyFromOf(ms, each(ms.length), 1)).toBe(29);
  });

  it('never steady: undefined', () => {
    const falling = Array.from({ length: 60 }, (_, i) => 100 * 0.9 ** i);
    expect(steadyFromOf(falling, each(60), 1)).toBeUndefined();
  });
});

describe('steadyEnoughOf', () => {
  it('enough once the steady stretch holds the requests asked for', () => {
    const ms = [40, ...flat(29, 5)];
    expect(steadyEnoughOf(ms, each(30), 1, 29)).toBe(true);
    expect(steadyEnoughOf(ms, each(30), 1, 30)).toBe(false);
    expect(steadyEnoughOf([40, ...flat(SERVE_UNTIL_STEADY.steadyRequests, 5)], each(SERVE_UNTIL_STEADY.steadyRequests + 1), 1)).toBe(true);
    expect(steadyEnoughOf([40, ...flat(SERVE_UNTIL_STEADY.steadyRequests - 1, 5)], each(SERVE_UNTIL_STEADY.steadyRequests), 1)).toBe(false);
  });

  it('not enough while the steady requests still step down (a slope the windows took for one level)', () => {
    // A slow slope: each window within 5% of the one before, the stretch's halves a lower level.
    const slope = [40, ...Array.from({ length: 50 }, (_, i) => 10 * 0.996 ** i)];
    expect(steadyFromOf(slope, each(51), 1)).toBe(19);
    expect(steadyEnoughOf(slope, each(51), 1, 30)).toBe(false);
    expect(steadyEnoughOf([...slope, ...flat(60, 10 * 0.996 ** 50)], each(111), 1, 30)).toBe(true);
  });

  it('never enough when never steady', () => {
    const falling = Array.from({ length: 60 }, (_, i) => 100 * 0.9 ** i);
    expect(steadyEnoughOf(falling, each(60), 1, 1)).toBe(false);
  });

  it('the default bounds are modest: a brought Worker on four runtimes stays near a minute', () => {
    expect(SERVE_UNTIL_STEADY.minRequests).toBeLessThanOrEqual(SERVE_UNTIL_STEADY.maxRequests);
    expect(SERVE_UNTIL_STEADY.steadyRequests).toBeLessThan(SERVE_UNTIL_STEADY.minRequests);
    expect(SERVE_UNTIL_STEADY.maxServeMs).toBeLessThanOrEqual(5_000);
  });
});

describe('requestSteadyState', () => {
  it('a process never steady is marked so', () => {
    expect(requestSteadyState([40, 30, 20], undefined)).toEqual({ class: 'no-steady-state' });
  });

  it('a warm-up higher than the steady requests: warmed, where it settled', () => {
    expect(requestSteadyState([40, ...flat(20, 12), ...flat(30, 5)], 21)).toEqual({ class: 'warmed', calls: 21 });
  });

  it('no warm-up to speak of: flat', () => {
    expect(requestSteadyState([40, ...flat(30, 5)], 1)).toEqual({ class: 'flat' });
    expect(requestSteadyState([40, ...flat(5, 5), ...flat(30, 5)], 6)).toEqual({ class: 'flat' });
  });

  it('steady requests that stepped down while sampled: warmed late; up: slowdown', () => {
    expect(requestSteadyState([40, ...flat(10, 8), ...flat(10, 4)], 1)).toEqual({ class: 'warmed-late' });
    expect(requestSteadyState([40, ...flat(10, 4), ...flat(10, 8)], 1)).toEqual({ class: 'slowdown' });
  });
});
