/**
 * The verdict options every command that makes a view of runs takes
 * (--threshold, --fail-on-regression): the threshold and confidence of the
 * verdicts, from the flag or from what the runs were measured for: a saved
 * run carries its verdict's parameters, and an older one is judged by its
 * measurer's record, so showing a saved run loads nothing that measures.
 */
import type { RunRecord, VerdictBasis, VerdictParameters } from '@rtbench/core/schema';
import { MAX_CPU_LIMIT_MS, parseCpuTime } from '@rtbench/core/cpu-time';
import { MEASURER_RECORDS, type ShownWith } from '@rtbench/measurer-records';
import { builtInEngine } from '@rtbench/runtime-registry/names';
import { parsePercent } from './args/options.ts';
import { UsageError } from './errors.ts';

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
  const own = MEASURER_RECORDS.verdictOfRuns(runs, builtInEngine);
  return { threshold: thresholdFlag(flags) ?? own.threshold, confidence: own.confidence };
}

/**
 * The view options of one run that are not its verdicts': --cpu-limit, else
 * the limit a run saved with one brings (its measurer says), else none.
 */
export function shownOptions(flags: VerdictFlags, run?: Pick<RunRecord, 'options'>): ShownWith {
  if (flags.cpuLimit !== undefined) return { cpuLimitMs: parseCpuLimit(flags.cpuLimit) };
  return run ? MEASURER_RECORDS.shownWith(run.options) : {};
}

/** --cpu-limit in ms: a positive CPU time with its unit, at most a day; anything else refused in one line. */
function parseCpuLimit(text: string): number {
  const ms = parseCpuTime(text);
  if (ms === undefined) throw new UsageError(`--cpu-limit ${text}: write a CPU time with its unit (µs, ms or s), e.g. 10ms`);
  if (!(ms > 0)) throw new UsageError(`--cpu-limit ${text}: must be more than 0`);
  // A limit no request could reach is a typo (1e23s), and would print as a number no one reads.
  if (ms > MAX_CPU_LIMIT_MS) throw new UsageError(`--cpu-limit ${text}: at most a day (86400s)`);
  return ms;
}

export function failLimit(flags: VerdictFlags): number | undefined {
  return flags.failOnRegression !== undefined ? parsePercent(flags.failOnRegression, '--fail-on-regression') : undefined;
}

