/** A load round's windows: where they became steady, when a round may stop, and the windows pooled into its phases. */
import { describe, expect, it } from 'vitest';
import { loadPhases, loadSteadyEnough, loadSteadyFrom, pooledWindows, takesWindow, type LoadReport, type LoadWindow } from '../src/load-windows.ts';
import type { ServerWindow } from '../src/server-window.ts';

/** A window of 250 ms with `requests` answered; latency p50 and the JavaScript thread's CPU per response as given. */
function win(requests: number, options: { p50?: number | null; jsNs?: number; server?: boolean; windowMs?: number } = {}): LoadWindow {
  const windowMs = options.windowMs ?? 250;
  const p50 = options.p50 === undefined ? 1 : options.p50;
  const report: LoadReport = {
    requests,
    windowMs,
    requestsPerSecond: (requests / windowMs) * 1000,
    latencyP2_5Ms: p50 === null ? null : p50 / 2,
    latencyP50Ms: p50,
    latencyP97_5Ms: p50 === null ? null : p50 * 3,
    latencyP99Ms: p50 === null ? null : p50 * 4,
    latencyMaxMs: p50 === null ? null : p50 * 10,
    errors: 1,
    timeouts: 2,
    non2xx: 3,
    generatorCpuMs: 100,
  };
  if (options.server === false) return { report };
  const jsThreadNs = options.jsNs ?? requests * 10_000;
  const server: ServerWindow = { jsThreadNs, allThreadsNs: jsThreadNs * 2, jsWakeups: 5, allWakeups: 7, allPreemptions: 11 };
  return { report, server };
}

/** A level with a little spread: `n` windows around `requests`. */
const level = (requests: number, n: number, options: Parameters<typeof win>[1] = {}): LoadWindow[] => Array.from({ length: n }, (_, i) => win(requests + ((i * 7) % 5) - 2, options));

describe('loadSteadyFrom', () => {
  it('a server steady from its first load is steady from the second window (the first is always its warm-up)', () => {
    expect(loadSteadyFrom(level(1000, 9), false)).toBe(1);
  });

  it('slow first windows are the warm-up: the steady point is past them', () => {
    // Three windows at half the throughput; the windows of the rule are three, their median forgives one.
    expect(loadSteadyFrom([...level(500, 3), ...level(1000, 8)], false)).toBe(2);
    expect(loadSteadyFrom([...level(500, 5), ...level(1000, 8)], false)).toBe(4);
  });

  it('too few windows to compare two stretches: never steady', () => {
    expect(loadSteadyFrom(level(1000, 6), false)).toBeUndefined();
    expect(loadSteadyFrom(level(1000, 7), false)).toBe(1);
  });

  it('throughput still climbing: never steady', () => {
    expect(loadSteadyFrom(Array.from({ length: 12 }, (_, i) => win(2 ** (i + 6))), false)).toBeUndefined();
  });

  it('latency p50 is a series of its own: falling latency at flat throughput is not steady', () => {
    const falling = Array.from({ length: 12 }, (_, i) => win(1000, { p50: 2 ** (12 - i) }));
    expect(loadSteadyFrom(falling, false)).toBeUndefined();
    // Pipelined, the quantiles are not per request: not watched.
    expect(loadSteadyFrom(falling, true)).toBe(1);
  });

  it('a window without latency (nothing answered in it) leaves latency out', () => {
    const windows = Array.from({ length: 12 }, (_, i) => win(1000, { p50: 2 ** (12 - i) }));
    windows[0] = win(1000, { p50: null });
    expect(loadSteadyFrom(windows, false)).toBe(1);
  });

  it("the JavaScript thread's CPU per response is a series of its own, where every window has it", () => {
    const cpuFalling = Array.from({ length: 12 }, (_, i) => win(1000, { jsNs: 2 ** (12 - i) * 1e6 }));
    expect(loadSteadyFrom(cpuFalling, false)).toBeUndefined();
    // One window without the server's threads read: CPU is not watched.
    cpuFalling[3] = win(1000, { server: false });
    expect(loadSteadyFrom(cpuFalling, false)).toBe(1);
  });

  it('the latest of the series steady points: CPU settling later than throughput', () => {
    const windows = Array.from({ length: 14 }, (_, i) => win(1000, { jsNs: i < 5 ? 4e7 : 1e7 }));
    expect(loadSteadyFrom(windows, false)).toBe(4);
  });

  it('a window with no response counts as one response in its time, not as a division by 0', () => {
    const windows = [...level(1000, 9)];
    windows[5] = win(0, { p50: null, jsNs: 0 });
    // Slow (250 ms a response) but finite: the stretch around it is still one level by its median.
    expect(loadSteadyFrom(windows, false)).toBe(1);
  });
});

