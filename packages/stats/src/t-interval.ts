/**
 * A paired comparison with Student's t interval on the per-round log ratios,
 * for a measure whose rounds barely vary (instruction counts: two rounds of a
 * case under callgrind agree to a few parts per million). The signed-rank
 * interval is the right one for times, whose process-to-process spread is
 * heavy-tailed, but it cannot reach 95% with fewer than 6 rounds, and a round
 * of counts costs a process under valgrind; with counts, the t interval
 * on 3 rounds is already narrow, and it widens honestly when a round is off.
 */
import { normalQuantile } from './normal.ts';
import { classify, DEFAULT_THRESHOLD, type Comparison, type CompareOptions } from './verdict.ts';
import { checkConfidence, checkPositive } from './validate.ts';

/** The p-quantile of Student's t with df degrees of freedom: exact for df 1 and 2, Cornish–Fisher beyond. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df >= 1)) throw new RangeError(`studentTQuantile: p in (0, 1) and df >= 1, got ${p}, ${df}`);
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  const z = normalQuantile(p);
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3);
}

/**
 * Two-sided p-value of |t| on an integer number of degrees of freedom, exact:
 * Abramowitz & Stegun 26.7.3–26.7.4 give P(|T| ≤ t) as a finite series in
 * θ = atan(t/√df).
 */
export function studentTTwoSided(t: number, df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`studentTTwoSided: df must be a whole number >= 1, got ${df}`);
  const a = Math.abs(t);
  if (!Number.isFinite(a)) return 0;
  const theta = Math.atan(a / Math.sqrt(df));
  const c = Math.cos(theta);
  const sn = Math.sin(theta);
  let within: number;
  if (df % 2 === 1) {
    let term = c;
    let sum = df > 1 ? c : 0;
    for (let k = 3; k <= df - 2; k += 2) {
      term *= ((k - 1) / k) * c * c;
      sum += term;
    }
    within = (2 / Math.PI) * (theta + sn * sum);
  } else {
    let term = 1;
    let sum = 1;
    for (let k = 2; k <= df - 2; k += 2) {
      term *= ((k - 1) / k) * c * c;
      sum += term;
    }
    within = sn * sum;
  }
  return Math.min(1, Math.max(0, 1 - within));
}

/**
 * Paired A/B on d_i = ln(candidate_i / baseline_i): ratio = exp(mean d), CI
 * exp(mean ± t·sd/√n). One round gives an estimate and no interval
 * (inconclusive); identical rounds give a zero-width interval.
 */
export function comparePairedT(baseline: readonly number[], candidate: readonly number[], opts: CompareOptions = {}): Comparison {
  const threshold = opts.threshold ?? DEFAULT_THRESHOLD;
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'comparePairedT');
  if (baseline.length !== candidate.length || baseline.length === 0) throw new RangeError('comparePairedT: needs matching, non-empty pairs');
  checkPositive(baseline, 'comparePairedT');
  checkPositive(candidate, 'comparePairedT');
  const d = baseline.map((b, i) => Math.log(candidate[i]! / b));
  const n = d.length;
  const mean = d.reduce((a, b) => a + b, 0) / n;
  const method = 'paired mean of log ratios, Student t CI';
  if (n < 2) return { ratio: Math.exp(mean), ci: [0, Infinity], pValue: 1, verdict: 'inconclusive', threshold, n, method, coverage: 0 };
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = studentTQuantile(1 - (1 - confidence) / 2, n - 1) * (sd / Math.sqrt(n));
  const ci: [number, number] = [mean - half, mean + half];
  const pValue = sd > 0 ? studentTTwoSided(mean / (sd / Math.sqrt(n)), n - 1) : mean === 0 ? 1 : 0;
  return { ratio: Math.exp(mean), ci: [Math.exp(ci[0]), Math.exp(ci[1])], pValue, verdict: classify(mean, ci, threshold), threshold, n, method, coverage: confidence };
}

/**
 * Unpaired A/B of counts from two runs (two saved runs of `--measure
 * instructions`, e.g. a pull request's base and head): Welch's t interval on
 * the difference of the mean log counts, ratio = exp(mean ln b − mean ln a).
 * Fewer than 2 rounds on a side: an estimate and no interval (inconclusive).
 */
export function compareUnpairedT(baseline: readonly number[], candidate: readonly number[], opts: CompareOptions = {}): Comparison {
  const threshold = opts.threshold ?? DEFAULT_THRESHOLD;
  const confidence = checkConfidence(opts.confidence ?? 0.95, 'compareUnpairedT');
  if (baseline.length === 0 || candidate.length === 0) throw new RangeError('compareUnpairedT: needs non-empty samples');
  checkPositive(baseline, 'compareUnpairedT');
  checkPositive(candidate, 'compareUnpairedT');
  const moments = (xs: readonly number[]): { mean: number; variance: number; n: number } => {
    const logs = xs.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    return { mean, variance: logs.length > 1 ? logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (logs.length - 1) : 0, n: logs.length };
  };
  const a = moments(baseline);
  const b = moments(candidate);
  const diff = b.mean - a.mean;
  const n = Math.min(a.n, b.n);
  const method = 'unpaired difference of mean log counts, Welch t CI';
  if (n < 2) return { ratio: Math.exp(diff), ci: [0, Infinity], pValue: 1, verdict: 'inconclusive', threshold, n, method, coverage: 0 };
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const se = Math.sqrt(va + vb);
  // Welch–Satterthwaite degrees of freedom, rounded down (the wider, conservative interval); identical rounds on both sides give a zero-width interval.
  const welch = se > 0 ? (va + vb) ** 2 / ((va > 0 ? va ** 2 / (a.n - 1) : 0) + (vb > 0 ? vb ** 2 / (b.n - 1) : 0)) : a.n + b.n - 2;
  const df = Math.max(1, Math.floor(welch));
  const half = studentTQuantile(1 - (1 - confidence) / 2, df) * se;
  const ci: [number, number] = [diff - half, diff + half];
  const pValue = se > 0 ? studentTTwoSided(diff / se, df) : diff === 0 ? 1 : 0;
  return { ratio: Math.exp(diff), ci: [Math.exp(ci[0]), Math.exp(ci[1])], pValue, verdict: classify(diff, ci, threshold), threshold, n, method, coverage: confidence };
}
