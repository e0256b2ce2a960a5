/**
 * A load round's phases. A fresh server under load first runs its code
 * before the engine has optimized it, so a round is served as consecutive
 * short windows of the same load, each with the generator's report and the
 * server's threads read around it. The windows' steady point is found as a
 * request round's is (stats request-steady.ts) over each series a window
 * gives (time per response, latency p50 unless pipelined, the JavaScript
 * thread's CPU per response where the host reads it): the latest of their
 * points. The windows before it are the warm-up, those from it the steady
 * phase: the round's figures, which verdicts read. A round that never
 * settled pools its later half, as a request round does.
 */
import { median, REQUEST_STEADY_DEFAULTS, steadyPoint } from '@rtbench/stats';
import { z } from 'zod';
import type { ServerWindow } from './server-window.ts';

/** The load generator's one line of output (latencies null when no request was answered). */
export const loadReportSchema = z.object({
  requests: z.number().int().nonnegative(),
  windowMs: z.number().positive(),
  requestsPerSecond: z.number().nonnegative(),
  latencyP2_5Ms: z.number().nullable(),
  latencyP50Ms: z.number().nullable(),
  latencyP97_5Ms: z.number().nullable(),
  latencyP99Ms: z.number().nullable(),
  latencyMaxMs: z.number().nullable(),
  errors: z.number().int().nonnegative(),
  timeouts: z.number().int().nonnegative(),
  non2xx: z.number().int().nonnegative(),
  generatorCpuMs: z.number().nonnegative(),
});
export type LoadReport = z.infer<typeof loadReportSchema>;

/** One window of load: the generator's report, and the server's threads over it (undefined where the host cannot read them). */
export interface LoadWindow {
  report: LoadReport;
  server?: ServerWindow;
}

/**
 * Windows of a quarter second; three of them make one window of the
 * steady-point rule, so a round that settles at once is told so after
 * seven (1.75 s of load), about what the fixed warm-up and measured runs
 * took before.
 */
export const LOAD_WINDOWS = { windowMs: 250, points: 3 } as const;

/** Per response, a window with none counted as one (a stalled window is slow, never a division by 0). */
const perResponse = (value: number, w: LoadWindow): number => value / Math.max(1, w.report.requests);

/** The series the steady point is found over; latency only when its quantiles are per request (`pipelined`: they are not). */
function seriesOf(windows: readonly LoadWindow[], pipelined: boolean): number[][] {
  const out = [windows.map((w) => perResponse(w.report.windowMs, w))];
  if (!pipelined && windows.every((w) => w.report.latencyP50Ms !== null)) out.push(windows.map((w) => w.report.latencyP50Ms!));
  if (windows.every((w) => w.server)) out.push(windows.map((w) => perResponse(w.server!.jsThreadNs, w)));
  return out;
}

/** The index of the first steady window (never 0: the server's first load is its own warm-up), or undefined when a series never settled. */
export function loadSteadyFrom(windows: readonly LoadWindow[], pipelined: boolean): number | undefined {
  let from = 1;
  for (const series of seriesOf(windows, pipelined)) {
    const s = steadyPoint(series, { ...REQUEST_STEADY_DEFAULTS, window: LOAD_WINDOWS.points });
    if (s === undefined) return undefined;
    from = Math.max(from, s);
  }
  return from;
}

const sumOf = (windows: readonly LoadWindow[], value: (w: LoadWindow) => number): number => windows.reduce((total, w) => total + value(w), 0);

/** Whether a round may stop: steady, with its steady windows lasting at least `steadyMs`. */
export function loadSteadyEnough(windows: readonly LoadWindow[], pipelined: boolean, steadyMs: number): boolean {
  const from = loadSteadyFrom(windows, pipelined);
  return from !== undefined && sumOf(windows.slice(from), (w) => w.report.windowMs) >= steadyMs;
}

/**
 * Whether a round takes another window: within its bound and not yet steady
 * enough, or, whatever its bound, while it has one window only and asked for
 * a warm-up of a window or more. The first window is the server's own
 * warm-up (loadSteadyFrom never starts at 0): a measuring round whose first
 * window outlasted its bound (a loaded machine's) would have no figure past
 * it. A smoke run's round (a warm-up of milliseconds) may stop at one.
 */
export function takesWindow(windows: readonly LoadWindow[], elapsedMs: number, plan: { boundMs: number; durationMs: number; warmupMs: number }, pipelined: boolean): boolean {
  if (windows.length < (plan.warmupMs >= LOAD_WINDOWS.windowMs ? 2 : 1)) return true;
  return elapsedMs < plan.boundMs && !loadSteadyEnough(windows, pipelined, plan.durationMs);
}

/** A quantile over windows: the median of theirs (wrk keeps no histogram to merge); null when none had one. */
function medianOf(values: readonly (number | null)[]): number | null {
  const given = values.filter((v): v is number => v !== null);
  return given.length ? median(given) : null;
}

/** Windows as one: counts, times and CPU summed; requests/s over their time; quantiles their median; the max the largest. */
export function pooledWindows(windows: readonly LoadWindow[]): LoadWindow {
  const requests = sumOf(windows, (w) => w.report.requests);
  const windowMs = sumOf(windows, (w) => w.report.windowMs);
  const maxes = windows.flatMap((w) => (w.report.latencyMaxMs === null ? [] : [w.report.latencyMaxMs]));
  const report: LoadReport = {
    requests,
    windowMs,
    requestsPerSecond: (requests / windowMs) * 1000,
    latencyP2_5Ms: medianOf(windows.map((w) => w.report.latencyP2_5Ms)),
    latencyP50Ms: medianOf(windows.map((w) => w.report.latencyP50Ms)),
    latencyP97_5Ms: medianOf(windows.map((w) => w.report.latencyP97_5Ms)),
    latencyP99Ms: medianOf(windows.map((w) => w.report.latencyP99Ms)),
    latencyMaxMs: maxes.length ? Math.max(...maxes) : null,
    errors: sumOf(windows, (w) => w.report.errors),
    timeouts: sumOf(windows, (w) => w.report.timeouts),
    non2xx: sumOf(windows, (w) => w.report.non2xx),
    generatorCpuMs: sumOf(windows, (w) => w.report.generatorCpuMs),
  };
  if (!windows.every((w) => w.server)) return { report };
  const server = (key: keyof ServerWindow): number => sumOf(windows, (w) => w.server![key]);
  return { report, server: { jsThreadNs: server('jsThreadNs'), allThreadsNs: server('allThreadsNs'), jsWakeups: server('jsWakeups'), allWakeups: server('allWakeups'), allPreemptions: server('allPreemptions') } };
}

/** A round's windows in phases: the steady ones pooled (the round's figures), the warm-up ones pooled (none: undefined), and where the steady phase began (undefined: never settled, the later half pooled). */
export interface LoadPhases {
  steady: LoadWindow;
  warmup?: LoadWindow;
  steadyFrom?: number;
  windows: number;
}

export function loadPhases(windows: readonly LoadWindow[], pipelined: boolean): LoadPhases {
  const steadyFrom = loadSteadyFrom(windows, pipelined);
  const from = steadyFrom ?? Math.floor(windows.length / 2);
  return {
    steady: pooledWindows(windows.slice(from)),
    ...(from > 0 ? { warmup: pooledWindows(windows.slice(0, from)) } : {}),
    ...(steadyFrom !== undefined ? { steadyFrom } : {}),
    windows: windows.length,
  };
}
