/**
 * Student's t: its quantile and two-sided p-value, for the intervals on
 * independent units (units.ts) and the suite geomean.
 */
import { normalQuantile } from './normal.ts';

/**
 * The p-quantile of Student's t with a whole number df of degrees of freedom
 * (every interval here has one): exact, in closed form for df 1 and 2,
 * otherwise by bisection on the exact distribution (studentTTwoSided) from a
 * Cornish–Fisher start.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(Number.isInteger(df) && df >= 1)) throw new RangeError(`studentTQuantile: p in (0, 1) and a whole df >= 1, got ${p}, ${df}`);
  // A watch over a server's requests asks the same few quantiles after every request: each is found once.
  const key = `${p} ${df}`;
  const known = QUANTILES.get(key);
  if (known !== undefined) return known;
  const t = tQuantile(p, df);
  // Stryker disable next-line all: a bound on the cache's size, not on its answers
  if (QUANTILES.size < 4096) QUANTILES.set(key, t);
  return t;
}

const QUANTILES = new Map<string, number>();

function tQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the bisection below reaches the same quantile (to 1e-12); this is its closed form
  if (df === 1) return -1 / Math.tan(Math.PI * p);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the bisection below reaches the same quantile (to 1e-12); this is its closed form
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  // Stryker disable all: the Cornish–Fisher start only opens the bisection's bracket, which is doubled until it holds the quantile: any start converges to the same one
  const z = normalQuantile(p);
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  const start = z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3);
  let hi = Math.max(1, Math.abs(start));
  // Stryker restore all
  // Upper tail by symmetry: find t > 0 with P(T > t) = min(p, 1 - p).
  const tail = Math.min(p, 1 - p);
  let lo = 0;
  // Stryker disable next-line EqualityOperator,ArithmeticOperator: a bracket doubled once more, or further, holds the quantile too
  while (studentTTwoSided(hi, df) / 2 > tail) hi *= 2;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator,UpdateOperator: the stopping rule: a bisection run longer (up to 200 halvings) ends at the same quantile to 1e-12
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    // Stryker disable next-line EqualityOperator: a midpoint exactly at the quantile does not occur
    if (studentTTwoSided(mid, df) / 2 > tail) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  // Stryker disable next-line EqualityOperator: p = 0.5 returned above
  return p > 0.5 ? t : -t;
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
