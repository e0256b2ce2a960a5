/**
 * When to stop adding rounds: the stopping rule of adaptive rounds. Given the
 * per-round medians of a baseline and a candidate so far (round i of each ran
 * back to back), is the confidence interval of the paired ratio candidate /
 * baseline as narrow as the target, and if not, roughly how many more rounds
 * would make it so?
 *
 * The interval is the one comparePaired reports (Hodges-Lehmann on log
 * ratios, Wilcoxon signed-rank CI), so the rule stops on the same interval the
 * table shows. Its half-width is the larger side, relative to the ratio:
 * max(hi/ratio - 1, 1 - lo/ratio). tachometer's auto-sample stops on a
 * similar rule (its "horizons"); this one stops on precision, not on a verdict.
 *
 * The estimate of rounds still needed assumes the half-width shrinks like
 * 1/sqrt(n) from where it is. Before the signed-rank CI can reach the
 * confidence at all (6 pairs at 95%) it uses the spread of the log ratios
 * instead: n ~ (z * 1.02 * sd / ln(1 + target))^2, the 1.02 for the
 * signed-rank test's efficiency against the t (3/pi ~ 0.955 under normality).
 * It is a rough guide for scheduling, not a power analysis.
 */
import { normalQuantile } from './normal.ts';
import { wilcoxonSignedRank } from './rank-tests.ts';
import { checkConfidence, checkPositive } from './validate.ts';

export interface StoppingOptions {
  /** Target half-width of the ratio's CI, relative to the ratio. Default 0.02 (±2%). */
  target?: number;
  confidence?: number;
  /** Rounds the budget allows in all; `withinBudget` says whether the estimate fits. */
  maxRounds?: number;
}

export interface StoppingDecision {
  /** Pairs so far. */
  rounds: number;
  /** exp(Hodges-Lehmann of the log ratios); NaN-free: 1 when there are no pairs. */
  ratio: number;
  ci: [number, number];
  /** Relative half-width of the CI (Infinity before the CI can reach the confidence). */
  halfWidth: number;
  target: number;
  /** True when the CI reached the confidence and halfWidth <= target. */
  reached: boolean;
  /** Rough number of further rounds to reach the target; 0 when reached. */
  moreRounds: number;
  /** False when rounds + moreRounds exceeds maxRounds. */
  withinBudget: boolean;
}

export const stoppingDefaults = { target: 0.02, confidence: 0.95 } as const;

/** Smallest number of pairs whose signed-rank CI can reach the confidence (2^-n <= alpha/2). */
export function minPairsFor(confidence: number): number {
  return Math.ceil(Math.log2(2 / (1 - confidence)) - 1e-9);
}

function sampleSd(xs: readonly number[]): number {
  if (xs.length < 2) return NaN;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
}

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
  if (baseline.length !== candidate.length) {
    throw new RangeError(`pairedStopping: ${baseline.length} baseline vs ${candidate.length} candidate values; pairs must match`);
  }
  checkPositive(baseline, 'pairedStopping');
  checkPositive(candidate, 'pairedStopping');
  const n = baseline.length;
  const d = baseline.map((b, i) => Math.log((candidate[i] as number) / b));
  const minPairs = minPairsFor(confidence);
  const logTarget = Math.log1p(target);

  let ratio = 1;
  let ci: [number, number] = [0, Infinity];
  let halfWidth = Infinity;
  let attained = false;
  if (n > 0) {
    const r = wilcoxonSignedRank(d, confidence);
    ratio = Math.exp(r.estimate);
    ci = [Math.exp(r.ci[0]), Math.exp(r.ci[1])];
    attained = r.attained;
    if (attained) halfWidth = Math.max(Math.exp(r.ci[1] - r.estimate) - 1, 1 - Math.exp(r.ci[0] - r.estimate));
  }
  const reached = attained && halfWidth <= target;

  let needed: number;
  if (reached) needed = n;
  else if (attained && halfWidth > 0) {
    // Half-width on the log scale shrinks like 1/sqrt(n).
    const logHalf = Math.max(Math.log1p(halfWidth), -Math.log(1 - Math.min(halfWidth, 0.999)));
    needed = Math.ceil(n * (logHalf / logTarget) ** 2);
  } else {
    const sd = sampleSd(d);
    const z = normalQuantile(1 - (1 - confidence) / 2);
    needed = Number.isFinite(sd) ? Math.ceil(((z * 1.02 * sd) / logTarget) ** 2) : minPairs;
  }
  needed = Math.max(needed, minPairs, n + (reached ? 0 : 1));
  const moreRounds = reached ? 0 : needed - n;
  return { rounds: n, ratio, ci, halfWidth, target, reached, moreRounds, withinBudget: n + moreRounds <= maxRounds };
}
