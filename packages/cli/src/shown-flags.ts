/**
 * The view options of one run that are not its verdicts' (--cpu-limit): from
 * the flag, or from what a run saved with one brings, as its measurer's
 * record says.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { MAX_CPU_LIMIT_MS, parseCpuTime } from '@rtbench/core/cpu-time';
import { MEASURER_RECORDS, type ShownWith } from '@rtbench/measurer-records';
import { UsageError } from './errors.ts';
import type { VerdictFlags } from './verdict-flags.ts';

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
