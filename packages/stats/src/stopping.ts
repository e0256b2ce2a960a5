/**
 * When to stop adding rounds: is the interval of the paired ratio (the one
 * comparePaired reports, before a table's adjustment) as narrow as the target,
 * and if not, roughly how many more units would make it so? It stops on
 * precision, not on a verdict. README.md, "Stopping rule for adaptive rounds".
 */
import { comparePaired } from './verdict.ts';
import { MIN_UNITS } from './units.ts';
import { checkConfidence } from './validate.ts';

export interface StoppingOptions {
  /** Target half-width of the ratio's interval, relative to the ratio. Default 0.02 (±2%). */
  target?: number;
  confidence?: number;
  /** Units the budget allows in all; `withinBudget` says whether the estimate fits. */
  maxRounds?: number;
  /** The unit of each pair (absent: each pair its own). */
  units?: readonly (string | number)[];
}

export interface StoppingDecision {
  /** Independent units so far. */
  rounds: number;
  ratio: number;
  ci: [number, number];
  /** Relative half-width of the interval (Infinity before there are enough units for one). */
  halfWidth: number;
  target: number;
  /** True when there is an interval and halfWidth <= target. */
  reached: boolean;
  /** Rough number of further units to reach the target; 0 when reached. */
  moreRounds: number;
  /** False when rounds + moreRounds exceeds maxRounds. */
  withinBudget: boolean;
}

const stoppingDefaults = { target: 0.02, confidence: 0.95 } as const;

/**
 * The stopping rule for one case x candidate against its baseline. Throws a
 * RangeError when the arrays differ in length, hold a value that is not
 * finite and > 0, or the options are out of range.
 */
export function pairedStopping(baseline: readonly number[], candidate: readonly number[], opts: StoppingOptions = {}): StoppingDecision {
  const target = opts.target ?? stoppingDefaults.target;
  const confidence = checkConfidence(opts.confidence ?? stoppingDefaults.confidence, 'pairedStopping');
  const maxRounds = opts.maxRounds ?? Infinity;
  if (!(target > 0 && target < 1)) throw new RangeError(`pairedStopping: target must be in (0, 1), got ${target}`);
  if (!(maxRounds >= 0)) throw new RangeError(`pairedStopping: maxRounds must be >= 0, got ${maxRounds}`);
  const c = baseline.length ? comparePaired(baseline, candidate, { confidence, ...(opts.units ? { units: opts.units } : {}) }) : undefined;
  const rounds = c?.units ?? 0;
  // Fewer than MIN_UNITS units give no interval: ask for the units missing.
  if (!c || !Number.isFinite(c.ci[1])) {
    return { rounds, ratio: c?.ratio ?? 1, ci: [0, Infinity], halfWidth: Infinity, target, reached: false, moreRounds: MIN_UNITS - rounds, withinBudget: MIN_UNITS <= maxRounds };
  }
  const halfWidth = Math.max(c.ci[1] / c.ratio - 1, 1 - c.ci[0] / c.ratio);
  // Stryker disable next-line EqualityOperator: a half-width equal to the target to the last bit does not occur (a continuous statistic)
  const reached = halfWidth <= target;
  // Each side of the log interval shrinks like 1/√units; not reached, the wider side is past ln(1 + target), so more units than now.
  const logHalf = Math.max(Math.log1p(halfWidth), -Math.log(1 - Math.min(halfWidth, 0.999)));
  const moreRounds = reached ? 0 : Math.ceil(rounds * (logHalf / Math.log1p(target)) ** 2) - rounds;
  return { rounds, ratio: c.ratio, ci: c.ci, halfWidth, target, reached, moreRounds, withinBudget: rounds + moreRounds <= maxRounds };
}
