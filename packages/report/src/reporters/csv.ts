/**
 * CSV for R, pandas or a spreadsheet, in tidy form (one observation per row,
 * one variable per column, RFC 4180 quoting):
 *   csv        every raw sample: run, case, variant, round, sample index, batch
 *              size, ns per operation, and its start time where recorded;
 *   csv-stats  one row per case × variant: the fields of the table columns
 *              (cells/columns.ts): the statistics, the ratio against the view's
 *              baseline with its CI and verdict, and any engine metrics recorded.
 * A history (either name) is one row per point: history.ts HISTORY_COLUMNS.
 */
import { CLAIM_COLUMNS, claimRows } from './claims-rows.ts';
import { metricOf, type RunRecord } from '@rtbench/core/schema';
import { csvFields } from '../cells/columns.ts';
import { resultRows } from '../cells/rows.ts';
import type { ClaimsView } from '../views/claims-types.ts';
import type { RunView } from '../views/types.ts';
import { renderHistoryCsv } from './history.ts';
import { csvField } from '../text.ts';
import { byKind, type Reporter } from './reporter.ts';

type Field = string | number | boolean | undefined;

/** A header and its rows, each field quoted when it must be (text.ts csvField). */
function csv(header: readonly string[], rows: Iterable<readonly Field[]>): string {
  const lines = [header.join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\n')}\n`;
}

/** The runs a view reads: a comparison's one or two, a bench table's one. */
function runsOf(view: RunView): RunRecord[] {
  return 'runs' in view ? view.runs.map((r) => r.run) : [view.run];
}

/**
 * One row per raw sample. `value` is in `unit` and means `measure` (the
 * case's metric: "time per operation" in ns by default; "instructions per
 * operation", "requests/s", "time to first response" in ms, …): a count or a
 * rate never lands in a time column.
 */
export const SAMPLE_COLUMNS = ['run', 'case', 'variant', 'round', 'order', 'sample', 'batch_size', 'measure', 'unit', 'value', 'sample_start_ms'] as const;

const samplesCsv = (view: RunView): string => csv(SAMPLE_COLUMNS, sampleRows(view));

function* sampleRows(view: RunView): Generator<Field[]> {
  for (const run of runsOf(view)) {
    for (const result of run.results) {
      const metric = metricOf(run, result.caseId);
      for (const round of result.rounds) {
        for (const [i, value] of round.samples.entries()) {
          yield [run.id, result.caseId, result.variantId, round.round, round.order, i, round.iterationsPerSample, metric.name, metric.unit, value, round.sampleStartMs?.[i]];
        }
      }
    }
  }
}

/**
 * One row per case × variant: the fields of the one column list
 * (cells/columns.ts), in their published order. The statistics are in `unit`
 * (the case's metric, as in the samples), and `direction` says which way is
 * better. The ratio is always of costs, candidate / baseline, so < 1 is better
 * for every measure: for requests/s it is the baseline's rate over the candidate's.
 */
function statsCsv(view: RunView): string {
  const { facts, rows } = resultRows(view);
  const fields = csvFields(facts);
  return csv(
    fields.map((f) => f.key),
    rows.map((row) => fields.map((f) => f.value(row))),
  );
}

/** The csv-stats header of a view: the engine metrics' columns only when a run recorded them. */
export function statsColumns(view: RunView): string[] {
  return csvFields(resultRows(view).facts).map((f) => f.key);
}

/** The csv-stats header of a run without engine metrics. */
export const STATS_COLUMNS: readonly string[] = csvFields({ baseline: '', comparison: false, ownMetric: false, adaptive: false, engineMetrics: false }).map((f) => f.key);

const claimsCsv = (view: ClaimsView): string => csv(CLAIM_COLUMNS, claimRows(view));

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
