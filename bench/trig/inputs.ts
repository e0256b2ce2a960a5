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

/**
 * The argument-magnitude sweep: decade "1eK" draws |x| from [10^K, 10^(K+1))
 * with a random sign, K = 0…9, so the top decade reaches 1e10. Argument
 * reduction (x mod π/2) is where implementations part ways as |x| grows.
 */
export const DECADES = ['1e0', '1e1', '1e2', '1e3', '1e4', '1e5', '1e6', '1e7', '1e8', '1e9'] as const;
export type Decade = (typeof DECADES)[number];

/** BATCH arguments whose magnitudes lie in one decade (see DECADES). */
export function decade(seed: number, name: Decade, n = BATCH): Float64Array {
  const lo = Number(name);
  const rnd = seededRandom(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // Log-uniform within the decade, so its low end is as present as its high end.
    const magnitude = lo * 10 ** rnd();
    out[i] = rnd() < 0.5 ? -magnitude : magnitude;
  }
  return out;
}

/**
 * Where the loop form starts: 1,000 consecutive i from here. The original loop
 * runs i from 0 to 1e8, so 90% of its calls have i ≥ 1e7 (arguments π·i of
 * 3e7–3e8); its cost per call is the cost at the last two starts.
 */
export const LOOP_STARTS = [0, 100_000, 1_000_000, 10_000_000, 99_999_000] as const;

/**
 * sin(π·i)·cos(π·i) = sin(2π·i)/2 is not 0 in floating point: π·i carries i
 * times the rounding error of Math.PI (≈1.22e-16), so each term is about
 * −1.22e-16·i. A plain settle() would round such sums to 0; dividing by
 * that expected size first keeps the digest sensitive to every term, and
 * libms that reduce the argument correctly agree far inside the 1e-6 step.
 */
export function settleLoop(sum: number, from: number, n = BATCH): number {
  const expected = 1.2246467991473532e-16 * (n * from + (n * (n - 1)) / 2);
  return expected === 0 ? settle(sum) : settle(sum / expected);
}

