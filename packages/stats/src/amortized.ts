/**
 * The amortized cost per operation, from samples that span a case's
 * collections (core's amortize.ts grows them in the runtime). A process whose
 * samples reached their cap with their mean still above their median holds
 * samples with and without a collection: its median would leave the
 * collector's share out, so it is read by the mean of its samples. An arm is
 * read that way when half or more of its spanned rounds were capped; its
 * figure and its paired ratio then both read means (pairing.ts), so they
 * describe one quantity.
 */
import { median } from './quantile.ts';
import { meanOf } from './variance-components.ts';

/** What a round says of its samples' span (core protocol-schema.ts sampleSpan); absent in runs saved before spans. */
export interface SpannedRound {
  samples: readonly number[];
  span?: { quietCallNs: number; grownBy: number; capped?: true | undefined } | undefined;
}

/** How a process's samples become its figure: their median, or their mean (samples capped short of the case's collections). */
export type ProcessStatistic = 'median' | 'mean';

/** Whether an arm is read by its processes' means: half or more of its spanned rounds hit the cap. */
export function readByMean(rounds: readonly SpannedRound[]): boolean {
  let spanned = 0;
  let capped = 0;
  for (const r of rounds) {
    if (!r.span) continue;
    spanned++;
    if (r.span.capped) capped++;
  }
  return spanned > 0 && 2 * capped >= spanned;
}

/** The arm's process statistic (readByMean). */
export function processStatisticOf(rounds: readonly SpannedRound[]): ProcessStatistic {
  return readByMean(rounds) ? 'mean' : 'median';
}

/** A process's figure under a statistic. */
export function statisticOf(samples: readonly number[], statistic: ProcessStatistic): number {
  return statistic === 'mean' ? meanOf(samples) : median(samples);
}

/**
 * The collector's share of the per-operation cost: per spanned round,
 * 1 − (the cost between collections) / (the round's figure), at least 0;
 * their median. A round whose samples needed no growth counts 0: its first
 * window was even, so any periodic cost is within the span's tolerance, and
 * its short batches differ from its samples by the clock and the loop, not by
 * collections (a case of a few ns would read half its time as collection).
 * Undefined when no round was spanned (an older run).
 */
export function collectorShare(rounds: readonly SpannedRound[]): number | undefined {
  const statistic = processStatisticOf(rounds);
  const shares: number[] = [];
  for (const r of rounds) {
    if (!r.span || !r.samples.length) continue;
    if (r.span.grownBy <= 1 && !r.span.capped) {
      shares.push(0);
      continue;
    }
    const figure = statisticOf(r.samples, statistic);
    if (figure > 0) shares.push(Math.max(0, 1 - r.span.quietCallNs / figure));
  }
  return shares.length ? median(shares) : undefined;
}
