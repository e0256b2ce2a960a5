/**
 * A history as CSV: one row per point, with the run it is from, the variant's binary, the figure and its change
 * against the previous point. Every interval is the screen's: read at the one level the view's comparisons were
 * adjusted to, which the `level` column names (the reporter gives the level and each point's interval at it).
 */
import { TIME_PER_OP } from '@rtbench/core/metric';
import type { HistoryCase, HistoryPoint, HistoryRun, HistorySeries, HistoryView } from '../views/types.ts';
import { field, type CsvField, type CsvValue } from './fields.ts';

interface PointRow {
  hc: HistoryCase;
  series: HistorySeries;
  point: HistoryPoint;
  run: HistoryRun;
  /** The level of the row's intervals: the view's one (cells' historyLevel), and the figure's interval at it. */
  level: number;
  ci?: [number, number];
}

const point = (key: string, value: (row: PointRow) => CsvValue): CsvField<PointRow> => field(key, value);
const metric = (row: PointRow) => row.hc.metric ?? TIME_PER_OP;

export const HISTORY_FIELDS: readonly CsvField<PointRow>[] = [
  point('suite', (r) => r.hc.suite),
  point('case', (r) => r.hc.caseId),
  point('variant', (r) => r.series.variantId),
  point('run_index', (r) => r.point.run + 1),
  point('run_file', (r) => r.run.file),
  point('run_id', (r) => r.run.runId),
  point('commit', (r) => r.run.commit),
  point('dirty', (r) => (r.run.dirty === undefined ? undefined : r.run.dirty ? 1 : 0)),
  point('started_at', (r) => r.run.startedAt),
  point('rtbench_version', (r) => r.run.rtbenchVersion),
  point('version', (r) => r.point.version),
  point('engine_version', (r) => r.point.engineVersion),
  point('binary_sha256', (r) => r.point.binarySha256),
  point('binary_changed', (r) => r.point.binaryChanged),
  point('measure', (r) => metric(r).name),
  point('unit', (r) => metric(r).unit),
  point('direction', (r) => metric(r).direction),
  point('median', (r) => r.point.median),
  point('level', (r) => r.level),
  point('ci_low', (r) => r.ci?.[0]),
  point('ci_high', (r) => r.ci?.[1]),
  point('rounds', (r) => r.point.processMedians.length),
  point('vs_run_index', (r) => (r.point.changeFrom === undefined ? undefined : r.point.changeFrom + 1)),
  point('ratio', (r) => r.point.change?.ratio),
  point('ratio_ci_low', (r) => r.point.change?.ci[0]),
  point('ratio_ci_high', (r) => r.point.change?.ci[1]),
  point('q', (r) => r.point.change?.qValue),
  point('verdict', (r) => r.point.change?.verdict),
  point('change_point', (r) => r.point.changePoint),
  point('digest_changed', (r) => (r.point.digestChanged ? 1 : undefined)),
  point('note', (r) => r.point.note),
];

/** Every point of the view: case by case, variant by variant, in the runs' order. */
export function* historyPoints(view: HistoryView, level: number, interval: (point: HistoryPoint, level: number) => [number, number] | undefined): Generator<PointRow> {
  for (const hc of view.cases) {
    for (const series of hc.series) {
      for (const p of series.points) {
        const ci = interval(p, level);
        yield { hc, series, point: p, run: view.runs[p.run]!, level, ...(ci ? { ci } : {}) };
      }
    }
  }
}
