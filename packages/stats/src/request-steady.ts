/**
 * Where a server process's CPU per request became steady. A fresh server's
 * first requests run the page's code before the engine has optimized it
 * (tier-up), so their CPU is the warm-up, not what a warm server pays per
 * request. The series (one value per request, or per wave of requests in
 * flight together) is steady from the first point s past the process's
 * first request where two windows in a row are one level (levelChange, the
 * test the samples of the in-runtime loop are classified by) and no later
 * stretch of the same length is a lower level: a plateau before a later
 * tier-up is not steady. A round serves until the steady stretch holds
 * enough points, or its bounds.
 */
import { median } from './quantile.ts';
import { levelChange, type SteadyStateOptions } from './steady-state.ts';

export interface RequestSteadyOptions {
  /** Points per window (two in a row are compared). */
  window: number;
  /** The two windows: one level within this share, or within their noise at `alpha` (leans towards waiting: 5%). */
  tolerance: number;
  alpha: number;
  /** A later stretch is a lower level only past the tolerance and at this chance (leans towards no step, as the classes do: 0.1%). */
  laterAlpha: number;
}

/** Windows of 10 requests (a wave of requests in flight counts as one point: rounds pass 4). */
export const REQUEST_STEADY_DEFAULTS: RequestSteadyOptions = { window: 10, tolerance: 0.05, alpha: 0.05, laterAlpha: 0.001 };

type Levels = Pick<SteadyStateOptions, 'tolerance' | 'alpha'>;

/**
 * Per start i of a whole stretch of `length` points, the start of the one
 * with the lowest median among those starting at i, i + step, i + 2·step, …:
 * a later stretch that is a lower level is the lowest one, if any is.
 */
function lowestFrom(series: readonly number[], length: number, step: number): number[] {
  // Stryker disable next-line ArrayDeclaration: every index read is written below (an entry put first at 0 is never read)
  const medians: number[] = [];
  // Stryker disable next-line ArrayDeclaration: as medians
  const lowest: number[] = [];
  // From 1: the stretch from the process's first request is never asked for (the steady point is never 0).
  // Stryker disable next-line EqualityOperator: lowest[1] is read only when it is the one whole stretch, compared with itself (never lower), as an absent one is
  for (let i = series.length - length; i >= 1; i--) {
    medians[i] = median(series.slice(i, i + length));
    const later = lowest[i + step];
    // Stryker disable next-line ConditionalExpression,EqualityOperator: with no later stretch, medians[undefined] compares false and i stays; of two stretches with one median, either stands for the lowest level
    lowest[i] = later !== undefined && medians[later]! < medians[i]! ? later : i;
  }
  return lowest;
}

/**
 * The index of the first steady point of `series` (never 0: the process's
 * first request is its own phase), or undefined when it never settled.
 */
export function steadyPoint(series: readonly number[], options: RequestSteadyOptions = REQUEST_STEADY_DEFAULTS): number | undefined {
  const w = options.window;
  const windows: Levels = { tolerance: options.tolerance, alpha: options.alpha };
  const later: Levels = { tolerance: options.tolerance, alpha: options.laterAlpha };
  const lowest = lowestFrom(series, 2 * w, w);
  for (let s = 1; s + 2 * w <= series.length; s++) {
    if (levelChange(series.slice(s, s + w), series.slice(s + w, s + 2 * w), windows) !== 0) continue;
    // No later stretch of two windows is a lower level (the lowest of them stands for all); near the end, the last whole one.
    const after = lowest[Math.min(s + 2 * w, series.length - 2 * w)]!;
    if (levelChange(series.slice(s, s + 2 * w), series.slice(after, after + 2 * w), later) < 0) continue;
    return s;
  }
  return undefined;
}

/** Whether a round may stop: the series is steady and its steady stretch holds at least `steadyPoints` points. */
export function steadyEnough(series: readonly number[], steadyPoints: number, options: RequestSteadyOptions = REQUEST_STEADY_DEFAULTS): boolean {
  const s = steadyPoint(series, options);
  // Stryker disable next-line ConditionalExpression: never steady, the length less undefined is NaN, never at least the points asked for
  return s !== undefined && series.length - s >= steadyPoints;
}
