/**
 * A table compares many cells at once; at 95% one in twenty would come out
 * "faster" or "slower" by chance alone. Cells are selected by the
 * Benjamini–Hochberg step-up procedure, and every interval the table prints
 * is read at the false-coverage-rate adjusted level 1 − R·α/m (Benjamini &
 * Yekutieli 2005, JASA 100:71), R of m cells selected. Because each cell's
 * p-value and interval come from the same t, a cell is selected exactly when
 * its adjusted interval excludes 1: the word and the interval agree.
 */
import { anytimeEValue, readAnytimeAt } from './confidence-sequence.ts';
import { readAt, type Comparison } from './verdict.ts';

/**
 * Benjamini-Hochberg adjusted p-values (Benjamini & Hochberg 1995, JRSS B 57:289;
 * the "adjusted p-value" form of R's p.adjust(method = "BH")):
 * with p sorted ascending, q_(i) = min_{j >= i} min(1, m/j * p_(j)).
 * Returned in the input order; rejecting q <= alpha is the BH step-up test.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const step = bhStep(pValues);
  return pValues.map((p) => step.qValue(p));
}

/**
 * The BH step over p-values given as numbers or a typed array (a history's
 * hundreds of thousands of neighbour comparisons are kept as a
 * Float64Array): the q-value of any p among them, and how many are selected
 * at `alpha`. A q-value depends only on its p-value (equal p-values share
 * one), so it is the running minimum at the last rank of that value. The
 * order they come in does not matter; already ascending, they are not sorted,
 * and a Float64Array of them is read in place (not to be changed after).
 */
function bhStep(pValues: ArrayLike<number>): { m: number; qValue(p: number): number; selected(alpha: number): number } {
  const m = pValues.length;
  let ascending = true;
  for (let i = 0; i < m; i++) {
    const p = pValues[i] as number;
    if (!(p >= 0 && p <= 1)) throw new RangeError(`benjaminiHochberg: p-values must be in [0, 1], got ${p}`);
    if (i > 0 && p < (pValues[i - 1] as number)) ascending = false;
  }
  // A typed array sorts numerically, without a comparator called per pair; p-values kept in order (a history's walk
  // resumed from its checkpoint) are not sorted again.
  const sorted = ascending ? (pValues instanceof Float64Array ? pValues : new Float64Array(pValues)) : new Float64Array(pValues).sort();
  const q = new Float64Array(m);
  let running = 1;
  for (let r = m - 1; r >= 0; r--) {
    running = Math.min(running, ((sorted[r] as number) * m) / (r + 1));
    q[r] = running;
  }
  /** The last rank whose p-value is `p` (p is one of them). */
  const lastRank = (p: number): number => {
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as number) <= p) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  };
  return {
    m,
    qValue: (p) => q[lastRank(p)] as number,
    // q is non-decreasing in rank: the selected are a prefix of the sorted p-values.
    selected: (alpha) => {
      let n = 0;
      while (n < m && (q[n] as number) <= alpha) n++;
      return n;
    },
  };
}

export interface FdrOptions {
  /** FDR level; default 0.05 */
  alpha?: number;
  /** applyEbh: the confidence sequences' prior precision (default ANYTIME_PRIOR_PRECISION). */
  priorPrecision?: number | undefined;
}

/** The level every interval of a table of m cells is read at when R are selected (none selected: the first BH step's). */
function adjustedConfidence(selected: number, m: number, alpha: number): number {
  return 1 - (Math.max(1, selected) * alpha) / Math.max(1, m);
}

/**
 * The table's cells read at the adjusted level: BH q-values added, every
 * interval and verdict recomputed at 1 − R·α/m. Returns new objects in the input order.
 */
export function applyFdr(comparisons: readonly Comparison[], opts: FdrOptions = {}): (Comparison & { qValue: number })[] {
  const step = fdrStep(comparisons.map((c) => c.pValue), opts);
  return comparisons.map((c) => step.readAt(c));
}

/** What applyFdr reads each cell at: the level of the whole table, and a cell's q-value from its p-value. */
export interface FdrStep {
  /** 1 − R·α/m. */
  level: number;
  /** A cell of the table read at the level, with its q-value (applyFdr's cell). */
  readAt(c: Comparison): Comparison & { qValue: number };
}

/**
 * applyFdr's step over a table's p-values alone, so that a table too large
 * to hold as comparisons (a history's every neighbour comparison) reads only
 * the cells it shows: the same level and q-values, cell for cell.
 */
export function fdrStep(pValues: ArrayLike<number>, opts: FdrOptions = {}): FdrStep {
  const alpha = opts.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`applyFdr: alpha must be in (0, 1), got ${alpha}`);
  const bh = bhStep(pValues);
  const level = adjustedConfidence(bh.selected(alpha), bh.m, alpha);
  return {
    level,
    readAt: (c) => {
      const { ci: _ci, verdict: _v, confidence: _c, unitsToDecide: _u, ...rest } = c;
      return { ...readAt(rest, level), qValue: bh.qValue(c.pValue) };
    },
  };
}

/**
 * The e-BH procedure (Wang & Ramdas 2022, JRSS B 84:822): with e-values
 * sorted descending, the k largest are selected for the largest k with
 * e_(k) ≥ m/(k·α). It controls the false-discovery rate at α under any
 * dependence between the cells, and an e-process stopped when its cell
 * stops is still an e-value, so it holds under the stopping rule. Returns R,
 * the number selected.
 */
export function eBenjaminiHochberg(eValues: readonly number[], alpha: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`eBenjaminiHochberg: alpha must be in (0, 1), got ${alpha}`);
  for (const e of eValues) {
    if (!(e >= 0)) throw new RangeError(`eBenjaminiHochberg: e-values must be >= 0, got ${e}`);
  }
  const m = eValues.length;
  const sorted = [...eValues].sort((a, b) => b - a);
  for (let k = m; k >= 1; k--) if ((sorted[k - 1] as number) >= m / (k * alpha)) return k;
  return 0;
}

/**
 * The table's cells read on their confidence sequences at the e-BH level:
 * R of m cells selected, every interval and word at 1 − R·α/m (none
 * selected: 1 − α/m). The sequence at error δ is {μ: M(μ) < 1/δ}, so a cell
 * is selected exactly when its interval excludes 1 — the word and the
 * interval agree, as with applyFdr. `qValue` is the cell's e-BH q-value,
 * min(1, m/(rank·e)) made monotone, so q ≤ α is selection here too.
 */
export function applyEbh(comparisons: readonly Comparison[], opts: FdrOptions = {}): (Comparison & { qValue: number; eValue: number })[] {
  const alpha = opts.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`applyEbh: alpha must be in (0, 1), got ${alpha}`);
  const eValues = comparisons.map((c) => anytimeEValue(c.inference, opts.priorPrecision));
  const selected = eBenjaminiHochberg(eValues, alpha);
  const level = adjustedConfidence(selected, comparisons.length, alpha);
  // e-BH as p-values 1/e through BH's step-up: the same cells selected at every α.
  const q = benjaminiHochberg(eValues.map((e) => Math.min(1, 1 / e)));
  return comparisons.map((c, i) => {
    const { ci: _ci, verdict: _v, confidence: _c, unitsToDecide: _u, ...rest } = c;
    return { ...readAnytimeAt(rest, level, opts.priorPrecision), qValue: q[i] as number };
  });
}
