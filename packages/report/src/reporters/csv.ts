/**
 * CSV for R, pandas or a spreadsheet, in tidy form (one observation per row,
 * one variable per column, RFC 4180 quoting):
 *   csv        every raw sample: run, case, variant, round, sample index, batch
 *              size, ns per operation, and its start time where recorded;
 *   csv-stats  one row per case × variant: the fields of the table columns
 *              (columns/results.ts): the statistics, the ratio against the view's
 *              baseline with its CI and verdict, and any engine metrics recorded.
 * A history (either name) is one row per point, a claims view one row per
 * check. Every header is declared under columns/ with its values.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { csvTable } from '../columns/fields.ts';
import { csvFields } from '../columns/results.ts';
import { SAMPLE_FIELDS, sampleRows } from '../columns/samples.ts';
import { CLAIM_FIELDS } from '../columns/claims.ts';
import { claimRows } from '../cells/claims.ts';
import { resultRows } from '../cells/rows.ts';
import type { ClaimsView } from '../views/claims-types.ts';
import type { RunView } from '../views/types.ts';
import { renderHistoryCsv } from './history.ts';
import { byKind, type Reporter } from './reporter.ts';

/** The runs a view reads: a comparison's one or two, a bench table's one. */
function runsOf(view: RunView): RunRecord[] {
  return 'runs' in view ? view.runs.map((r) => r.run) : [view.run];
}

/** The csv format's header: one row per raw sample (columns/samples.ts). */
export const SAMPLE_COLUMNS: readonly string[] = SAMPLE_FIELDS.map((f) => f.key);

const samplesCsv = (view: RunView): string => csvTable(SAMPLE_FIELDS, sampleRows(runsOf(view)));

/**
 * One row per case × variant: the fields of the one column list
 * (columns/results.ts), in their published order. The statistics are in `unit`
 * (the case's metric, as in the samples), and `direction` says which way is
 * better. The ratio is always of costs, candidate / baseline, so < 1 is better
 * for every measure: for requests/s it is the baseline's rate over the candidate's.
 */
function statsCsv(view: RunView): string {
  const { facts, rows } = resultRows(view);
  return csvTable(csvFields(facts), rows);
}

/** The csv-stats header of a view: the engine metrics' columns only when a run recorded them. */
export function statsColumns(view: RunView): string[] {
  return csvFields(resultRows(view).facts).map((f) => f.key);
}

/** The csv-stats header of a run without engine metrics. */
export const STATS_COLUMNS: readonly string[] = csvFields({ baseline: '', comparison: false, ownMetric: false, adaptive: false, engineMetrics: false }).map((f) => f.key);

const claimsCsv = (view: ClaimsView): string => csvTable(CLAIM_FIELDS, claimRows(view));

export const csvSamplesReporter: Reporter = {
  format: 'csv',
  description: 'every raw sample, one row each (tidy CSV for R or pandas)',
  extension: 'csv',
  // A history has one row per point (its runs' samples are in their files).
  render: byKind({ bench: samplesCsv, comparison: samplesCsv, history: renderHistoryCsv, claims: claimsCsv }),
};

export const csvStatsReporter: Reporter = {
  format: 'csv-stats',
  description: 'one row per case × variant: statistics and the ratio against the baseline (CSV)',
  extension: 'csv',
  render: byKind({ bench: statsCsv, comparison: statsCsv, history: renderHistoryCsv, claims: claimsCsv }),
};
