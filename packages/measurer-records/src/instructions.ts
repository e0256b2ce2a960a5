/**
 * The instruction counts measurer's block in each round (measurers'
 * instructions.ts writes it, report's view of where a change came from reads
 * its functions).
 */
import { finite } from '@rtbench/core/protocol-schema';
import { z } from 'zod';
import type { MeasurerRecord } from './record.ts';
import { INSTRUCTIONS_VERDICT } from './verdict-defaults.ts';

/**
 * The counter read around samples of `iterations[0]` and `iterations[1]`
 * calls (one process under callgrind; runs saved before: two processes under
 * cachegrind); the sample is the difference of the totals over the
 * difference of calls.
 */
const countsRoundSchema = z.object({
  tool: z.string(),
  iterations: z.tuple([z.number().int().nonnegative(), z.number().int().positive()]),
  instructions: z.tuple([finite.nonnegative(), finite.nonnegative()]),
  /** Every count the round read, in order: [calls of the sample, instructions counted] (raw data behind the count; 0 calls: a sample's own cost). */
  dumps: z.array(z.tuple([z.number().int().nonnegative(), finite.nonnegative()])).optional(),
  /** Cases the process had served before this one (one process per variant serves a round's cases; absent in older runs). */
  servedBefore: z.number().int().nonnegative().optional(),
  /** Instructions per call of the samples that showed the steady state before the counted pairs (the last two agree). */
  settle: z.array(finite.nonnegative()).optional(),
  /** With the cache simulation, per operation: first- and last-level misses, and the estimated cycles (host estimatedCycles). */
  l1MissesPerOp: finite.optional(),
  llMissesPerOp: finite.optional(),
  estimatedCyclesPerOp: finite.optional(),
  /**
   * The functions of the counted sample that executed at least 0.1% of it themselves (at most 150), as
   * [callgrind's name, own instructions per call], largest first; in each case and variant's first round only
   * (absent in older runs).
   */
  functions: z.array(z.tuple([z.string(), finite.nonnegative()])).optional(),
});
export type CountsRound = z.infer<typeof countsRoundSchema>;

/**
 * Instruction counts' fields in a saved run: the cache simulation, the engine flags added to every variant to make
 * counts repeatable, and whether it was a smoke run (--fixed-warmup: samples a tenth the size, counts not measurements).
 */
const instructionsFieldsSchema = z.object({ cacheSim: z.boolean().optional(), engineFlags: z.record(z.string(), z.array(z.string())).optional(), smoke: z.literal(true).optional() });
export type InstructionsFields = z.infer<typeof instructionsFieldsSchema>;

const SMOKE = '; a smoke run (--fixed-warmup): samples of about a million instructions after a tenth of the warm-up, counts not measurements';

/** Runs saved before the measurer block kept the same fields as the options' `instructions`. */
export const INSTRUCTIONS_RECORD: MeasurerRecord = {
  kind: 'instructions',
  verdict: INSTRUCTIONS_VERDICT,
  schema: instructionsFieldsSchema,
  rounds: { counts: countsRoundSchema },
  olderKeys: ['instructions'],
  older: (o) => (typeof o.instructions === 'object' && o.instructions !== null ? { ...(o.instructions as Record<string, unknown>) } : undefined),
  describe: (o) => ({
    rounds: `each round counts instructions per operation under valgrind (callgrind): one process per arm and round serving every case, its counter read around samples of n calls and of none, the smallest sample less a sample's own cost, over n${instructionsFieldsSchema.safeParse(o.measurerFields ?? {}).data?.smoke ? SMOKE : ''}`,
    stats:
      "median: instructions per operation over the rounds, each from one process per runtime under callgrind serving the round's cases: the smallest sample of n calls less a sample's own cost, over n; 95% CI: bootstrap over rounds",
    paired: 'paired: per round (one process per runtime under callgrind), the log ratio of instructions per operation; the ratio is their mean, with a Student t interval',
    unpaired: "unpaired: difference of the runs' mean log instructions per operation over their processes, Welch t interval",
  }),
};
