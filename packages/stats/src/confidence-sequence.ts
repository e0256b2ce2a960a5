/**
 * Intervals valid at every look: a confidence sequence for the mean log ratio
 * over independent units (process pairs), so a cell may be looked at after
 * every round and stopped when its interval decides it, without the false
 * verdicts that looking and stopping bring to a fixed-design t interval.
 *
 * The sequence is Lai's (1976) for a normal mean with unknown variance, in the
 * form of Wang & Ramdas (2023, "Anytime-valid t-tests and confidence sequences
 * for Gaussian means with unknown variance"): with t unit means x_i, the
 * mixture over the standardized effect θ = μ/σ ~ N(0, 1/c), with the scale
 * mixed out by its invariant prior, is
 *
 *   M_t(μ) = √(c/(t+c)) · (V/(V − S²/(t+c)))^(t/2),  S = Σ(x_i − μ), V = Σ(x_i − μ)²,
 *
 * a nonnegative martingale under μ whatever σ, so by Ville's inequality
 * P(∃t: M_t(μ) ≥ 1/δ) ≤ δ (Howard, Ramdas, McAuliffe & Sekhon 2021, Ann.
 * Statist. 49:1055, for the method). The set {μ: M_t(μ) < 1/δ} is an interval
 * around the mean x̄ in closed form (`anytimeIntervalAt`), and M_t(0) is the
 * cell's e-value against "no change", which the table's e-BH step reads
 * (fdr.ts applyEbh). Exact for normal unit means; unit means of log ratios
 * are near normal, and docs/comparing.md, "Stopping when decided", gives the
 * simulated calibration under the stopping rule.
 */
import { classify, type Comparison } from './verdict.ts';
import type { UnitInference } from './units.ts';
import { checkConfidence } from './validate.ts';

/**
 * The mixture's prior precision c on the standardized effect: small c spends
 * less width on the first looks and more on late ones. A table of m cells
 * reads its first selection at error α/m, and with t units the e-value can
 * reach at most ((t+c)/c)^((t−1)/2): at c = 0.1 five units can select a cell
 * of a 48-cell table (at 0.3 they cannot), while from 6 units on the interval
 * stays within about twice the fixed 95% t interval's. A comparison's
 * horizon (15 pairs) gains little from another c: the narrowest sequence at
 * 15 pairs is 7% narrower than this one's, and none at 8 pairs is narrower
 * by more than 3% (docs/measurements/comparing.md, by simulation).
 */
export const ANYTIME_PRIOR_PRECISION = 0.1;

/** Most units a projection looks ahead to ("would need ~N more pairs"); past it a cell is out of reach. */
const MAX_PROJECTED_UNITS = 1000;

/** Σ(x_i − x̄)² of the unit means, recovered from the t inference (se² = Q / (t (t − 1))). */
function deviance(inf: UnitInference): number {
  return inf.se * inf.se * inf.units * (inf.units - 1);
}

/**
 * Half-width of the confidence sequence around the mean after `units` units
 * with sum of squared deviations `q`, at error δ = 1 − confidence; Infinity
 * while the sequence is still unbounded (too few units for the level).
 */
export function anytimeHalfWidth(units: number, q: number, confidence: number, c: number = ANYTIME_PRIOR_PRECISION): number {
  checkConfidence(confidence, 'anytimeHalfWidth');
  if (!(c > 0)) throw new RangeError(`anytimeHalfWidth: prior precision must be > 0, got ${c}`);
  if (!(units >= 2 && q >= 0)) return Infinity;
  const delta = 1 - confidence;
  // M_t(μ) < 1/δ  ⇔  S² < a·V with a = (t+c)(1 − K^(−1)), K = ((t+c)/(c δ²))^(1/t); with S = t·e, V = Q + t·e²: e² < aQ / (t(t − a)).
  const lnK = Math.log((units + c) / (c * delta * delta)) / units;
  const a = (units + c) * -Math.expm1(-lnK);
  // Stryker disable next-line EqualityOperator: a = t exactly (a float coincidence) leaves aQ/0, unbounded as well unless Q = 0
  if (a >= units) return Infinity;
  return Math.sqrt((a * q) / (units * (units - a)));
}

