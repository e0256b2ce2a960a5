/**
 * A Node core file's comparison budget where the command line leaves it out
 * (its measurer is @rtbench/measurers' broughtSchedule). The format is the
 * suite loader's to detect.
 */
import { broughtFormatOfEntry } from '@rtbench/suite-loader';
import { parsePositiveInt } from '../args/options.ts';

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
    note: `a Node core file's comparison: ${filled.rounds} sets per configuration, each ${NODE_CORE_COMPARE_BUDGET.sampleMsPerSet} ms of samples per binary ` +
      `after a warmup from ${filled.warmup} (--rounds ${filled.rounds} --time ${filled.time} --warmup ${filled.warmup}; more rounds narrow the intervals)`,
  };
}
