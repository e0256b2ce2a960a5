/** What a duet run records: in each round, lockstep's block, the core a process was pinned to and the arm it was sampled beside; its words. */
import { z } from 'zod';
import type { MeasurerRecord } from './record.ts';
import { LOCKSTEP_ROUNDS } from './lockstep.ts';
import { roundLengths, timedMethod } from './timed-methods.ts';
import { TIMING_VERDICT } from './verdict-defaults.ts';

/**
 * A duet round's own block (measurers' lockstep.ts writes it as it seats the
 * arms): the process was pinned to this CPU core and sampled at the same time
 * as the arm `partner` (absent: it sampled alone), window i beside the
 * partner's sample i.
 */
const duetRoundSchema = z.object({ core: z.number().int().nonnegative(), partner: z.string().optional() });
export type DuetRound = z.infer<typeof duetRoundSchema>;

export const DUET_RECORD: MeasurerRecord = {
  kind: 'duet',
  verdict: TIMING_VERDICT,
  // A duet set is warm lockstep's, two arms at a time: its rounds hold lockstep's block too.
  rounds: { ...LOCKSTEP_ROUNDS, duet: duetRoundSchema },
  describe(o) {
    const { perArm, warmup } = roundLengths(o);
    return timedMethod(
      `each round (a duet set) starts two warm processes, the baseline's and one other arm's (the other arm rotating round by round), each pinned to a CPU core of its own, the cores swapped every rotation; they serve every case in a shuffled order, warm it side by side and sample it at the same time, window by window: ${perArm} of sampling per arm after ${warmup}; pairs are (round, case), the ratio of each window's two samples; with k arms, k − 1 rounds for each pair an arm gets`,
    );
  },
};