/** The log-scale confidence sequence's interval at a confidence; undefined while it is unbounded. */
export function anytimeIntervalAt(inf: UnitInference, confidence: number, c: number = ANYTIME_PRIOR_PRECISION): [number, number] | undefined {
  // A spread that is not a number (one unit) gives a deviance that is not one either, and anytimeHalfWidth no bound.
  const half = anytimeHalfWidth(inf.units, deviance(inf), confidence, c);
  return Number.isFinite(half) ? [inf.estimate - half, inf.estimate + half] : undefined;
}

/**
 * The mixture martingale at μ = 0: the evidence against "no change" (an
 * e-value; 1 is none). Fewer than 2 units, or every unit mean 0: 1.
 */
export function anytimeEValue(inf: UnitInference, c: number = ANYTIME_PRIOR_PRECISION): number {
  const t = inf.units;
  // One unit's martingale is 1 by the formula too (√(c/(1+c))·√((1+c)/c)), but only up to rounding: said exactly.
  if (!(t >= 2 && Number.isFinite(inf.se))) return 1;
  const s = t * inf.estimate;
  const v = deviance(inf) + t * inf.estimate * inf.estimate;
  if (v === 0) return 1;
  // V − S²/(t+c) ≥ V·c/(t+c) > 0 (Cauchy–Schwarz: S² ≤ tV), so the log is finite.
  const logM = 0.5 * Math.log(c / (t + c)) - (t / 2) * Math.log1p(-(s * s) / ((t + c) * v));
  return Math.exp(logM);
}

/**
 * Units in all at which the sequence would decide the cell, if its mean and
 * spread stayed as they are: the first count from now whose interval at
 * `confidence` classifies (beyond the threshold, inside the band, or under it
 * with a direction). Undefined when no count up to MAX_PROJECTED_UNITS does
 * (an effect at the threshold), or with fewer than 2 units.
 */
export function anytimeUnitsToDecide(inf: UnitInference, confidence: number, threshold: number, c: number = ANYTIME_PRIOR_PRECISION): number | undefined {
  // A spread that is not a number gives every projected width unbounded: nothing decides.
  if (!(inf.units >= 2)) return undefined;
  const variance = deviance(inf) / (inf.units - 1);
  // With the mean and spread held, the interval only narrows as units come, so once it decides it stays decided: a binary search.
  const decides = (t: number): boolean => {
    const half = anytimeHalfWidth(t, variance * (t - 1), confidence, c);
    return Number.isFinite(half) && classify(inf.estimate, [inf.estimate - half, inf.estimate + half], threshold) !== 'inconclusive';
  };
  if (!decides(MAX_PROJECTED_UNITS)) return undefined;
  let lo = inf.units - 1;
  let hi = MAX_PROJECTED_UNITS;
  // Invariant: decides(hi), and lo is below the units there are or does not decide.
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (decides(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * A comparison read at a confidence on its confidence sequence: the interval,
 * the word classified from it, the e-value against "no change" and, when
 * undecided, the units that would decide it. The anytime counterpart of
 * verdict.ts readAt, from the same inference, on the mixture of prior
 * precision `priorPrecision`.
 */
export function readAnytimeAt(
  c: Omit<Comparison, 'ci' | 'verdict' | 'confidence' | 'unitsToDecide'>,
  confidence: number,
  priorPrecision: number = ANYTIME_PRIOR_PRECISION,
): Comparison & { eValue: number } {
  const logCi = anytimeIntervalAt(c.inference, confidence, priorPrecision);
  const verdict = classify(c.inference.estimate, logCi, c.threshold);
  const out: Comparison & { eValue: number } = {
    ...c,
    ci: logCi ? [Math.exp(logCi[0]), Math.exp(logCi[1])] : [0, Infinity],
    confidence,
    verdict,
    eValue: anytimeEValue(c.inference, priorPrecision),
  };
  // Undecided now, so the first count that decides is beyond the units there are.
  if (verdict === 'inconclusive') {
    const units = anytimeUnitsToDecide(c.inference, confidence, c.threshold, priorPrecision);
    if (units !== undefined) out.unitsToDecide = units;
  }
  return out;
}
