/**
 * @rtbench/verdicts: what rtbench decides from saved runs, apart from how it
 * is printed. Ratios and their false-discovery control (ratios.ts), a claim's
 * word (claim-decision.ts, claims.ts) and the claims that flipped between
 * releases (claims-matrix.ts), the gate's regressions per kind of view
 * (regressions.ts), paired ratios of quantiles of CPU per request
 * (request-quantiles.ts), the change points of a history (change-points.ts, and the first walk of a long history over numbers:
 * change-walk.ts)
 * and of a release matrix (release-matrix.ts), a bisect's answer (bisect.ts), a run as a history reads it
 * (history-record.ts),
 * whether a case's memory leaks (memory-growth.ts), what an arm costs in
 * peak memory (memory-change.ts), and the saved runs' shapes the packages
 * above share (runs.ts). Pure: no I/O. Report lays these out.
 */
export { adjustAll, compareSummaries, summariesPValue, designOfRun, DEFAULT_RATIO_OPTIONS, geomeanOf, geomeanVerdict, pairedCase, ratioHalfWidth, roundMedians, unpairedCase, type ArmStat, type ArmSummary, type ArmWork, type Geomean, type PairedCase, type RatioComparison, type RatioOptions } from './ratios.ts';
export { adjustedConfidence, adjustmentText, CLAIM_METHOD, decideClaim, decideFrom, wordOf, type ClaimDecision, type ClaimFamily } from './claim-decision.ts';
export { checkClaims, claimPairs, claimsBlock, countWords, recheckClaims, type ClaimCheck, type ClaimPairs, type Reworded } from './claims.ts';
export { claimsMatrix, type AcrossColumn, type ClaimFlip, type ClaimsMatrix, type MatrixColumn, type MatrixRowSides } from './claims-matrix.ts';
export { judgedRatios, regressionsOf, type GatedView, type Regression } from './regressions.ts';
export { CHANGE_METHOD, decidedDirection, historyChanges, type HistoryChange } from './change-points.ts';
export { armRead, ChangeWalk, type ArmReading, type NeighbourPValue, type PrewalkedHistory, type WalkedHistory, type WalkedSeries, type WalkSnapshot } from './change-walk.ts';
export { changedSteps, judgeSteps, type CaseSeries, type ChangePoint, type ReleaseEngine, type ReleaseTrack, type StepVerdict, type TrackAnalysis } from './release-matrix.ts';
export { lookByCase, unitsToNextWord, type CaseCell, type CaseLook, type CaseLookOptions, type CellState } from './stopping.ts';
export type { HistoryInput, RunRef, SavedRun } from './runs.ts';
export { historyRead, historyRecord, recordDigest, type HistoryEntry, type HistoryRead, type HistoryRecord, type HistoryResult, type HistoryVariant } from './history-record.ts';
export type { BisectOutcome, BisectResult, Culprit, StepPurpose, StepRecord, UnresolvedRange } from './bisect.ts';
export { hostsDiffer, machineStatesDiffer, machineText, summarizeMachine, MACHINE_STATE_DEFAULTS, type MachineReading, type MachineSummary } from './machine-state.ts';
export { peakChange, type MemoryChange } from './memory-change.ts';
export { whyNoReadings, type UnreadRun } from './memory-readings.ts';
export { memoryGrowth, processGrowth, roundsKeptGrowing, GROWTH_FLOOR_BYTES, HELD_SAMPLE_ALLOWANCE_BYTES, HELD_SHARE, MIN_GROWTH_READINGS, MIN_POOLED_ROUNDS, POOLED_HELD_PER_CALL_BYTES, ROUND_ALLOWANCE_BYTES, SAMPLE_ALLOWANCE_BYTES, KEPT_SAMPLE_ALLOWANCE_BYTES, MIN_KEPT_SAMPLES, type MemoryGrowth, type ProcessGrowth, type ResidentSeries } from './memory-growth.ts';
export { isRequestResult, QUANTILE_METHOD, quantilePair, quantilePairs, type ComparedQuantile } from './request-quantiles.ts';
export { unjudgedCases, type Unjudged } from './unjudged.ts';
export { workAnswers } from './work-answers.ts';
export { ALONE_CONFIDENCE, ALONE_TOLERANCE, companyRows, DECIDING_SE, halfDesign, LOOP_TOLERANCE, loopFigure, type AloneHalf, type AloneReading, type AloneRatio, type CompanyRow, type HalfDesign } from './company.ts';