describe('loadSteadyEnough', () => {
  it('steady, and its steady windows last the duration asked for', () => {
    const windows = level(1000, 9);
    // Steady from window 1: 8 windows of 250 ms.
    expect(loadSteadyEnough(windows, false, 2000)).toBe(true);
    expect(loadSteadyEnough(windows, false, 2001)).toBe(false);
  });

  it('never steady: never enough', () => {
    expect(loadSteadyEnough(level(1000, 6), false, 0)).toBe(false);
  });
});

describe('takesWindow', () => {
  const plan = { boundMs: 3000, durationMs: 1000, warmupMs: 1000 };
  it('takes a second window past the bound when it asked for a warm-up, so a round has a figure past its first, and none more', () => {
    expect(takesWindow([], 0, plan, false)).toBe(true);
    expect(takesWindow(level(1000, 1), 5000, plan, false)).toBe(true);
    expect(loadPhases(level(1000, 2), false).warmup?.report.requests).toBeGreaterThan(0);
    expect(takesWindow(level(1000, 2), 5000, plan, false)).toBe(false);
    // A smoke run's round, a warm-up of milliseconds: one window past its bound is what it asked for.
    expect(takesWindow([], 600, { boundMs: 510, durationMs: 250, warmupMs: 10 }, false)).toBe(true);
    expect(takesWindow(level(1000, 1), 600, { boundMs: 510, durationMs: 250, warmupMs: 10 }, false)).toBe(false);
  });

  it('within its bound, until its steady windows last the duration asked for', () => {
    expect(takesWindow(level(1000, 3), 1000, plan, false)).toBe(true);
    expect(takesWindow(level(1000, 9), 2500, plan, false)).toBe(false);
  });
});

describe('pooledWindows', () => {
  it('counts, times, errors and CPU summed; requests/s over the whole time; quantiles the median of the windows; the max the largest', () => {
    const pooled = pooledWindows([win(100, { p50: 1 }), win(300, { p50: 3, windowMs: 750 }), win(200, { p50: 2 })]);
    expect(pooled.report).toEqual({
      requests: 600,
      windowMs: 1250,
      requestsPerSecond: 480,
      latencyP2_5Ms: 1,
      latencyP50Ms: 2,
      latencyP97_5Ms: 6,
      latencyP99Ms: 8,
      latencyMaxMs: 30,
      errors: 3,
      timeouts: 6,
      non2xx: 9,
      generatorCpuMs: 300,
    });
    expect(pooled.server).toEqual({ jsThreadNs: 6_000_000, allThreadsNs: 12_000_000, jsWakeups: 15, allWakeups: 21, allPreemptions: 33 });
  });

  it('a window without latency is left out of the quantiles; none with any: null', () => {
    expect(pooledWindows([win(100, { p50: null }), win(100, { p50: 4 })]).report).toMatchObject({ latencyP50Ms: 4, latencyMaxMs: 40 });
    expect(pooledWindows([win(100, { p50: null })]).report).toMatchObject({ latencyP2_5Ms: null, latencyP50Ms: null, latencyP97_5Ms: null, latencyP99Ms: null, latencyMaxMs: null });
  });

  it("the server's threads only when every window read them", () => {
    const pooled = pooledWindows([win(100), win(100, { server: false })]);
    expect(pooled.server).toBeUndefined();
    expect(pooled.report.requests).toBe(200);
  });
});

describe('loadPhases', () => {
  it('the steady windows pooled are the figures, the ones before them the warm-up', () => {
    const windows = [...level(500, 5), ...level(1000, 8)];
    const phases = loadPhases(windows, false);
    expect(phases.steadyFrom).toBe(4);
    expect(phases.windows).toBe(13);
    expect(phases.steady).toEqual(pooledWindows(windows.slice(4)));
    expect(phases.warmup).toEqual(pooledWindows(windows.slice(0, 4)));
  });

  it('a round that never settled: its later half are the figures, the first half its warm-up, and no steady point', () => {
    const windows = Array.from({ length: 7 }, (_, i) => win(500 + i * 100));
    const phases = loadPhases(windows, false);
    expect(phases).not.toHaveProperty('steadyFrom');
    expect(phases.steady).toEqual(pooledWindows(windows.slice(3)));
    expect(phases.warmup).toEqual(pooledWindows(windows.slice(0, 3)));
  });

  it('one window alone: all of it the figures, no warm-up', () => {
    const phases = loadPhases([win(1000)], false);
    expect(phases).not.toHaveProperty('warmup');
    expect(phases.steady).toEqual(pooledWindows([win(1000)]));
  });
});
