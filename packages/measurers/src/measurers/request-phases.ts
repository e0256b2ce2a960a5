/**
 * A request round's phases: the first request, the warm-up, and the steady
 * requests after the process's steady point (stats request-steady.ts), the
 * figure verdicts use. Requests in flight together share their wave's
 * figure, so a wave is one point of the series. By default a round serves
 * until its steady stretch holds STEADY_REQUESTS requests, within bounds in
 * count and time (SERVE_UNTIL_STEADY); a count the suite or a `--requests`
 * file fixes is served whole, and its phases found after, as is a smoke
 * run's small count (SMOKE_SERVING).
 */
import type { SteadyState } from '@rtbench/core/schema';
import type { ServedPhases } from '@rtbench/host-timed';
import { SMOKE_SERVING } from '@rtbench/measurer-records';
import { classifyProcess, levelChange, REQUEST_STEADY_DEFAULTS, steadyPoint, STEADY_STATE_DEFAULTS } from '@rtbench/stats';

/** Points per window of requests in flight together: each wave holds several times N requests. */
const WAVE_WINDOW = 4;

/** The default bounds of a round that serves until steady: the least it serves, the most, and its serving time. */
export const SERVE_UNTIL_STEADY = {
  /** As many as a fresh server served before phases were told apart: a process is never judged on fewer. */
  minRequests: 50,
  maxRequests: 300,
  maxServeMs: 3_000,
  /** Requests of the steady stretch the figure pools, at least. */
  steadyRequests: 30,
} as const;

/** Requests to the empty handler in a measuring round, spread among the handler's in the same process. */
const EMPTY_REQUESTS = 50;

/** How one round of a declaration is served: how many requests drawn, whether it serves until steady, how many to the empty handler. */
interface RoundServing {
  requests: number;
  untilSteady: boolean;
  emptyRequests: number;
}

/** A declaration's round: its own count whole, else until steady within SERVE_UNTIL_STEADY's bounds; a smoke run's, SMOKE_SERVING's counts. */
export function roundServing(fixedCount: number | undefined, smoke: boolean): RoundServing {
  const own = fixedCount !== undefined && smoke ? Math.min(fixedCount, SMOKE_SERVING.mostRequests) : fixedCount;
  const requests = own ?? (smoke ? SMOKE_SERVING.requests : SERVE_UNTIL_STEADY.maxRequests);
  return { requests, untilSteady: fixedCount === undefined && !smoke, emptyRequests: Math.min(smoke ? SMOKE_SERVING.emptyRequests : EMPTY_REQUESTS, requests) };
}

/** A profiled server's phases as the measurer gives them: a smoke run's short ones; undefined: the profiler's own. */
export function profilePhases(smoke: boolean): ServedPhases | undefined {
  return smoke ? { warmupRequests: SMOKE_SERVING.profileWarmupRequests, warmupMs: 0, steadyRequests: SMOKE_SERVING.profileSteadyRequests, steadyMs: SMOKE_SERVING.profileSteadyMs } : undefined;
}

/**
 * The index of the first steady request among a round's samples (`waves`:
 * the wave each was read in), or undefined when the process never settled.
 */
export function steadyFromOf(ms: readonly number[], waves: readonly number[], concurrency: number): number | undefined {
  const starts: number[] = [];
  const series: number[] = [];
  for (let i = 0; i < ms.length; i++) {
    // The first sample starts a point (waves[-1] is undefined).
    if (waves[i] === waves[i - 1]) continue;
    starts.push(i);
    series.push(ms[i]!);
  }
  const s = steadyPoint(series, { ...REQUEST_STEADY_DEFAULTS, window: concurrency > 1 ? WAVE_WINDOW : REQUEST_STEADY_DEFAULTS.window });
  // Stryker disable next-line ConditionalExpression: starts[undefined] is undefined too
  return s === undefined ? undefined : starts[s];
}

/**
 * Whether a round serving until steady has served enough: steady, with at
 * least `steadyRequests` requests from its steady point, and those not
 * still stepping down (warmed late: a slow slope the windows took for one
 * level).
 */
export function steadyEnoughOf(ms: readonly number[], waves: readonly number[], concurrency: number, steadyRequests: number = SERVE_UNTIL_STEADY.steadyRequests): boolean {
  const from = steadyFromOf(ms, waves, concurrency);
  // Stryker disable next-line ConditionalExpression: never steady, the length less undefined is NaN, never at least the requests asked for
  return from !== undefined && ms.length - from >= steadyRequests && classifyProcess(undefined, ms.slice(from)).class !== 'warmed-late';
}

/**
 * The process's class, as a table marks it: never steady; warmed (its
 * warm-up a higher level than its steady requests: where it settled);
 * or, from the steady requests alone, flat, warmed-late or slowdown.
 */
export function requestSteadyState(ms: readonly number[], steadyFrom: number | undefined): SteadyState {
  if (steadyFrom === undefined) return { class: 'no-steady-state' };
  const steady = ms.slice(steadyFrom);
  const alone = classifyProcess(undefined, steady);
  if (alone.class !== 'flat') return { class: alone.class };
  return levelChange(ms.slice(1, steadyFrom), steady, STEADY_STATE_DEFAULTS) < 0 ? { class: 'warmed', calls: steadyFrom } : { class: 'flat' };
}
