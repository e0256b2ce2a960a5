/**
 * CSV for R, pandas or a spreadsheet, in tidy form (one observation per row,
 * one variable per column, RFC 4180 quoting):
 *   csv        every raw sample: run, case, variant, round, sample index, batch
 *              size, ns per operation, and its start time where recorded;
 *   csv-stats  one row per case × variant: the statistics (with the number of
 *              modes among the process medians, where the run has it), the ratio
 *              against the view's baseline with its CI and verdict, and any
 *              engine metrics recorded (metrics.ts ENGINE_METRIC_FIELDS).
 * A history (either name) is one row per point: history.ts HISTORY_COLUMNS.
 */
import { CLAIM_COLUMNS, claimRows } from './claims-rows.ts';
import { metricOf, type RunRecord } from '@rtbench/core/schema';
import { ENGINE_METRIC_FIELDS, hasEngineMetrics, summarizeMetrics } from '../metrics.ts';
import type { RatioComparison, RunView } from '../views/types.ts';
import { renderHistoryCsv } from './history.ts';
import { csvField } from '../text.ts';
import type { Reporter } from './reporter.ts';

type Field = string | number | boolean | undefined;

/** One CSV field: quoted when it holds a comma, quote or line break. */

function csv(header: readonly string[], rows: Iterable<readonly Field[]>): string {
  const lines = [header.join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\n')}\n`;
}

function runsOf(view: RunView): RunRecord[] {
  return view.kind === 'comparison' ? view.runs.map((r) => r.run) : [view.run];
}

/**
 * One row per raw sample. `value` is in `unit` and means `measure` (the
 * case's metric: "time per operation" in ns by default; "instructions per
 * operation", "requests/s", "time to first response" in ms, …): a count or a
 * rate never lands in a time column.
 */
export const SAMPLE_COLUMNS = ['run', 'case', 'variant', 'round', 'order', 'sample', 'batch_size', 'measure', 'unit', 'value', 'sample_start_ms'] as const;

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
 * One row per case × variant; the statistics are in `unit` (the case's
 * metric, as in the samples), and `direction` says which way is better. The
 * ratio is always of costs, candidate / baseline, so < 1 is better for every
 * measure: for requests/s it is the baseline's rate over the candidate's.
 */
export const STATS_COLUMNS = [
  'run', 'case', 'variant', 'status', 'measure', 'unit', 'direction', 'rounds', 'samples', 'median', 'ci_low', 'ci_high', 'ci_half_width_rel', 'mean', 'min', 'p25', 'p75', 'max',
  'modes', 'baseline', 'ratio', 'ratio_ci_low', 'ratio_ci_high', 'verdict', 'q', 'target', 'reached', 'stopped_by',
] as const;

/** The ratio of each (run, case, variant) against the view's baseline. */
function ratiosOf(view: RunView): Map<string, { baseline: string; c: RatioComparison }> {
  const out = new Map<string, { baseline: string; c: RatioComparison }>();
  if (view.kind === 'bench') {
    for (const bc of view.cases) for (const row of bc.rows) if (row.relative) out.set(`${view.run.id}\u0000${bc.caseId}\u0000${row.variantId}`, { baseline: view.baseline.id, c: row.relative });
  } else {
    const candidateRun = view.runs[view.runs.length - 1]!.run;
    for (const s of view.sections) {
      for (const row of s.cases) if (row.comparison) out.set(`${candidateRun.id}\u0000${row.caseId}\u0000${s.candidate.id}`, { baseline: s.baseline.label, c: row.comparison });
    }
  }
  return out;
}

/** The csv-stats header: the engine metrics' columns only when a run recorded them. */
export function statsColumns(view: RunView): string[] {
  return [...STATS_COLUMNS, ...(runsOf(view).some(hasEngineMetrics) ? ENGINE_METRIC_FIELDS.map((f) => f.column) : [])];
}

function* statsRows(view: RunView): Generator<Field[]> {
  const ratios = ratiosOf(view);
  const withMetrics = runsOf(view).some(hasEngineMetrics);
  for (const run of runsOf(view)) {
    for (const r of run.results) {
      const s = r.stats;
      const ratio = ratios.get(`${run.id}\u0000${r.caseId}\u0000${r.variantId}`);
      const p = r.precision;
      const metric = metricOf(run, r.caseId);
      const engine = withMetrics ? ENGINE_METRIC_FIELDS.map((f) => f.value(summarizeMetrics(r))) : [];
      yield [
        run.id, r.caseId, r.variantId, r.status, metric.name, metric.unit, metric.direction, r.rounds.length, s?.n, s?.median, s?.ci?.[0], s?.ci?.[1], s?.ciHalfWidthRel, s?.mean, s?.min, s?.p25, s?.p75, s?.max,
        s?.modes?.modes.length, ratio?.baseline, ratio?.c.ratio, ratio?.c.ci[0], ratio?.c.ci[1], ratio?.c.verdict, ratio?.c.qValue, p?.target, p?.reached, p?.stoppedBy,
        ...engine,
      ];
    }
  }
}

export const csvSamplesReporter: Reporter = {
  format: 'csv',
  description: 'every raw sample, one row each (tidy CSV for R or pandas)',
  extension: 'csv',
  // A history has one row per point (its runs' samples are in their files).
  render: (view) => (view.kind === 'history' ? renderHistoryCsv(view) : view.kind === 'claims' ? csv(CLAIM_COLUMNS, claimRows(view)) : csv(SAMPLE_COLUMNS, sampleRows(view))),
};

export const csvStatsReporter: Reporter = {
  format: 'csv-stats',
  description: 'one row per case × variant: statistics and the ratio against the baseline (CSV)',
  extension: 'csv',
  render: (view) => (view.kind === 'history' ? renderHistoryCsv(view) : view.kind === 'claims' ? csv(CLAIM_COLUMNS, claimRows(view)) : csv(statsColumns(view), statsRows(view))),
};
