/**
 * How a bisect step is judged, after Pinpoint's two thresholds but on
 * rtbench's intervals instead of p-values: "different" when the interval at
 * `confidence` excludes 1 and the estimate is beyond the threshold (stats'
 * classify), "same" when the interval at `sameConfidence` lies within
 * ±max(threshold, sameBand), "unknown" (measure more) otherwise. The rule and
 * why the band widens for the halves of a split: docs/bisect.md, "The
 * decision rule".
 */
import { comparePaired } from '@rtbench/stats';
import type { Decide, PairedTest } from './types.ts';

export function pairedDecide(test: PairedTest, o: { threshold: number; confidence: number; sameConfidence: number }): Decide {
  return (d, sameBand) => {
    const baseline = d.map(() => 1);
    const candidate = d.map((x) => Math.exp(x));
    const strict = test(baseline, candidate, { threshold: o.threshold, confidence: o.confidence });
    if (strict.verdict === 'faster' || strict.verdict === 'slower') return strict;
    const band = Math.max(o.threshold, sameBand);
    const same = test(baseline, candidate, { threshold: band, confidence: o.sameConfidence });
    // Same within the band (a two one-sided test), whether or not the interval also excludes 1.
    const within = same.ci[0] >= 1 / (1 + band) && same.ci[1] <= 1 + band;
    return within ? { ...same, verdict: 'equivalent' } : strict;
  };
}

/** The default: t intervals on the per-unit log ratios (stats' comparePaired). */
export const unitTest: PairedTest = (b, c, opts) => comparePaired(b, c, opts);
