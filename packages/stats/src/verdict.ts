/**
 * A/B comparison of two arms on log ratios (timing noise is multiplicative, so
 * on the log scale swapping the arms mirrors every number), with a verdict read
 * from the interval printed beside it. The interval is Student's t on the
 * independent units' mean log ratios (units.ts). The verdict rules and why the
 * band is [1/(1+t), 1+t]: README.md, "Verdicts".
 */
import { armMoments, intervalAt, pValueOf, unitInference, welchOfMoments, hasInterval, type ArmMoments, type UnitInference } from './units.ts';
import { checkConfidence, checkPositive } from './validate.ts';

export type Verdict = 'faster' | 'slower' | 'small' | 'equivalent' | 'inconclusive';

export interface Comparison {
  /** candidate / baseline (estimate; < 1 means the candidate costs less) */
  ratio: number;
  /** The interval of the ratio at `confidence`; [0, Infinity] when there are too few units for one. */
  ci: [number, number];
  /** The confidence of `ci` (after a table's adjustment, the adjusted level). */
  confidence: number;
  /** two-sided p-value of "no change" */
  pValue: number;
  verdict: Verdict;
  /** noise threshold used, e.g. 0.01 = 1% */
  threshold: number;
  /** values compared (paired: sets; unpaired: both arms' rounds) */
  n: number;
  /** independent units behind the interval (process pairs; unpaired: the smaller arm's processes) */
  units: number;
  /** The log-scale inference the interval comes from, so a table can re-read it at another level. */
  inference: UnitInference;
  method: string;
  /**
   * When inconclusive: rough number of units in all (process pairs; unpaired:
   * processes per arm) for the interval to exclude 1 or fit in the band, from
   * width ~ 1/sqrt(units). Absent when it cannot be decided (effect ~ at the threshold).
   */
  unitsToDecide?: number;
  /** compareUnpaired only: rounds per arm */
  nBaseline?: number;
  nCandidate?: number;
}

export interface CompareOptions {
  /** relative noise threshold; default 0.01 (1%) */
  threshold?: number;
  /** default 0.95 */
  confidence?: number;
  /**
   * comparePaired: the unit each pair came from (e.g. the two processes'
   * numbers). Pairs of one unit share its processes and count once. Absent:
   * every pair is its own unit.
   */
  units?: readonly (string | number)[];
}

export const DEFAULT_THRESHOLD = 0.01;
/** unitsToDecide is given up when more than this many times the current units would be needed. */
const MAX_GROWTH = 100;

function checkThreshold(t: number, where: string): number {
  if (!(Number.isFinite(t) && t >= 0)) throw new RangeError(`${where}: threshold must be finite and >= 0, got ${t}`);
  return t;
}

/** Verdict from the log-scale estimate and interval (rules in the file comment); no interval: inconclusive. */
export function classify(logEstimate: number, logCi: readonly [number, number] | undefined, threshold: number): Verdict {
  if (!logCi) return 'inconclusive';
  const tau = Math.log1p(threshold);
  const [lo, hi] = logCi;
  if (hi < 0) return logEstimate < -tau ? 'faster' : 'small';
  if (lo > 0) return logEstimate > tau ? 'slower' : 'small';
  if (lo >= -tau && hi <= tau) return 'equivalent';
  return 'inconclusive';
}

/**
 * Factor by which the units must grow for an inconclusive result to become
 * decided, assuming the estimate stays put and each side of the interval
 * shrinks like 1/sqrt(units). Infinity when the estimate sits exactly on the threshold.
 */
export function growthFactorToDecide(logEstimate: number, logCi: readonly [number, number], threshold: number): number {
  const tau = Math.log1p(threshold);
  const e = logEstimate;
  const below = Math.max(0, e - logCi[0]);
  const above = Math.max(0, logCi[1] - e);
  if (e > tau) return (below / e) ** 2; // need lo > 0
  // Stryker disable next-line UnaryOperator: squared, so the sign of −e drops out
  if (e < -tau) return (above / -e) ** 2; // need hi < 0
  if (Math.abs(e) < tau) return Math.max((below / (e + tau)) ** 2, (above / (tau - e)) ** 2); // need the interval inside the band
  return Infinity;
}

/**
 * The comparison of an inference at a confidence: interval, verdict and, when
 * undecided, how many units would decide it. Used for the first reading and
 * for a table's adjusted one.
 */
