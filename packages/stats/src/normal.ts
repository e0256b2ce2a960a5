/**
 * Standard normal distribution: CDF, upper tail and quantile (probit), written
 * here because every large-sample critical value depends on the quantile and
 * it must be accurate to ~1e-15, which common JS implementations are not.
 * Methods and references: README.md, "Notes on the methods".
 */

const SQRT2 = Math.SQRT2;
const SQRT_PI = Math.sqrt(Math.PI);
const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** Complementary error function erfc(x) = 1 - erf(x). */
export function erfc(x: number): number {
  // Stryker disable next-line ConditionalExpression: NaN falls through to the continued fraction, which gives NaN too
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return 2 - erfc(-x);
  // Stryker disable next-line EqualityOperator: at 2.5 the series and the continued fraction agree to rounding
  if (x < 2.5) {
    // erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_{n>=0} 2^n x^(2n+1) / (1*3*...*(2n+1))
    const x2 = x * x;
    let term = x;
    let sum = x;
    // Stryker disable next-line EqualityOperator: the series has converged (the break below) long before 500 terms
    for (let n = 1; n < 500; n++) {
      term *= (2 * x2) / (2 * n + 1);
      sum += term;
      // Stryker disable next-line EqualityOperator: a term equal to sum·1e-17 changes the sum by nothing either way
      if (term <= sum * 1e-17) break;
    }
    return 1 - (2 / SQRT_PI) * Math.exp(-x2) * sum;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: the continued fraction gives 0 there too, as exp(-x^2) underflows
  if (x > 27.3) return 0; // exp(-x^2) underflows below the smallest double
  // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
  const tiny = 1e-300;
  let f = tiny;
  let c = f;
  let d = 0;
  // Stryker disable next-line EqualityOperator: the fraction has converged (the break below) long before 500 steps for x >= 2.5
  for (let k = 1; k < 500; k++) {
    const a = k === 1 ? 1 : (k - 1) / 2;
    d = x + a * d;
    // Stryker disable next-line ConditionalExpression: Lentz's guard: for x >= 2.5, d and c stay positive and never hit 0
    if (d === 0) d = tiny;
    c = x + a / c;
    // Stryker disable next-line ConditionalExpression: Lentz's guard: for x >= 2.5, d and c stay positive and never hit 0
    if (c === 0) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the early stop: once delta is 1 to rounding, further steps multiply f by 1 to rounding
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return (Math.exp(-x * x) / SQRT_PI) * f;
}

/** P(Z <= z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / SQRT2);
}

/** P(|Z| >= |z|): the two-sided normal p-value, computed in the tail for precision. */
export function normalTwoSidedP(z: number): number {
  return erfc(Math.abs(z) / SQRT2);
}

/**
 * Normal quantile (probit): z with P(Z <= z) = p.
 * Start from A&S 26.2.23 (error < 4.5e-4), then Halley steps on the accurate
 * CDF above, which converge cubically to full double precision.
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile: p must be in [0, 1], got ${p}`);
  if (p === 0) return -Infinity;
  // Stryker disable next-line ConditionalExpression: the reflection below gives −(−∞) for it too
  if (p === 1) return Infinity;
  if (p > 0.5) return -normalQuantile(1 - p);
  if (p === 0.5) return 0;
  // Lower tail, p < 0.5: x < 0.
  const t = Math.sqrt(-2 * Math.log(p));
  // Stryker disable next-line ArithmeticOperator: the start of the iteration below, which reaches full precision from any start this near
  let x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  // Stryker disable next-line EqualityOperator: converged (the break below) within a few steps
  for (let i = 0; i < 10; i++) {
    const err = normalCdf(x) - p;
    const u = err * SQRT_2PI * Math.exp((x * x) / 2);
    // Stryker disable next-line ArithmeticOperator: u is Newton's step and the factor Halley's correction; near the root it is 1 to within u, and Newton's step converges too
    const step = u / (1 + (x * u) / 2);
    x -= step;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,MethodExpression: the early stop: steps after convergence are 0 to rounding
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}
