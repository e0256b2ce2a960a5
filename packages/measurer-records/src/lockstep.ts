/**
 * What a lockstep run records: how its processes were held, the sets one
 * served, whether they collected before sampling; its words, and its doubt
 * about older runs whose rounds shared processes unlabelled.
 */
import { finite } from '@rtbench/core/protocol-schema';
import type { MeasuredBy, MeasurerFields, RoundRecord, RunRecord } from '@rtbench/core/schema';
import { processesOf, type PairableRound } from '@rtbench/stats';
import { z } from 'zod';
import type { MeasurerRecord } from './record.ts';
import { collectedFieldSchema, roundLengths, timedMethod, TIMING_VERDICT } from './timed-methods.ts';

/**
 * A lockstep round's own block (lockstep and duet sets: measurers' lockstep.ts writes it): this process lived beside the
 * other arms' and took sample i in turn i, at position positions[i] of that
 * turn's order (0: first). Absent: a fresh process sampled back to back.
 */
const lockstepRoundSchema = z.object({
  positions: z.array(z.number().int().nonnegative()),
  /** µs the host waited for sample i, from its command to the answer (absent in older runs). */
  hostWaitUs: z.array(finite.nonnegative()).optional(),
  /** µs the process says the same stretch took on its clock (absent in older runs). */
  spanUs: z.array(finite.nonnegative()).optional(),
  /** µs of CPU the process (every thread, and processes below it) ran from the set's first command to its last answer, read by the host from /proc (absent off Linux and in older runs). */
  processCpuUs: finite.nonnegative().optional(),
  /** µs of CPU its main thread (the busiest main thread of its tree) ran over the same stretch: the thread that runs JavaScript, which the samples are held against (absent off Linux and in older runs). */
  mainThreadCpuUs: finite.nonnegative().optional(),
  /** µs the host waited, after the set's processes had opened the case, for all of them to be warmed and ready (absent in older runs). */
  readyWaitUs: finite.nonnegative().optional(),
  /** µs it then waited for its own other work to end before the first turn: the previous case's processes exiting, the next case's loading (absent in older runs). */
  quietWaitUs: finite.nonnegative().optional(),
  /** The user-mode emulator the process ran under (e.g. qemu-aarch64-static), read by the host: its times are behaviour only. Absent: native, or not known. */
  emulator: z.string().max(100).optional(),
  /** The process served other cases before this one in the same set (warm processes): how many (absent: a process of its own). */
  servedBefore: z.number().int().nonnegative().optional(),
  /** Which process of this variant took the set, numbered from 0 in the order they started (warm processes; absent in older runs): sets that share a process share its JIT decisions and layout. */
  process: z.number().int().nonnegative().optional(),
  /** The how-manieth time this process served this case (1: set up and fully warmed; more: kept warm from an earlier set and rewarmed). Absent in older runs. */
  visit: z.number().int().positive().optional(),
});
export type LockstepRound = z.infer<typeof lockstepRoundSchema>;
export const LOCKSTEP_ROUNDS = { lockstep: lockstepRoundSchema };

/** A round's lockstep block (absent: a fresh process sampled back to back), as loading validated it. */
export const lockstepOf = (round: RoundRecord): LockstepRound | undefined => round.lockstep as LockstepRound | undefined;

/** A round as stats pairs it: taken in turns beside the other arms' (a lockstep set), and by which of the arm's processes. */
export function pairable(round: RoundRecord): PairableRound {
  const lockstep = lockstepOf(round);
  return { ...round, turns: lockstep ? { process: lockstep.process } : undefined };
}

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
});
type LockstepFields = z.infer<typeof lockstepFieldsSchema>;

/** A saved run's lockstep fields, as loading validated them (saved-runs' results-file.ts); anything else reads as none. */
function lockstepFields(o: RunRecord['options']): LockstepFields {
  const parsed = lockstepFieldsSchema.safeParse(o.measurerFields ?? {});
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
  const o = lockstepFields(options);
  const sets = o.setsPerProcess ?? 1;
  const held =
    o.processes === 'warm' && sets > 1
      ? `each round (a lockstep set) has one live process per arm that serves every case in a shuffled order and samples the arms in turn, a few ms apart; a process serves ${sets} rounds in a row, warming each case once (${warmup}) and rewarming it briefly in its later rounds: ${perArm} of sampling per arm and round; pairs are (round, case)`
      : o.processes === 'warm'
        ? `each round (a lockstep set) starts one live process per arm that serves every case in a shuffled order, warming each case and sampling the arms in turn, a few ms apart: ${perArm} of sampling per arm after ${warmup}; pairs are (round, case)`
        : o.startedAhead
          ? `each case has live processes of its own, one per arm, that serve no other case (started while the case before it warmed up, idle until it opened), warmed together and sampled in turn, a few ms apart: ${perArm} of sampling per arm and round after ${warmup}${sets > 1 ? `; a case's processes serve it in ${sets} rounds in a row, rewarming it briefly in the later ones` : ''}; pairs are (round, case)`
          : `each round (a lockstep set) starts one live process per arm and samples them in turn, a few ms apart: ${perArm} of sampling per arm after ${warmup}; pairs are (round, case)`;
  return timedMethod(`${held}${collections(o)}${waiting(o)}`);
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
    const { setsPerProcess = 1 } = lockstepFields(run.options);
    const unlabelled = run.results.some((r) => r.rounds.some((x) => x.samples.length) && !processesOf(r.rounds.filter((x) => x.samples.length).map(pairable)));
    if (setsPerProcess <= 1 || !unlabelled) return [];
    return [`this run's processes served ${setsPerProcess} rounds each but its record does not say which process served which round: each round is taken as a process of its own, so its intervals may be too narrow`];
  },
  describe: describeLockstep,
};
