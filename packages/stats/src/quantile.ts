/**
 * Quantiles by linear interpolation between order statistics: Hyndman & Fan
 * (1996) definition 7, the default of R, NumPy and spreadsheets, so numbers in
 * reports match what a reader gets by recomputing from the raw samples.
 */

/** Type-7 quantile of an ascending array without checks (internal hot path). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const frac = h - lo;
  // At q = 1 there is no next value to interpolate towards.
  if (frac === 0) return a;
  return a + frac * ((sorted[lo + 1] as number) - a);
}

/**
 * Type-7 quantile of an ascending, non-empty array of finite numbers.
 * Throws on empty input, q outside [0, 1], NaN, or unsorted input (a wrong
 * answer from unsorted data would be silent, so it is checked).
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile: empty sample');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile: q must be in [0, 1], got ${q}`);
  // Stryker disable next-line EqualityOperator: past the end the value is undefined, which is neither NaN nor below its neighbour
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i] as number;
    if (Number.isNaN(v)) throw new RangeError('quantile: NaN in sample');
    // Stryker disable next-line ConditionalExpression,EqualityOperator: at i = 0, sorted[-1] is undefined and v < undefined is false
    if (i > 0 && v < (sorted[i - 1] as number)) throw new RangeError('quantile: input must be sorted ascending');
  }
  return quantileSorted(sorted, q);
}

/** Median of any (unsorted) sample; copies, does not modify the input. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new RangeError('median: empty sample');
  return medianInPlace(Float64Array.from(samples), samples.length);
}

/**
 * k-th smallest (0-based) of buf[0..len): Wirth's quickselect (Wirth,
 * "Algorithms + Data Structures = Programs", 1976) with a median-of-three
 * pivot. Reorders buf so that buf[0..k) <= buf[k] <= buf(k..len). Expected
 * O(len); used inside bootstrap loops where sorting every resample would
 * cost a log factor.
 */
export function selectInPlace(buf: Float64Array, len: number, k: number): number {
  let l = 0;
  let r = len - 1;
  // Stryker disable next-line EqualityOperator: at l = r the pass swaps buf[k] with itself and ends with l > r
  while (l < r) {
    // median of three of buf[l], buf[k], buf[r] as the pivot
    const a = buf[l] as number;
    const b = buf[k] as number;
    const c = buf[r] as number;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: any of the three is a valid pivot; the median of three only keeps the worst case away
    const x = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = l;
    let j = r;
    do {
      while ((buf[i] as number) < x) i++;
      while (x < (buf[j] as number)) j--;
      if (i <= j) {
        const tmp = buf[i] as number;
        buf[i] = buf[j] as number;
        buf[j] = tmp;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
  return buf[k] as number;
}

/**
 * Type-7 quantile of buf (non-empty) by selection rather than a sort,
 * reordering buf: the same order statistics, so the same value as
 * quantileSorted on buf sorted.
 */
export function quantileInPlace(buf: Float64Array, q: number): number {
  const h = (buf.length - 1) * q;
  const lo = Math.floor(h);
  const a = selectInPlace(buf, buf.length, lo);
  const frac = h - lo;
  if (frac === 0) return a;
  // After selection everything right of lo is >= buf[lo]; the next order statistic is their minimum.
  let next = Infinity;
  // Stryker disable next-line EqualityOperator: past the end undefined < next is false, and an equal value is the same minimum
  for (let i = lo + 1; i < buf.length; i++) if ((buf[i] as number) < next) next = buf[i] as number;
  return a + frac * (next - a);
}

/** Type-7 median of buf[0..len) (len >= 1), reordering buf. */
export function medianInPlace(buf: Float64Array, len: number): number {
  const k = (len - 1) >> 1;
  const lower = selectInPlace(buf, len, k);
  if (len % 2 === 1) return lower;
  // After selection everything right of k is >= buf[k]; the upper middle is their minimum.
  let upper = Infinity;
  // Stryker disable next-line EqualityOperator: every caller passes len = buf.length, and past the end undefined < upper is false
  for (let i = k + 1; i < len; i++) {
    const v = buf[i] as number;
    // Stryker disable next-line EqualityOperator: an equal value is the same minimum
    if (v < upper) upper = v;
  }
  return lower + (upper - lower) / 2;
}
