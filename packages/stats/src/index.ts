/**
 * @rtbench/stats: pure, runtime-neutral statistics for benchmark results.
 * No I/O, no dependencies. See README.md for methods and references.
 */
export { summarize, medianCI, type Summary, type MedianCI } from './summary.ts';
export { quantile, median } from './quantile.ts';
export { summarizeRounds, bootstrapDefaults, MIN_ROUNDS_FOR_BOOTSTRAP, type RoundsSummary, type BootstrapOptions } from './bootstrap.ts';
export { createRandom } from './random.ts';
export {
  comparePaired,
  compareUnpaired,
  classify,
  DEFAULT_THRESHOLD,
  type Comparison,
  type CompareOptions,
  type Verdict,
} from './verdict.ts';
export { wilcoxonSignedRank, mannWhitney, hodgesLehmann, type ShiftResult } from './rank-tests.ts';
export { benjaminiHochberg, applyFdr, type FdrOptions } from './fdr.ts';
export { geometricMeanRatio, geometricMeanRatioUnpaired, type SuiteAggregate, type UnpairedCase } from './suite.ts';
export { normalCdf, normalQuantile } from './normal.ts';
export { detectModes, bestSplit, criticalRatio, modeDefaults, MIN_VALUES_FOR_MODES, type Mode, type ModeSummary, type ModeOptions, type Split } from './modes.ts';
export { estimators, type EstimatorName, type Rounds } from './estimators.ts';
export { pairedStopping, minPairsFor, stoppingDefaults, type StoppingDecision, type StoppingOptions } from './stopping.ts';
export { pairRounds, turnLogRatio, type PairableRound, type RoundPairs } from './pairing.ts';
export { comparePairedT, compareUnpairedT, studentTQuantile, studentTTwoSided } from './t-interval.ts';
export { designEffect } from './clusters.ts';
