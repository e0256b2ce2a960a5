/**
 * What a brought file's format implies for its run when the command line
 * leaves it out: the schedule its cases run under, and a Node core file's
 * comparison budget. The format is the suite loader's to detect.
 */
import { broughtFormatOfEntry } from '@rtbench/suite-loader';
import { parsePositiveInt } from '../args/options.ts';

/** A schedule a brought file implies, and the note that says why. */
export interface ImpliedSchedule {
  schedule: 'lockstep-per-case';
  /** What runs so, for messages: "a Node core file". */
  what: string;
  note: string;
}

/**
 * The schedule a brought file runs under when --schedule is not given: a Node
 * core file's configurations and a Deno.bench file's benchmarks get
 * processes of their own (lockstep-per-case). In a warm process serving
 * them all, a configuration reads the type feedback the ones before it left
 * (Node's harness gives each a process of its own), and a benchmark the heap
 * the others filled (docs/brought-files.md has the measurements).
 */
export function broughtSchedule(entry: string): ImpliedSchedule | undefined {
  const format = broughtFormatOfEntry(entry);
  if (format === 'node-core') {
    return {
      schedule: 'lockstep-per-case',
      what: 'a Node core file',
      note: "a Node core file: each configuration runs in processes of its own (--schedule lockstep-per-case), as Node's harness runs it; in processes shared by every configuration each would read the type feedback of the ones before it",
    };
  }
  if (format === 'deno-bench') {
    return {
      schedule: 'lockstep-per-case',
      what: 'a Deno.bench file',
      note: 'a Deno.bench file: each benchmark runs in processes of its own (--schedule lockstep-per-case); in processes shared by every benchmark one reads the heap the others left (deno bench runs them one after another in one process)',
    };
  }
  return undefined;
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
