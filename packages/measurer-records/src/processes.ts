/** What a run of fresh processes records: whether they collected before sampling; its words (also for a saved run that names no measurer, from before lockstep). */
import type { MeasurerRecord } from './record.ts';
import { collectedFieldSchema, roundLengths, timedMethod } from './timed-methods.ts';
import { TIMING_VERDICT } from './verdict-defaults.ts';

// Runs saved before the measurer block kept the field among the options.
export const PROCESSES_RECORD: MeasurerRecord = {
  kind: 'processes',
  verdict: TIMING_VERDICT,
  schema: collectedFieldSchema,
  olderKeys: ['collectBeforeSampling'],
  older: (o) => (o.collectBeforeSampling === true ? { collectBeforeSampling: true } : undefined),
  describe(o) {
    const { perArm, warmup } = roundLengths(o);
    return timedMethod(`each round runs every arm once per case, in fresh processes, back to back: ${perArm} sampling + ${warmup} per process; pairs are (round, case)`);
  },
};
