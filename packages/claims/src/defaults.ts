/** The claims command's own policy: its sets, its budget and how a run's share of it is set, its exit code for claims left undecided. */

/**
 * Each set is a fresh pair (or group) of processes, the unit the interval
 * counts: 6 to begin with (an interval needs 3), more for a case while a check
 * on it is undecided, up to 16; 50 ms of samples per process and set.
 */
export const CLAIMS_DEFAULTS = { rounds: 6, maxRounds: 16, setTime: '50ms', warmupMs: 100, budget: '10m', setsPerProcess: 1 };

/** Exit code: no claim broke, but some stayed undecided within the budget. */
export const UNDECIDED_EXIT = 3;

/** The wall time one run may add sets for: what is left over √(runs left), as most runs decide early and leave their share to the rest. */
export function runBudgetMs(leftMs: number, runsLeft: number): number {
  return Math.max(1, leftMs / Math.sqrt(Math.max(1, runsLeft)));
}
