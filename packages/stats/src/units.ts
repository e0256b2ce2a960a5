/**
 * Inference on the independent unit: sets served by one process pair share
 * that pair's state, so each unit (a process pair, or the processes that
 * served all arms together) is reduced to the mean of its values, and the
 * estimate and its Student t interval (units − 1 df) come from those means.
 * Why this needs no intraclass correlation: README.md, "Verdicts".
 */
import { median } from './quantile.ts';
import { studentTQuantile, studentTTwoSided } from './t-interval.ts';
import { checkConfidence, checkFinite } from './validate.ts';
import { meanOf, sumOfComponents, sumOfSquares } from './variance-components.ts';

/** Fewer units than this give no interval: a t with 1 degree of freedom needs the two unit means to agree within a few percent of the effect. */
export const MIN_UNITS = 3;

/** A log-scale estimate with the spread of its independent units. */
export interface UnitInference {
  /** Log-scale estimate (mean over units of each unit's mean; unpaired: difference of such means). */
  estimate: number;
  /** Standard error of the estimate; NaN with fewer than 2 units. */
  se: number;
  /** Degrees of freedom of the t reference (units − 1; Welch–Satterthwaite when unpaired). */
  df: number;
  /** Independent units behind the estimate (unpaired: the smaller arm's). */
  units: number;
}

/** Each unit's mean value, in the order units first appear; without labels every value is its own unit. */
export function unitMeans(values: readonly number[], units?: readonly (string | number)[]): number[] {
  checkFinite(values, 'unitMeans');
  if (!units) return [...values];
  if (units.length !== values.length) throw new RangeError(`unitMeans: ${values.length} values but ${units.length} unit labels`);
  const sums = new Map<string | number, { sum: number; n: number }>();
  values.forEach((v, i) => {
    const key = units[i]!;
    const s = sums.get(key);
    if (s) {
      s.sum += v;
      s.n++;
    } else sums.set(key, { sum: v, n: 1 });
  });
  return [...sums.values()].map((s) => s.sum / s.n);
}

/** Mean and sample variance (NaN for one value: 0/0). */
function moments(xs: readonly number[]): { mean: number; variance: number } {
  return { mean: meanOf(xs), variance: sumOfSquares(xs) / (xs.length - 1) };
}

/** Paired: per-set log ratios and the unit each came from. */
export function unitInference(values: readonly number[], units?: readonly (string | number)[]): UnitInference {
  if (values.length === 0) throw new RangeError('unitInference: no values');
  return fromUnitMeans(unitMeans(values, units));
}

/** The estimate and its spread from the units' means, each unit one degree of freedom. */
function fromUnitMeans(means: readonly number[]): UnitInference {
  const { mean, variance } = moments(means);
  return { estimate: mean, se: Math.sqrt(variance / means.length), df: means.length - 1, units: means.length };
}

/**
 * The paired inference with the one unit farthest from the median of the
 * unit means left out; undefined with fewer than MIN_UNITS + 1 units. Not
 * for an interval (leaving out the far unit is what makes it narrow): for a
 * projection of the units a cell would need, so that one far process pair
 * does not alone make a cell look out of reach (verdicts' stopping.ts).
 */
export function withoutFarthestUnit(values: readonly number[], units?: readonly (string | number)[]): UnitInference | undefined {
  const means = unitMeans(values, units);
  if (means.length <= MIN_UNITS) return undefined;
  const centre = median(means);
  let far = 0;
  means.forEach((m, i) => {
    if (Math.abs(m - centre) > Math.abs(means[far]! - centre)) far = i;
  });
  return fromUnitMeans(means.filter((_, i) => i !== far));
}

/** One arm of an unpaired comparison: log values and the unit (process) each came from. */
export interface UnpairedArm {
  values: readonly number[];
  units?: readonly (string | number)[];
}

/**
 * What Welch's inference reads of one arm: its unit means' count, mean and
 * sample variance (NaN with one unit). A few numbers an arm can be stored as,
 * so two stored arms are compared without their values (welchOfMoments).
 */
export interface ArmMoments {
  /** The log values the moments are of. */
  values: number;
  units: number;
  mean: number;
  variance: number;
}

/** An arm's moments (ArmMoments) from its log values. */
export function armMoments(arm: UnpairedArm): ArmMoments {
  if (!arm.values.length) throw new RangeError('armMoments: the arm needs values');
  const means = unitMeans(arm.values, arm.units);
  return { values: arm.values.length, units: means.length, ...moments(means) };
}

/**
 * Unpaired (two runs not interleaved): the difference of the arms' means of
 * unit means, Welch's standard error, Welch–Satterthwaite degrees of freedom
 * rounded down (the wider interval).
 */
export function welchInference(baseline: UnpairedArm, candidate: UnpairedArm): UnitInference {
  if (!baseline.values.length || !candidate.values.length) throw new RangeError('welchInference: both arms need values');
  return welchOfMoments(armMoments(baseline), armMoments(candidate));
}

/** welchInference from the arms' moments alone. */
export function welchOfMoments(ma: ArmMoments, mb: ArmMoments): UnitInference {
  const units = Math.min(ma.units, mb.units);
  const estimate = mb.mean - ma.mean;
  if (units < 2) return { estimate, se: NaN, df: 0, units };
  const sum = sumOfComponents([
    { variance: ma.variance / ma.units, df: ma.units - 1 },
    { variance: mb.variance / mb.units, df: mb.units - 1 },
  ]);
  // Neither arm spread (se 0): the interval has no width and its t no use; the df of a pooled t is said.
  return { estimate, se: Math.sqrt(sum.variance), df: sum.df ?? ma.units + mb.units - 2, units };
}

/** Whether an inference has enough units for an interval (MIN_UNITS units give df >= 2: paired units − 1, Welch at least the smaller arm's units − 1). */
export function hasInterval(inf: UnitInference): boolean {
  return inf.units >= MIN_UNITS && Number.isFinite(inf.se);
}

/** The log-scale t interval at a confidence; undefined with fewer than MIN_UNITS units. */
export function intervalAt(inf: UnitInference, confidence: number): [number, number] | undefined {
  checkConfidence(confidence, 'intervalAt');
  if (!hasInterval(inf)) return undefined;
  const half = studentTQuantile(1 - (1 - confidence) / 2, inf.df) * inf.se;
  return [inf.estimate - half, inf.estimate + half];
}

/** Two-sided p-value of "no change" (1 without an interval; 0 for a nonzero estimate with zero spread). */
export function pValueOf(inf: UnitInference): number {
  if (!hasInterval(inf)) return 1;
  if (inf.se === 0) return inf.estimate === 0 ? 1 : 0;
  return studentTTwoSided(inf.estimate / inf.se, Math.floor(inf.df));
}
