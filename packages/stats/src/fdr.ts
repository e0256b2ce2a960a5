/**
 * Multiple comparisons: a suite compares many cases at once, and at 95% one
 * case in twenty would come out "faster" or "slower" by chance alone. The
 * Benjamini-Hochberg procedure controls the false discovery rate instead.
 */
import { classify, roundsForPValue, type Comparison } from './verdict.ts';

/**
 * Benjamini-Hochberg adjusted p-values (Benjamini & Hochberg 1995, JRSS B 57:289;
 * the "adjusted p-value" form of Wright 1992 / R's p.adjust(method = "BH")):
 * with p sorted ascending, q_(i) = min_{j >= i} min(1, m/j * p_(j)).
 * Returned in the input order; monotone in p; rejecting q <= alpha is the BH
 * step-up test at FDR level alpha (valid under independence or positive
 * dependence, Benjamini & Yekutieli 2001).
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const p of pValues) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`benjaminiHochberg: p-values must be in [0, 1], got ${p}`);
  }
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => (pValues[a] as number) - (pValues[b] as number));
  const q = new Array<number>(m);
  let running = 1;
  for (let r = m - 1; r >= 0; r--) {
    const i = order[r] as number;
    running = Math.min(running, ((pValues[i] as number) * m) / (r + 1));
    q[i] = running;
  }
  return q;
}

export interface FdrOptions {
  /** FDR level; default 0.05 (Comparison does not record its confidence, so say it here if it was not 0.95) */
  alpha?: number;
}

/**
 * Adds BH q-values to a set of comparisons and demotes any 'faster'/'slower'
 * whose q >= alpha: to 'equivalent' if its CI lies inside the threshold band,
 * else 'inconclusive' (with roundsToDecide re-estimated as the rounds needed
 * for its p-value to reach its BH cut-off alpha*rank/m, z ~ sqrt(n)).
 * 'equivalent' and 'inconclusive' are left as they are: the correction guards
 * claims of a change, not the absence of one. Returns new objects.
 */
export function applyFdr(comparisons: readonly Comparison[], opts: FdrOptions = {}): (Comparison & { qValue: number })[] {
  const alpha = opts.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`applyFdr: alpha must be in (0, 1), got ${alpha}`);
  const p = comparisons.map((c) => c.pValue);
  const q = benjaminiHochberg(p);
  const m = comparisons.length;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => (p[a] as number) - (p[b] as number));
  const rank = new Array<number>(m);
  order.forEach((i, r) => (rank[i] = r + 1));

  return comparisons.map((c, i) => {
    const qValue = q[i] as number;
    const out: Comparison & { qValue: number } = { ...c, ci: [c.ci[0], c.ci[1]], qValue };
    if ((c.verdict === 'faster' || c.verdict === 'slower') && qValue >= alpha) {
      const logCi: [number, number] = [Math.log(c.ci[0]), Math.log(c.ci[1])];
      const inBand = classify(0, logCi, c.threshold) === 'equivalent';
      out.verdict = inBand ? 'equivalent' : 'inconclusive';
      delete out.roundsToDecide;
      if (!inBand) {
        const current = c.nBaseline !== undefined && c.nCandidate !== undefined
          ? (2 * c.nBaseline * c.nCandidate) / (c.nBaseline + c.nCandidate)
          : c.n;
        const r = roundsForPValue(c.pValue, (alpha * (rank[i] as number)) / m, current);
        if (r !== undefined) out.roundsToDecide = r;
      }
    }
    return out;
  });
}
