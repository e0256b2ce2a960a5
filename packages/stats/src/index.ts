/**
 * @rtbench/stats: pure, runtime-neutral statistics for benchmark results.
 * No I/O, no dependencies. See README.md for methods and references.
 */
export { summarize, medianCI, type Summary, type MedianCI } from './summary.ts';
export { quantile, median } from './quantile.ts';
export { summarizeRounds, processMedianInterval, MIN_ROUNDS_FOR_BOOTSTRAP, type RoundsSummary, type RoundsOptions } from './bootstrap.ts';
export { createRandom } from './random.ts';
export {
  comparePaired,
  compareUnpaired,
  compareMoments,
  classify,
  comparisonHasInterval,
  DEFAULT_THRESHOLD,
  type Comparison,
  type CompareOptions,
  type Verdict,
} from './verdict.ts';
export { unitInference, withoutFarthestUnit, welchInference, welchOfMoments, armMoments, intervalAt, pValueOf, hasInterval, unitMeans, MIN_UNITS, type UnitInference, type UnpairedArm, type ArmMoments } from './units.ts';
export { wilcoxonSignedRank, mannWhitney, hodgesLehmann, type ShiftResult } from './rank-tests.ts';
export { benjaminiHochberg, applyFdr, fdrStep, type FdrStep, applyEbh, eBenjaminiHochberg, adjustedConfidence, type FdrOptions } from './fdr.ts';
export { anytimeEValue, anytimeIntervalAt, anytimeUnitsToDecide } from './confidence-sequence.ts';
export { geometricMeanRatio, geometricMeanRatioUnpaired, type SuiteAggregate, type UnpairedCase, type CaseValues } from './suite.ts';
export { normalCdf, normalQuantile } from './normal.ts';
export { detectModes, bestSplit, criticalRatio, modeDefaults, MIN_VALUES_FOR_MODES, type Mode, type ModeSummary, type ModeOptions, type Split } from './modes.ts';
export { estimators, type EstimatorName, type Rounds } from './estimators.ts';
export { pairedStopping, stoppingDefaults, type StoppingDecision, type StoppingOptions } from './stopping.ts';
export { collectorShare, readByMean } from './amortized.ts';
export { pairRounds, processesOf, summarizeArm, turnLogRatio, type PairableRound, type RoundPairs } from './pairing.ts';
export { studentTQuantile, studentTTwoSided } from './t-interval.ts';
export {
  classifyProcess,
  cellSteadyState,
  levelChange,
  MARKED_STEADY_STATES,
  STEADY_STATE_DEFAULTS,
  type CellSteadyState,
  type ProcessSteadyState,
  type SteadyStateClass,
  type SteadyStateOptions,
  type WarmupCourse,
} from './steady-state.ts';
export { nearFloor, WITHOUT_WORK_FACTOR, type NearFloor } from './without-work.ts';
export { REQUEST_STEADY_DEFAULTS, steadyEnough, steadyPoint, type RequestSteadyOptions } from './request-steady.ts';
export { MIN_PROCESSES, REQUEST_QUANTILES, netDistribution, requestDistribution, type Estimate, type NetDistribution, type RequestDistribution, type RequestQuantileName } from './request-distribution.ts';
