/**
 * @rtbench/stats: pure, runtime-neutral statistics for benchmark results.
 * No I/O, no dependencies. See README.md for methods and references.
 */
export { summarize, medianCI } from './summary.ts';
export { quantile, median } from './quantile.ts';
export { summarizeRounds, processMedianInterval, MIN_ROUNDS_FOR_BOOTSTRAP } from './bootstrap.ts';
export { createRandom } from './random.ts';
export {
  comparePaired,
  compareUnpaired,
  compareMoments,
  classify,
  DEFAULT_THRESHOLD,
  type Comparison,
} from './verdict.ts';
export { unitInference, withoutFarthestUnit, welchInference, welchOfMoments, armMoments, intervalAt, pValueOf, unitMeans, MIN_UNITS, type UnitInference, type ArmMoments } from './units.ts';
export { wilcoxonSignedRank, mannWhitney, hodgesLehmann } from './rank-tests.ts';
export { benjaminiHochberg, applyFdr, fdrStep, type FdrStep, applyEbh } from './fdr.ts';
export { anytimeUnitsToDecide } from './confidence-sequence.ts';
export { geometricMeanRatio, geometricMeanRatioUnpaired, type CaseValues } from './suite.ts';
export { normalQuantile } from './normal.ts';
export { detectModes, bestSplit, criticalRatio, type ModeSummary } from './modes.ts';
export { estimators, type EstimatorName } from './estimators.ts';
export { pairedStopping } from './stopping.ts';
export { collectorShare, readByMean } from './amortized.ts';
export { pairRounds, processesOf, summarizeArm, turnLogRatio, type PairableRound } from './pairing.ts';
export { studentTQuantile, studentTTwoSided } from './t-interval.ts';
export {
  classifyProcess,
  cellSteadyState,
  levelChange,
  STEADY_STATE_DEFAULTS,
  type ProcessSteadyState,
  type SteadyStateClass,
  type WarmupCourse,
} from './steady-state.ts';
export { nearFloor, WITHOUT_WORK_FACTOR } from './without-work.ts';
export { REQUEST_STEADY_DEFAULTS, steadyEnough, steadyPoint } from './request-steady.ts';
export { MIN_PROCESSES, REQUEST_QUANTILES, netDistribution, requestDistribution, type Estimate, type NetDistribution, type RequestDistribution, type RequestQuantileName } from './request-distribution.ts';
export { meanOf, pooledVariance, sumOfComponents, sumOfSquares, type VarianceComponent } from './variance-components.ts';
