/**
 * The verdict options every command that makes a view of runs takes
 * (--threshold, --fail-on-regression): the threshold and confidence of the
 * verdicts, from the flag or from what the runs were measured for.
 */
import type { RunRecord, VerdictBasis } from '@rtbench/core/schema';
import { MAX_CPU_LIMIT_MS, parseCpuTime } from '@rtbench/core/cpu-time';
import type { ShownWith } from '@rtbench/measurer-records';
import { MEASURERS } from '@rtbench/measurers';
import { UsageError } from './errors.ts';
import { DEFAULT_MEASURER, parsePercent } from './plan.ts';

export interface VerdictFlags {
  threshold?: string | number;
  failOnRegression?: string | number;
  cpuLimit?: string;
}

/** The verdicts' threshold and confidence: --threshold, else those the runs were measured for (runs of different measurers: the default's). */
export function ratioOptions(flags: VerdictFlags, runs: readonly VerdictBasis[] = []): { threshold: number; confidence: number } {
  const timing = DEFAULT_MEASURER.defaults;
  const own = MEASURERS.verdictOfRuns(runs, { threshold: timing.threshold([]), confidence: timing.confidence });
  return { threshold: flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : own.threshold, confidence: own.confidence };
}

/**
 * The view options of one run that are not its verdicts': --cpu-limit, else
 * the limit a run saved with one brings (its measurer says), else none.
 */
export function shownOptions(flags: VerdictFlags, run?: Pick<RunRecord, 'options'>): ShownWith {
  if (flags.cpuLimit !== undefined) return { cpuLimitMs: parseCpuLimit(flags.cpuLimit) };
  return run ? MEASURERS.records.shownWith(run.options) : {};
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

