/**
 * Variance components: an estimate's variance as a sum of independent parts,
 * each the variance of a mean estimated with degrees of freedom of its own
 * (Welch's two arms; a cell's table processes and its runs alone), and the
 * pooled variance of groups that share one spread. The sum is read with
 * Student's t on Welch–Satterthwaite degrees of freedom.
 */

/** One independent part of a variance and the degrees of freedom it was estimated with. */
export interface VarianceComponent {
  variance: number;
  df: number;
}

/** The mean of a sample (NaN when empty). */
export function meanOf(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sum of squared deviations from the sample's mean. */
export function sumOfSquares(values: readonly number[]): number {
  const m = meanOf(values);
  let sum = 0;
  for (const v of values) sum += (v - m) ** 2;
  return sum;
}

/**
 * The sum of independent components and its Welch–Satterthwaite degrees of
 * freedom, rounded down (the wider interval), at least 1. Undefined df where
 * the sum is 0: no spread, no t to read it with (the caller says what then).
 */
export function sumOfComponents(parts: readonly VarianceComponent[]): { variance: number; df: number | undefined } {
  const variance = parts.reduce((a, p) => a + p.variance, 0);
  const denominator = parts.reduce((a, p) => a + p.variance ** 2 / p.df, 0);
  return { variance, df: variance > 0 && denominator > 0 ? Math.max(1, Math.floor(variance ** 2 / denominator)) : undefined };
}

/**
 * The pooled sample variance of groups that share one spread (each group
 * about its own mean), with its degrees of freedom: the sum of groups'
 * squares over the sum of their (size − 1). Groups of one value add nothing;
 * undefined where no group has two.
 */
export function pooledVariance(groups: readonly (readonly number[])[]): VarianceComponent | undefined {
  let squares = 0;
  let df = 0;
  for (const g of groups) {
    if (g.length < 2) continue;
    squares += sumOfSquares(g);
    df += g.length - 1;
  }
  return df > 0 ? { variance: squares / df, df } : undefined;
}
