/** The lines a campaign (a bisect, a release matrix) says as it ends, worded once for all of them. */
import { formatClock } from './format.ts';

/**
 * Why a campaign stopped at its budget, and how to go on: every measurement
 * it finished is saved, so the same command continues from there. `done`
 * says what it finished first (e.g. "3 measurements"), when that is known.
 */
export function budgetReachedLine(budgetMs: number, done?: string): string {
  return `budget of ${formatClock(budgetMs)} reached${done ? ` after ${done}` : ''}; run the same command again to continue (or raise --budget)`;
}