export function readAt(c: Omit<Comparison, 'ci' | 'verdict' | 'confidence' | 'unitsToDecide'>, confidence: number): Comparison {
  const logCi = intervalAt(c.inference, confidence);
  const verdict = classify(c.inference.estimate, logCi, c.threshold);
  const out: Comparison = { ...c, ci: logCi ? [Math.exp(logCi[0]), Math.exp(logCi[1])] : [0, Infinity], confidence, verdict };
  if (verdict === 'inconclusive' && logCi) {
    const f = growthFactorToDecide(c.inference.estimate, logCi, c.threshold);
    if (Number.isFinite(f) && f <= MAX_GROWTH) out.unitsToDecide = Math.max(Math.ceil(f * c.units), c.units + 1);
  }
  return out;
}

/** Whether a comparison has an interval (enough independent units). */
export function comparisonHasInterval(c: Pick<Comparison, 'inference'>): boolean {
  return hasInterval(c.inference);
}

/**
 * Paired A/B: baseline[i] and candidate[i] are the values of set i, in which
 * both arms ran interleaved (a lockstep set's baseline median and the median
 * scaled by its per-turn ratio, or two processes' medians). Works on
 * d_i = ln(c_i/b_i), reduced to one mean per unit: ratio = exp(mean over
 * units), interval Student t on the unit means.
 */
export function comparePaired(baseline: readonly number[], candidate: readonly number[], opts: CompareOptions = {}): Comparison {
  const threshold = checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD, 'comparePaired');
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'comparePaired');
  if (baseline.length !== candidate.length) {
    throw new RangeError(`comparePaired: ${baseline.length} baseline vs ${candidate.length} candidate values; pairs must match`);
  }
  if (baseline.length === 0) throw new RangeError('comparePaired: no pairs');
  checkPositive(baseline, 'comparePaired');
  checkPositive(candidate, 'comparePaired');
  const d = baseline.map((b, i) => Math.log((candidate[i] as number) / b));
  const inference = unitInference(d, opts.units);
  const method = `paired: mean of the per-unit mean log ratios, Student t interval with ${inference.df} degrees of freedom (${inference.units} independent units from ${d.length} sets)`;
  return readAt({ ratio: Math.exp(inference.estimate), pValue: pValueOf(inference), threshold, n: d.length, units: inference.units, inference, method }, confidence);
}

/**
 * Unpaired A/B, for two saved runs whose rounds were not interleaved:
 * ratio = exp(difference of the arms' means of per-unit mean log values),
 * Welch t interval. unitsToDecide is in units per arm.
 */
export function compareUnpaired(
  baseline: readonly number[],
  candidate: readonly number[],
  opts: Omit<CompareOptions, 'units'> & { baselineUnits?: readonly (string | number)[]; candidateUnits?: readonly (string | number)[] } = {},
): Comparison {
  checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD, 'compareUnpaired');
  checkConfidence(opts.confidence ?? 0.95, 'compareUnpaired');
  if (baseline.length === 0 || candidate.length === 0) throw new RangeError('compareUnpaired: both arms need values');
  checkPositive(baseline, 'compareUnpaired');
  checkPositive(candidate, 'compareUnpaired');
  return compareMoments(
    armMoments({ values: baseline.map(Math.log), ...(opts.baselineUnits ? { units: opts.baselineUnits } : {}) }),
    armMoments({ values: candidate.map(Math.log), ...(opts.candidateUnits ? { units: opts.candidateUnits } : {}) }),
    opts,
  );
}

/**
 * compareUnpaired from each arm's moments of its log values (stats'
 * armMoments): the same comparison, from numbers an arm can be stored as.
 */
export function compareMoments(baseline: ArmMoments, candidate: ArmMoments, opts: Pick<CompareOptions, 'threshold' | 'confidence'> = {}): Comparison {
  const threshold = checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD, 'compareMoments');
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'compareMoments');
  const inference = welchOfMoments(baseline, candidate);
  const method = `unpaired: difference of the mean per-unit log values, Welch t interval with ${inference.df} degrees of freedom`;
  const out = readAt({ ratio: Math.exp(inference.estimate), pValue: pValueOf(inference), threshold, n: baseline.values + candidate.values, units: inference.units, inference, method }, confidence);
  out.nBaseline = baseline.values;
  out.nCandidate = candidate.values;
  return out;
}
