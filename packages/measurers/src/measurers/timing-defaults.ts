import type { MeasurerDefaults } from '../measurer.ts';

/**
 * Timing's defaults (lockstep's, and the other measurers' of time). A table:
 * one set per process, since the process pair is the unit an interval
 * counts; 40 ms a set and long operations at 8 turns, which decide as many
 * cells as more in less time (docs/comparing.md, "The default designs");
 * warmup until steady within the engine's horizons (docs/warmup.md). A
 * comparison: two sets per warm process, since a second set costs about
 * half a first, in the design that detects a suite-wide 5% change in nine
 * comparisons of ten (docs/comparing.md, "Calibration"). Their verdicts'
 * parameters are their records' (measurer-records TIMING_VERDICT).
 */
export const TIMING_DEFAULTS: MeasurerDefaults = {
  bench: { time: '240ms', warmup: '20ms', rounds: 6, adaptive: 'unless-fixed', target: 0.02, maxRounds: 30, maxTime: '60s' },
  compare: { time: '3s', warmup: '50ms', rounds: 30, adaptive: 'when-asked', target: 0.02, maxRounds: 60 },
};
