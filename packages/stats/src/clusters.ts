/**
 * Sets that share processes. With several lockstep sets per warm process
 * (--sets-per-process k > 1) the per-set log ratios of one process pair share
 * that pair's state for the process's life (a JIT decision, a heap layout,
 * one process reading slow throughout: docs/two-speed-noise.md), so they are
 * not independent, and an interval that treats them as independent is too
 * narrow.
 *
 * The correction is Kish's design effect: the variance of a mean over
 * clusters is 1 + (m − 1)·ρ times what independent values would give, with
 * m the (size-weighted) cluster size and ρ the intraclass correlation,
 * estimated by one-way analysis of variance (Searle, Casella & McCulloch
 * 1992, §3.6) and held to [0, 1]. A signed-rank interval is widened by its
 * square root about the estimate, and its p-value recomputed at the reduced
 * z. ρ estimated from few clusters runs low, so the widening removes about
 * half of the excess, not all of it (a seeded simulation of 5 process pairs ×
 * 4 sets with ρ = 0.5: 21.9% of A/A intervals exclude 1 without it, 10.3%
 * with it: packages/stats/test/clusters.test.ts); on 63 real A/A comparisons with four sets
 * per process, 13 raw exclusions became 8 and 3 false verdicts after FDR
 * none (docs/comparing.md).
 */
import { normalQuantile, normalTwoSidedP } from './normal.ts';
import type { ShiftResult } from './rank-tests.ts';

/**
 * The design effect of values grouped in clusters (same length; a cluster is
 * any label). 1 when there is nothing to estimate it from: a single
 * cluster, or every value in a cluster of its own.
 */
export function designEffect(values: readonly number[], clusters: readonly (string | number)[]): number {
  if (values.length !== clusters.length) throw new RangeError(`designEffect: ${values.length} values but ${clusters.length} cluster labels`);
  const groups = new Map<string | number, number[]>();
  values.forEach((v, i) => {
    const key = clusters[i]!;
    const group = groups.get(key);
    if (group) group.push(v);
    else groups.set(key, [v]);
  });
  const n = values.length;
  const g = groups.size;
  if (g < 2 || n - g < 1) return 1;
  const grand = values.reduce((a, b) => a + b, 0) / n;
  let between = 0;
  let within = 0;
  let squares = 0;
  for (const group of groups.values()) {
    const mean = group.reduce((a, b) => a + b, 0) / group.length;
    between += group.length * (mean - grand) ** 2;
    for (const v of group) within += (v - mean) ** 2;
    squares += group.length ** 2;
  }
  const msb = between / (g - 1);
  const msw = within / (n - g);
  const n0 = (n - squares / n) / (g - 1);
  const denominator = msb + (n0 - 1) * msw;
  const rho = denominator > 0 ? Math.min(1, Math.max(0, (msb - msw) / denominator)) : 0;
  return 1 + (squares / n - 1) * rho;
}

/** A shift result's interval widened by √deff about its estimate, and its p-value at z/√deff (deff ≤ 1: unchanged). */
export function widened(result: ShiftResult, deff: number): ShiftResult {
  if (!(deff > 1)) return result;
  const s = Math.sqrt(deff);
  const { estimate, ci } = result;
  const z = result.pValue < 1 ? normalQuantile(1 - result.pValue / 2) : 0;
  return { ...result, ci: [estimate - (estimate - ci[0]) * s, estimate + (ci[1] - estimate) * s], pValue: Math.min(1, normalTwoSidedP(z / s)) };
}
