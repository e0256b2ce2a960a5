/**
 * One number for a whole suite: the geometric mean of the per-case ratios
 * (one large ratio cannot dominate it, and swapping the arms mirrors it). The
 * cases of a run share their processes, so the interval treats the unit, not
 * the case, as independent: a cluster-robust variance summed by unit. Method
 * and reference: README.md, `geometricMeanRatio`.
 */
import { MIN_UNITS } from './units.ts';
import { studentTQuantile } from './t-interval.ts';
import { checkConfidence, checkFinite } from './validate.ts';

export interface SuiteAggregate {
  geomean: number;
  /** [0, Infinity] with fewer than MIN_UNITS units. */
  ci: [number, number];
  cases: number;
  /** Independent units behind the interval. */
  units: number;
}

/** One case's log values and the unit each came from (absent: each value its own unit, never shared with another case). */
export interface CaseValues {
  values: readonly number[];
  units?: readonly (string | number)[];
}

/** Per unit: Σ over cases of w·(value − case mean), the unit's contribution to the estimate's error. */
function residualsByUnit(perCase: readonly CaseValues[]): { estimate: number; residuals: Map<string, number> } {
  const C = perCase.length;
  const residuals = new Map<string, number>();
  let estimate = 0;
  perCase.forEach((c, ci) => {
    if (c.values.length === 0) throw new RangeError(`geometricMeanRatio: case ${ci} has no values`);
    checkFinite(c.values, 'geometricMeanRatio');
    if (c.units && c.units.length !== c.values.length) throw new RangeError(`geometricMeanRatio: case ${ci} has ${c.values.length} values but ${c.units.length} unit labels`);
    // The case's estimate is the mean of its unit means (unitInference's estimate).
    const byUnit = new Map<string, { sum: number; n: number }>();
    c.values.forEach((v, i) => {
      const key = c.units ? `u:${String(c.units[i])}` : `${ci}:${i}`;
      const s = byUnit.get(key) ?? { sum: 0, n: 0 };
      s.sum += v;
      s.n++;
      byUnit.set(key, s);
    });
    const means = [...byUnit.entries()].map(([k, s]) => [k, s.sum / s.n] as const);
    const caseMean = means.reduce((a, [, m]) => a + m, 0) / means.length;
    estimate += caseMean / C;
    const w = 1 / (means.length * C);
    // Stryker disable next-line ArithmeticOperator: subtracting negates every residual alike, and only their squares are used
    for (const [k, m] of means) residuals.set(k, (residuals.get(k) ?? 0) + w * (m - caseMean));
  });
  return { estimate, residuals };
}

/** Student t on units − 1 degrees of freedom; none below MIN_UNITS units. */
function intervalFrom(estimate: number, variance: number, units: number, confidence: number): [number, number] {
  if (units < MIN_UNITS) return [0, Infinity];
  const half = studentTQuantile(1 - (1 - confidence) / 2, units - 1) * Math.sqrt(variance);
  return [Math.exp(estimate - half), Math.exp(estimate + half)];
}

/** The sandwich variance of the residuals by unit, with the small-sample factor g/(g − 1) (no use below MIN_UNITS units). */
function sandwich(residuals: Map<string, number>): { variance: number; units: number } {
  const g = residuals.size;
  let s = 0;
  for (const r of residuals.values()) s += r * r;
  return { variance: (g / (g - 1)) * s, units: g };
}

/**
 * Paired: perCase[c] holds case c's per-set log ratios ln(candidate/baseline)
 * and the unit (process pair) of each. geomean = exp(mean over cases of each
 * case's mean of unit means).
 */
export function geometricMeanRatio(perCase: readonly CaseValues[], opts: { confidence?: number } = {}): SuiteAggregate {
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'geometricMeanRatio');
  if (perCase.length === 0) throw new RangeError('geometricMeanRatio: no cases');
  const { estimate, residuals } = residualsByUnit(perCase);
  const { variance, units } = sandwich(residuals);
  return { geomean: Math.exp(estimate), ci: intervalFrom(estimate, variance, units, confidence), cases: perCase.length, units };
}

/** One case of an unpaired comparison: each arm's log values (per-round medians) and their units. */
export interface UnpairedCase {
  baseline: CaseValues;
  candidate: CaseValues;
}

/**
 * Unpaired (two saved runs): geomean = exp(mean over cases of the difference
 * of the arms' means of unit means); the two runs' processes are independent,
 * so their sandwich variances add; degrees of freedom from the smaller arm's units.
 */
export function geometricMeanRatioUnpaired(perCase: readonly UnpairedCase[], opts: { confidence?: number } = {}): SuiteAggregate {
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'geometricMeanRatioUnpaired');
  if (perCase.length === 0) throw new RangeError('geometricMeanRatioUnpaired: no cases');
  const a = residualsByUnit(perCase.map((c) => c.baseline));
  const b = residualsByUnit(perCase.map((c) => c.candidate));
  const va = sandwich(a.residuals);
  const vb = sandwich(b.residuals);
  const units = Math.min(va.units, vb.units);
  const estimate = b.estimate - a.estimate;
  return { geomean: Math.exp(estimate), ci: intervalFrom(estimate, va.variance + vb.variance, units, confidence), cases: perCase.length, units };
}
