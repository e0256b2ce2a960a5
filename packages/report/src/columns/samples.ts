/**
 * The csv format's columns: one row per raw sample. `value` is in `unit` and
 * means `measure` (the case's metric: "time per operation" in ns by default;
 * "instructions per operation", "requests/s", "time to first response" in ms,
 * …): a count or a rate never lands in a time column.
 */
import type { CaseResult, Metric, RunRecord } from '@rtbench/core/schema';
import { metricOf } from '@rtbench/core/metric';
import { loadOf } from '@rtbench/measurer-records/readers';
import { field, type CsvField, type CsvValue } from './fields.ts';

/** One sample: the `index`th of its round. */
export interface SampleRow {
  runId: string;
  result: CaseResult;
  metric: Metric;
  round: CaseResult['rounds'][number];
  index: number;
}

const sample = (key: string, value: (row: SampleRow) => CsvValue): CsvField<SampleRow> => field(key, value);

export const SAMPLE_FIELDS: readonly CsvField<SampleRow>[] = [
  sample('run', (s) => s.runId),
  sample('case', (s) => s.result.caseId),
  sample('variant', (s) => s.result.variantId),
  sample('round', (s) => s.round.round),
  sample('order', (s) => s.round.order),
  sample('sample', (s) => s.index),
  sample('batch_size', (s) => s.round.iterationsPerSample),
  sample('measure', (s) => s.metric.name),
  sample('unit', (s) => s.metric.unit),
  sample('value', (s) => s.round.samples[s.index]),
  // Where the run recorded when each sample started.
  sample('sample_start_ms', (s) => s.round.sampleStartMs?.[s.index]),
  // A load round's requests: responses received, and those that ended in error (error status, socket error, timeout).
  sample('responses', (s) => loadOf(s.round)?.outcomes?.responses),
  sample('errors', (s) => {
    const o = loadOf(s.round)?.outcomes;
    return o ? o.errorStatus + o.socketErrors + o.timeouts : undefined;
  }),
];

/** Every sample of `runs`, run by run, result by result, round by round. */
export function* sampleRows(runs: readonly RunRecord[]): Generator<SampleRow> {
  for (const run of runs) {
    for (const result of run.results) {
      const metric = metricOf(run, result.caseId);
      for (const round of result.rounds) for (let index = 0; index < round.samples.length; index++) yield { runId: run.id, result, metric, round, index };
    }
  }
}
