/** Building views from runs: load -> view -> emit. */
import type { RunRecord } from '@rtbench/core/schema';
import { benchView } from './bench.ts';
import { pairedComparisonView } from './comparison.ts';
import type { RatioOptions } from './ratios.ts';
import type { RunView } from './types.ts';

export { benchView, runNotes, SKEW_WARNING } from './bench.ts';
export { benchRegressions, pairedComparisonView, unpairedComparisonView, pairVariants, regressions, ViewError, type SavedRun } from './comparison.ts';
export { DEFAULT_RATIO_OPTIONS, pairedCase, ratioHalfWidth, roundMedians, type RatioOptions } from './ratios.ts';
export { changePoints, changeSummary, historyRegressions, chooseOrder, CHANGE_METHOD, historyView, orderRuns, runFileName, runLabel, type HistoryInput, type HistoryOptions, type HistoryOrder } from './history.ts';
export { armInfo, armFlags, shortHash, versionText } from './arms.ts';
export type * from './types.ts';
export type * from './releases.ts';
export { checkClaims, checkLabel, claimPairs, claimsBlock, claimsView, countWords, runInfo, type ClaimCheck, type ClaimPairs } from './claims.ts';
export type { AcrossColumn, ClaimFlip, ClaimsMatrix, ClaimsRunInfo, ClaimsView } from './claims-types.ts';
export { claimsMatrix, type MatrixColumn } from './claims-matrix.ts';
export { claimFlipNotes } from './claims-history.ts';
export { adjustedConfidence, adjustmentText, CLAIM_METHOD, decideClaim, decideFrom, wordOf, type ClaimDecision, type ClaimFamily } from './claim-decision.ts';

/** The view a run is shown as by default: a comparison run as verdicts, any other as the bench table. */
export function viewOfRun(run: RunRecord, options: Partial<RatioOptions> & { file?: string; notes?: string[] } = {}): RunView {
  return run.mode === 'compare' && run.variants.length > 1 ? pairedComparisonView(run, options) : benchView(run, options);
}
