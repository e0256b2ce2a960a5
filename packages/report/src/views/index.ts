/** Building views from runs: load -> view -> emit. */
import type { RunRecord } from '@rtbench/core/schema';
import { benchView } from './bench.ts';
import { pairedComparisonView } from './comparison.ts';
import type { RunView, RunViewOptions } from './types.ts';

export { benchView, runNotes, SKEW_WARNING } from './bench.ts';
export { pairedComparisonView, unpairedComparisonView, pairVariants, ViewError } from './comparison.ts';
export { changePoints, changeSummary, chooseOrder, historyView, historyViewOf, orderRuns, runFileName, runLabel, seriesPoints, type HistoryOptions, type HistoryOrder } from './history.ts';
export { DEFAULT_LAST_RUNS, historyWindow, withWindowNote } from './history-window.ts';
export { armInfo, armFlags, packagesText, shortHash, versionText } from './arms.ts';
export type * from './types.ts';
export type * from './releases.ts';
export { checkLabel, claimsView, runInfo } from './claims.ts';
export type { ClaimsRunInfo, ClaimsView } from './claims-types.ts';

/** The view a run is shown as by default: a comparison run as verdicts, any other as the bench table. */
export function viewOfRun(run: RunRecord, options: RunViewOptions = {}): RunView {
  return run.mode === 'compare' && run.variants.length > 1 ? pairedComparisonView(run, options) : benchView(run, options);
}
