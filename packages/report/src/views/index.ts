/** Building views from runs: load -> view -> emit. */
import type { RunRecord } from '@rtbench/core/schema';
import { benchView } from './bench.ts';
import { pairedComparisonView } from './comparison.ts';
import type { RunView, RunViewOptions } from './types.ts';

export { benchView, runNotes } from './bench.ts';
export { pairedComparisonView, unpairedComparisonView, ViewError } from './comparison.ts';
export { changePoints, chooseOrder, historyView, historyViewOf, orderRuns, seriesPoints, type HistoryOptions, type HistoryOrder } from './history.ts';
export { DEFAULT_LAST_RUNS, withWindowNote } from './history-window.ts';
export { packagesText, versionText } from './arms.ts';
export type * from './types.ts';
export type * from './releases.ts';
export { claimsView, runInfo } from './claims.ts';
export type { ClaimsView } from './claims-types.ts';

/** The view a run is shown as by default: a comparison run as verdicts, any other as the bench table. */
export function viewOfRun(run: RunRecord, options: RunViewOptions = {}): RunView {
  return run.mode === 'compare' && run.variants.length > 1 ? pairedComparisonView(run, options) : benchView(run, options);
}
