/**
 * What a lockstep run records: how its processes were held, the sets one
 * served, whether they collected before sampling; its words, and its doubt
 * about older runs whose rounds shared processes unlabelled.
 */
import { finite } from '@rtbench/core/protocol-schema';
import type { MeasuredBy, MeasurerFields, RunRecord } from '@rtbench/core/schema';
import { processesOf } from '@rtbench/stats';
import { z } from 'zod';
import { lockstepRoundSchema } from './lockstep-round.ts';
import { pairable } from './readers.ts';
import type { MeasurerRecord } from './record.ts';
import { collectedFieldSchema, roundLengths, timedMethod } from './timed-methods.ts';
import { TIMING_VERDICT } from './verdict-defaults.ts';

export const LOCKSTEP_ROUNDS = { lockstep: lockstepRoundSchema };

/**
 * Lockstep's fields in a saved run's measurer block: how its processes were
 * held (warm: serving every case of a set; per-case), how many consecutive
 * sets one process served (absent: 1), and whether it collected before
 * sampling (the memory view).
 */
const lockstepFieldsSchema = collectedFieldSchema.extend({
  processes: z.enum(['warm', 'per-case']).optional(),
  setsPerProcess: z.number().int().positive().optional(),
  /** Per-case processes were started while the case before theirs warmed up, and sat loaded and idle until their case opened (absent: started as their case opened). */
  startedAhead: z.literal(true).optional(),
  /** Per runtime, the environment its processes ran with so that waiting their turn cost their next sample nothing (RuntimePlugin.waitingEnv; absent: none, or a run saved before). */
  waitingEnv: z.record(z.string(), z.array(z.string())).optional(),
  /** Each sample's untimed run-up lasted at least this long, in ms (--run-up or the suite's runUp; absent: the run-up's own rule). */
  runUpMs: finite.positive().optional(),
});
type LockstepFields = z.infer<typeof lockstepFieldsSchema>;

/** A saved run's lockstep fields, as loading validated them (saved-runs' results-file.ts); anything else reads as none. */
function lockstepFields(fields: MeasurerFields | undefined): LockstepFields {
  const parsed = lockstepFieldsSchema.safeParse(fields ?? {});
  return parsed.success ? parsed.data : {};
}

/** What every lockstep process does besides its samples, as a saved run says it (collectingFlags; the one before the first sample only for the memory view). */
function collections(o: LockstepFields): string {
  if (o.smokeSamples !== undefined && !o.collectBeforeSampling) return '; no process takes a full collection between cases (a smoke run)';
  const when = o.collectBeforeSampling ? "before a case's first sample and after its last" : "after a case's last sample";
  return `; each process takes a full collection ${when} (a warm process also as each case opens), outside the timed batches (V8 runtimes run with --expose-gc for it; bun has Bun.gc)`;
}

/** What a process kept while it waited its turn, as a saved run says it (the measurer's collectingFlags). */
function waiting(o: LockstepFields): string {
  const env = Object.entries(o.waitingEnv ?? {});
  if (!env.length) return '';
  return `; a process waiting its turn keeps what its runtime would give back when idle, so its next sample pays nothing a program running without pause would not (${env.map(([runtime, vars]) => `${runtime}: ${vars.join(' ')}`).join('; ')})`;
}

/** How a lockstep run measured: its sets, how its processes were held, the lengths. */
function describeLockstep(options: RunRecord['options']): MeasuredBy {
  const { perArm, warmup } = roundLengths(options);
  const o = lockstepFields(options.measurerFields);
  const sets = o.setsPerProcess ?? 1;
  const held =
    o.processes === 'warm' && sets > 1
      ? `each round (a lockstep set) has one live process per arm that serves every case in a shuffled order and samples the arms in turn, a few ms apart; a process serves ${sets} rounds in a row, warming each case once (${warmup}) and rewarming it briefly in its later rounds: ${perArm} of sampling per arm and round; pairs are (round, case)`
      : o.processes === 'warm'
        ? `each round (a lockstep set) starts one live process per arm that serves every case in a shuffled order, warming each case and sampling the arms in turn, a few ms apart: ${perArm} of sampling per arm after ${warmup}; pairs are (round, case)`
        : o.startedAhead
          ? `each case has live processes of its own, one per arm, that serve no other case (started while the case before it warmed up, idle until it opened), warmed together and sampled in turn, a few ms apart: ${perArm} of sampling per arm and round after ${warmup}${sets > 1 ? `; a case's processes serve it in ${sets} rounds in a row, rewarming it briefly in the later ones` : ''}; pairs are (round, case)`
          : `each round (a lockstep set) starts one live process per arm and samples them in turn, a few ms apart: ${perArm} of sampling per arm after ${warmup}; pairs are (round, case)`;
  const runUp = o.runUpMs !== undefined ? `; each sample followed at least ${o.runUpMs} ms of the case run untimed (--run-up, or the suite's own runUp)` : '';
  return timedMethod(`${held}${collections(o)}${waiting(o)}${runUp}`);
}

/** Runs saved before the measurer block kept these fields among their options, by these names. */
export const LOCKSTEP_RECORD: MeasurerRecord = {
  kind: 'lockstep',
  verdict: TIMING_VERDICT,
  schema: lockstepFieldsSchema,
  rounds: LOCKSTEP_ROUNDS,
  olderKeys: ['lockstepProcesses', 'setsPerProcess', 'collectBeforeSampling'],
  older(o) {
    const fields: MeasurerFields = {
      ...(o.lockstepProcesses !== undefined ? { processes: o.lockstepProcesses } : {}),
      ...(o.setsPerProcess !== undefined ? { setsPerProcess: o.setsPerProcess } : {}),
      ...(o.collectBeforeSampling === true ? { collectBeforeSampling: true } : {}),
    };
    return Object.keys(fields).length ? fields : undefined;
  },
  // Runs saved before rounds named their process: rounds that shared one are read as processes of their own.
  doubts(run) {
    const { setsPerProcess = 1 } = lockstepFields(run.options.measurerFields);
    const unlabelled = run.results.some((r) => r.rounds.some((x) => x.samples.length) && !processesOf(r.rounds.filter((x) => x.samples.length).map(pairable)));
    if (setsPerProcess <= 1 || !unlabelled) return [];
    return [`this run's processes served ${setsPerProcess} rounds each but its record does not say which process served which round: each round is taken as a process of its own, so its intervals may be too narrow`];
  },
  describe: describeLockstep,
  runUpMs: (fields) => lockstepFields(fields).runUpMs,
};
