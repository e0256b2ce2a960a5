/**
 * A lockstep round's block as saved: its schema and type, apart from
 * lockstep.ts (the record, which reads rounds through readers.ts) so that
 * the readers name its type without an import circle.
 */
import { finite } from '@rtbench/core/protocol-schema';
import { z } from 'zod';

/**
 * A lockstep round's own block (lockstep and duet sets: measurers' lockstep.ts writes it): this process lived beside the
 * other arms' and took sample i in turn i, at position positions[i] of that
 * turn's order (0: first). Absent: a fresh process sampled back to back.
 */
export const lockstepRoundSchema = z.object({
  positions: z.array(z.number().int().nonnegative()),
  /** µs the host waited for sample i, from its command to the answer (absent in older runs). */
  hostWaitUs: z.array(finite.nonnegative()).optional(),
  /** µs the process says the same stretch took on its clock (absent in older runs). */
  spanUs: z.array(finite.nonnegative()).optional(),
  /** µs of CPU the process (every thread, and processes below it) ran from the set's first command to its last answer, read by the host from /proc (absent off Linux and in older runs). */
  processCpuUs: finite.nonnegative().optional(),
  /** µs of CPU its main thread (the busiest main thread of its tree) ran over the same stretch: the thread that runs JavaScript, which the samples are held against (absent off Linux and in older runs). */
  mainThreadCpuUs: finite.nonnegative().optional(),
  /** µs the host took from turning to the set to every process having its case: taking or starting the processes, sending the case, and (the default schedule) starting the next case's processes ahead (absent in older runs). */
  openingUs: finite.nonnegative().optional(),
  /** µs the host waited, after the set's processes had opened the case, for all of them to be warmed and ready (absent in older runs). */
  readyWaitUs: finite.nonnegative().optional(),
  /** µs it then waited for its own other work to end before the first turn: the previous case's processes exiting, the next case's loading (absent in older runs). */
  quietWaitUs: finite.nonnegative().optional(),
  /** Turns the set took beyond its planned ones because every exchange of an arm was too loaded for the host's clock to corroborate its figures (absent: none). */
  addedTurns: z.number().int().positive().optional(),
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
