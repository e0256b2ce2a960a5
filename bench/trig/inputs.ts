/**
 * Arguments for the trig cases: seeded, varied, and stored in Float64Arrays
 * the timed loops read, so no engine can fold a call into a constant.
 */

import { seededRandom } from '@rtbench/core';

/** Calls per iteration. The table's time per iteration in µs is the time per call in ns. */
export const BATCH = 1000;


/** BATCH values drawn uniformly from [lo, hi). */
export function uniform(seed: number, lo: number, hi: number, n = BATCH): Float64Array {
  const rnd = seededRandom(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = lo + (hi - lo) * rnd();
  return out;
}

/**
 * Argument ranges for sin/cos/tan. 'pi' stays in [-π, π) (angles, rotations);
 * '1e5' reaches |x| < 1e5 (phases such as t·ω), where argument reduction is a
 * larger share of the work.
 */
export const RANGES = { pi: Math.PI, '1e5': 1e5 } as const;
export type RangeName = keyof typeof RANGES;

/**
 * Libm implementations (fdlibm, LLVM libc, glibc, the OS libm under JSC) may
 * differ in the last bit of a result. A sum of BATCH results rounded to 1e-6
 * absorbs that (every input range keeps |sum| far below 2^53 / 1e6), so the
 * digest shows the same work, not the same last bits.
 */
export function settle(sum: number): number {
  return Math.round(sum * 1e6);
}
