/** The in-runtime loop's options for the timing measurers (lockstep, fresh processes): warmup, then samples chosen from the clock. */
import type { MeasureOptions } from '@rtbench/core';
import type { MeasurerSetup } from '../measurer.ts';

/** What of a measurer's setup the timing measurers read. */
export type TimedSetup = Pick<MeasurerSetup, 'sampleTimeMs' | 'warmupMs' | 'warmupMinMs' | 'timeoutMs' | 'minTurns' | 'setsPerProcess'>;

export function timedMeasureOptions(setup: TimedSetup): MeasureOptions {
  return { warmupMs: setup.warmupMs, ...(setup.warmupMinMs !== undefined ? { warmupMinMs: setup.warmupMinMs } : {}), timeMs: setup.sampleTimeMs, minSamples: 5, maxSamples: 100_000, sampleMs: 0 };
}
