/**
 * The verdict options every command that makes a view of runs takes
 * (--threshold, --fail-on-regression): the threshold and confidence of the
 * verdicts, from the flag or from what the runs were measured for: a saved
 * run carries its verdict's parameters, and an older one is judged by its
 * measurer's defaults (measurer-records' verdict-defaults.ts), so showing a
 * saved run loads nothing that measures, nor any measurer's schema.
 */
import type { VerdictBasis, VerdictParameters } from '@rtbench/core/schema';
import { verdictOfRuns } from '@rtbench/measurer-records/verdict-defaults';
import { builtInEngine } from '@rtbench/runtime-registry/names';
import { parsePercent } from './args/options.ts';

export interface VerdictFlags {
  threshold?: string | number;
  failOnRegression?: string | number;
  cpuLimit?: string;
}

/** --threshold, checked (before any file is read); undefined when not given. */
export function thresholdFlag(flags: VerdictFlags): number | undefined {
  return flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : undefined;
}

/**
 * The verdicts' threshold and confidence: --threshold, else those the runs were measured for (runs of different
 * measurers: the default's). An older run's comes from its measurer's record, for the engines of the runtimes
 * rtbench ships (an engine of a plug-in of the user's is not known when a run is read: the default's).
 */
export function ratioOptions(flags: VerdictFlags, runs: readonly VerdictBasis[] = []): VerdictParameters {
  const own = verdictOfRuns(runs, builtInEngine);
  return { threshold: thresholdFlag(flags) ?? own.threshold, confidence: own.confidence };
}

export function failLimit(flags: VerdictFlags): number | undefined {
  return flags.failOnRegression !== undefined ? parsePercent(flags.failOnRegression, '--fail-on-regression') : undefined;
}

