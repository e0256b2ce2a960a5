/**
 * The bootstrap distribution of a median, exactly: what an unbounded number
 * of resamples would give, with no random draws (the exact bootstrap of the
 * median: Maritz & Jarrett 1978; Efron 1982 §10.5).
 *
 * Of R values drawn with replacement from R, the number at or below the
 * value of rank x (0-based, sorted) is Binomial(R, (x + 1)/R). The median of
 * a resample of odd R is its (k+1)-th smallest draw, k = (R − 1)/2: it is at
 * or below rank x exactly when that count is at least k + 1. With even R it
 * is midway between the (k+1)-th and (k+2)-th smallest, whose joint chances
 * follow from the multinomial counts below, between and above two ranks. The
 * percentile interval is read off this distribution, as off the sorted
 * replicates of a random bootstrap with ever more resamples.
 */

/** A pair of middle draws more than this many ranks apart has a chance below e^-GAP (no draw in between): left out. */
const GAP = 64;
/** Cumulated chances within this of a level reach it (sums of many small terms round). */
const LEVEL_TOLERANCE = 1e-12;

function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) out[i] = out[i - 1]! + Math.log(i);
  return out;
}

/** P(at least m of R draws fall at or below rank x), for each rank x. */
function atOrBelow(R: number, m: number, logFact: Float64Array): Float64Array {
  const out = new Float64Array(R);
  for (let x = 0; x < R - 1; x++) {
    const p = (x + 1) / R;
    const [lp, lq] = [Math.log(p), Math.log1p(-p)];
    let sum = 0;
    for (let i = m; i <= R; i++) sum += Math.exp(logFact[R]! - logFact[i]! - logFact[R - i]! + i * lp + (R - i) * lq);
    out[x] = Math.min(1, sum);
  }
  out[R - 1] = 1;
  return out;
}

/** Each possible median of a resample of the sorted values, with its chance (values may repeat). */
function medianChances(sorted: Float64Array): { values: number[]; chances: number[] } {
  const R = sorted.length;
  const k = (R - 1) >> 1;
  const m = k + 1;
  const logFact = logFactorials(R);
  const below = atOrBelow(R, m, logFact);
  // The chance that the lower middle draw is rank x.
  const lowerAt = (x: number): number => Math.max(0, below[x]! - (x > 0 ? below[x - 1]! : 0));
  if (R % 2 === 1) return { values: Array.from(sorted), chances: Array.from(sorted, (_, x) => lowerAt(x)) };

  // P(exactly m draws at or below rank x and none in (x, y]), x <= y; 0 when x < 0 or y is the top rank.
  const logChoose = logFact[R]! - logFact[m]! - logFact[R - m]!;
  const both = (x: number, y: number): number => (x < 0 || y >= R - 1 ? 0 : Math.exp(logChoose + m * Math.log((x + 1) / R) + (R - m) * Math.log((R - 1 - y) / R)));
  const values: number[] = [];
  const chances: number[] = [];
  for (let a = 0; a < R; a++) {
    let apart = 0;
    for (let b = a + 1; b < Math.min(R, a + GAP); b++) {
      // Lower middle at rank a, upper at rank b: no draw strictly between, inclusion–exclusion on the ranks just below a and at b.
      const chance = Math.max(0, both(a, b - 1) - both(a - 1, b - 1) - both(a, b) + both(a - 1, b));
      apart += chance;
      values.push(sorted[a]! + (sorted[b]! - sorted[a]!) / 2);
      chances.push(chance);
    }
    values.push(sorted[a]!);
    chances.push(Math.max(0, lowerAt(a) - apart));
  }
  return { values, chances };
}

/**
 * The percentile interval (Efron & Tibshirani 1993, §13.3) at `confidence`
 * of the median of `values` resampled with replacement: the smallest medians
 * whose cumulated chance reaches (1 − confidence)/2 and (1 + confidence)/2.
 */
export function medianBootstrapInterval(values: readonly number[], confidence: number): [number, number] {
  if (!values.length) throw new RangeError('medianBootstrapInterval: no values');
  const { values: medians, chances } = medianChances(Float64Array.from(values).sort());
  const order = Array.from(medians, (_, i) => i).sort((i, j) => medians[i]! - medians[j]!);
  const a = (1 - confidence) / 2;
  const at = (level: number): number => {
    let cumulated = 0;
    for (const i of order) {
      cumulated += chances[i]!;
      if (cumulated >= level - LEVEL_TOLERANCE) return medians[i]!;
    }
    return medians[order[order.length - 1]!]!;
  };
  return [at(a), at(1 - a)];
}
