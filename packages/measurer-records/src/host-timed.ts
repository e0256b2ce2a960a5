/**
 * The host-timed measurer's block in a load round (HTTP load: host-timed's
 * load.ts writes it, report's load and CPU views read it).
 */
import { finite } from '@rtbench/core/protocol-schema';
import { z } from 'zod';
import type { MeasurerRecord } from './record.ts';
import { timedMethod } from './timed-methods.ts';
import { TIMING_VERDICT } from './verdict-defaults.ts';

/**
 * How a load round's requests ended, counted by the load generator over the
 * measured window: an error is counted, not a failed round, so a server that
 * answers some requests wrongly still has its figures beside its error rate.
 */
const loadOutcomesSchema = z.object({
  /** Responses received (an error status among them). */
  responses: z.number().int().nonnegative(),
  /** Responses with an error status (wrk: 4xx and 5xx; autocannon: anything but 2xx). */
  errorStatus: z.number().int().nonnegative(),
  /** Connect, read and write errors of the sockets. */
  socketErrors: z.number().int().nonnegative(),
  /** Requests not answered within the generator's timeout. */
  timeouts: z.number().int().nonnegative(),
});
export type LoadOutcomes = z.infer<typeof loadOutcomesSchema>;

/**
 * A load round's phases: it was served as consecutive short windows of the
 * load, and its figures are those of the windows from its steady point on
 * (host-timed load-windows.ts); the ones before are its warm-up.
 */
const loadPhasesSchema = z.object({
  /** Windows served. */
  windows: z.number().int().positive(),
  /** The first steady window (absent: the round never settled, and its later half gave the figures). */
  steadyFrom: z.number().int().positive().optional(),
  /** How long the warm-up windows ran, in ms. */
  warmupMs: finite.nonnegative(),
  /** This case's figure over the warm-up windows (absent: none, or no figure there). */
  warmup: finite.nonnegative().optional(),
});

/**
 * Which generator made the load, and the share of the measured window it was
 * busy on its core (CPU time over wall time; near 1 it, not the server, may
 * be the limit).
 */
const loadRoundSchema = z.object({
  generator: z.enum(['wrk', 'autocannon']),
  generatorBusy: finite.nonnegative(),
  /** Connections kept open, and requests written on each before the first answer (absent in older runs). */
  connections: z.number().int().positive().optional(),
  pipelining: z.number().int().positive().optional(),
  /** What the measured window's requests came to (absent in older runs, where any error failed the round). */
  outcomes: loadOutcomesSchema.optional(),
  /** Its phases (absent in older runs: a fixed warm-up run, then one measured window). */
  phases: loadPhasesSchema.optional(),
});
export type LoadRound = z.infer<typeof loadRoundSchema>;

export const HOST_TIMED_RECORD: MeasurerRecord = {
  kind: 'host-timed',
  verdict: TIMING_VERDICT,
  rounds: { load: loadRoundSchema },
  describe: () => timedMethod('each round starts the program or server anew and times it from outside the runtime'),
};
