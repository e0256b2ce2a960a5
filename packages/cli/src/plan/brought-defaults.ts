/**
 * What a brought file's format implies for its run when the command line
 * leaves it out: the measurer that gives its cases the isolation the format
 * needs (the format says which isolation, the run's registry which measurer
 * gives it), and a Node core file's comparison budget. The format is the
 * suite loader's to detect.
 */
import { broughtFormatOfEntry, broughtIsolationOfEntry } from '@rtbench/suite-loader';
import { MEASURERS, type MeasurerDescriptor } from '@rtbench/measurers';
import { parsePositiveInt } from '../args/options.ts';

/** The measurer a brought file implies, and the note that says why. */
export interface ImpliedSchedule {
  measurer: MeasurerDescriptor;
  /** What runs so, for messages: "a Node core file". */
  what: string;
  note: string;
}

/**
 * The measurer a brought file runs under when --schedule is not given: the
 * first schedule that gives the isolation its format needs (a Node core
 * file's configurations and a Deno.bench file's benchmarks: processes of
 * their own per case).
 */
export function broughtSchedule(entry: string): ImpliedSchedule | undefined {
  const need = broughtIsolationOfEntry(entry);
  const measurer = need ? MEASURERS.withIsolation(need.needs) : undefined;
  if (!need || !measurer) return undefined;
  return { measurer, what: need.what, note: `${need.what}: ${need.why} (--schedule ${measurer.name})` };
}

/**
 * A Node core file's comparison budget, per configuration: 12 sets, each
 * 40 ms of ~1 ms samples per binary after an adaptive warmup from 50 ms,
 * smaller than a comparison's defaults. compare.js times each configuration
 * in short processes; with the defaults rtbench's cost per set (start-ups,
 * warmup, turns) dominated a file whose `n` is short. Why these numbers, and
 * what they decide: docs/measurements/brought-files.md, "A budget for Node core files".
 */
export const NODE_CORE_COMPARE_BUDGET = { rounds: 12, sampleMsPerSet: 40, warmup: '50ms' } as const;

/** What a comparison's budget flags are once a brought file's own budget fills those not given. */
export interface BudgetFlags {
  rounds?: string | number;
  time?: string;
  warmup?: string;
}

/**
 * The budget a brought file's comparison runs with: for a Node core file,
 * NODE_CORE_COMPARE_BUDGET where the command line leaves --rounds, --time
 * or --warmup out (--time follows --rounds: 40 ms per set), with a note
 * that says so; every other file and suite keeps the flags as they are.
 */
export function broughtCompareBudget<F extends BudgetFlags>(entry: string, flags: F): { flags: F; note?: string } {
  if (broughtFormatOfEntry(entry) !== 'node-core') return { flags };
  if (flags.rounds !== undefined && flags.time !== undefined && flags.warmup !== undefined) return { flags };
  const rounds = flags.rounds ?? NODE_CORE_COMPARE_BUDGET.rounds;
  const filled = {
    ...flags,
    rounds,
    time: flags.time ?? `${NODE_CORE_COMPARE_BUDGET.sampleMsPerSet * parsePositiveInt(rounds, '--rounds')}ms`,
    warmup: flags.warmup ?? NODE_CORE_COMPARE_BUDGET.warmup,
  };
  return {
    flags: filled,
    note: `a Node core file's comparison: ${filled.rounds} sets per configuration, each ${NODE_CORE_COMPARE_BUDGET.sampleMsPerSet} ms of samples per binary after a warmup from ${filled.warmup} (--rounds ${filled.rounds} --time ${filled.time} --warmup ${filled.warmup}; more rounds narrow the intervals)`,
  };
}
