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
