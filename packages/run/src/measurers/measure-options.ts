/** The in-runtime loop's options for the timing measurers (lockstep, fresh processes): warmup, then samples chosen from the clock. */
import type { MeasureOptions } from '@rtbench/core';
import type { MeasurerSetup } from '../measurer.ts';

export function timedMeasureOptions(setup: MeasurerSetup): MeasureOptions {
  return { warmupMs: setup.warmupMs, ...(setup.warmupMinMs !== undefined ? { warmupMinMs: setup.warmupMinMs } : {}), timeMs: setup.sampleTimeMs, minSamples: 5, maxSamples: 100_000, sampleMs: 0 };
}
