/**
 * The verdict options every command that makes a view of runs takes
 * (--threshold, --fail-on-regression): the threshold and confidence of the
 * verdicts, from the flag or from what the runs were measured for.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { MEASURERS } from '@rtbench/run';
import { DEFAULT_MEASURER, parsePercent } from './plan.ts';

export interface VerdictFlags {
  threshold?: string | number;
  failOnRegression?: string | number;
}

/** The verdicts' threshold and confidence: --threshold, else those the runs were measured for (runs of different measurers: the default's). */
export function ratioOptions(flags: VerdictFlags, runs: readonly Pick<RunRecord, 'options' | 'variants'>[] = []): { threshold: number; confidence: number } {
  const timing = DEFAULT_MEASURER.defaults;
  const own = MEASURERS.verdictOfRuns(runs, { threshold: timing.threshold([]), confidence: timing.confidence });
  return { threshold: flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : own.threshold, confidence: own.confidence };
}

export function failLimit(flags: VerdictFlags): number | undefined {
  return flags.failOnRegression !== undefined ? parsePercent(flags.failOnRegression, '--fail-on-regression') : undefined;
}

