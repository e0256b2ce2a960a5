/**
 * How a run was measured, as its measurer said it (saved with the run as
 * `options.measuredBy`, its describe()). A run saved without it (older than
 * the text; the CLI fills it in from the measurer when it loads a file) is
 * described from what it saved, in words that hold for every measurer.
 */
import type { MeasuredBy, RunRecord } from '@rtbench/core/schema';
import { formatDuration } from '../format.ts';

const ms = (x: number): string => formatDuration(x * 1e6);

export function measuredBy(options: RunRecord['options']): MeasuredBy {
  if (options.measuredBy) return options.measuredBy;
  const warmup = options.warmupMinMs !== undefined ? `${ms(options.warmupMinMs)}–${ms(options.warmupMs)} of warmup` : `${ms(options.warmupMs)} of warmup`;
  return {
    rounds: `each round measures every arm on every case: ${ms(options.timeMs / options.rounds)} of sampling per arm after ${warmup}; pairs are (round, case)`,
    paired: 'paired: per round, the log ratio ln(candidate/baseline); the ratio is the mean over independent process pairs, with a Student t interval on them',
    unpaired: "unpaired: difference of the runs' mean log values over their processes, Welch t interval",
  };
}
