/**
 * How a bisect step is judged, after Pinpoint's two thresholds (catapult's
 * dashboard/pinpoint compare: a low p-value threshold for "different", a
 * magnitude-dependent high one for "same", and "measure more" between), on
 * rtbench's intervals instead of p-values:
 *
 *   different   the interval at `confidence` (0.99) excludes 1 and the
 *               estimate is beyond `threshold` (stats' classify);
 *   same        the interval at `sameConfidence` (0.90, a two one-sided test
 *               at 5%) lies within ±sameBand: the comparison returned is
 *               that one, its interval and band, so the word and the
 *               interval printed beside it agree;
 *   unknown     otherwise: the step is measured again with more rounds.
 *
 * `sameBand` is the threshold at the ends, and for the halves of a split a
 * third of the change being split when that is larger (a 30% change's other
 * half need only be shown within ±10%, as Pinpoint's high threshold grows
 * with the magnitude): a second change smaller than that inside a half that
 * reads "same" is not followed (docs/bisect.md).
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
