/**
 * Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format/)
 * for `bencher run --adapter json`: one benchmark per case × variant, named
 * "<case> [<variant>]", the median and its 95% CI as value, lower and upper
 * value, under the case metric's measure: time per operation is `latency` (ns)
 * with `throughput` (operations/s) beside it, instruction counts are
 * `instructions` (per operation), requests/s is `throughput`, a host-timed time
 * is its own measure in ms named after the metric ("start-up-time"). Recorded
 * engine metrics are measures of their own, without a CI (metrics.ts
 * ENGINE_METRIC_FIELDS; "gc-time-share" is a fraction of sampling time).
 */
import { claimsBmf } from './claims-bmf.ts';
import type { CaseResult, Metric as CaseMetric, RunRecord } from '@rtbench/core/schema';
import { metricOf } from '@rtbench/core/metric';
import { ENGINE_METRIC_FIELDS, summarizeMetrics } from '../metrics.ts';
import { byKind, type Reporter } from './reporter.ts';

const bmf = (value: unknown): string => `${JSON.stringify(value, null, 1)}\n`;

const REFUSES = { history: 'bencher keeps its own history of the runs it is given; send it each run (rtbench report <run.json> --format bmf), or pick another format for a history' };

interface Metric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

/** A measure's slug: lowercase words joined by hyphens ("latency p99" -> "latency-p99"). */
function measureSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** The BMF measure a value goes to, per unit: a count is named by its unit, requests/s are throughput, a time by its metric ("latency-p99"). Times per operation have two (measuresOf). */
const BMF_MEASURE: Readonly<Record<Exclude<CaseMetric['unit'], 'ns'>, (metric: CaseMetric) => string>> = {
  instructions: (metric) => metric.unit,
  'req/s': () => 'throughput',
  ms: (metric) => measureSlug(metric.name),
  switches: (metric) => measureSlug(metric.name),
};

function measuresOf(metric: CaseMetric, s: { median: number; ci?: [number, number] | undefined }): Record<string, Metric> {
  const estimate: Metric = { value: s.median, ...(s.ci ? { lower_value: s.ci[0], upper_value: s.ci[1] } : {}) };
  if (metric.unit === 'ns') {
    // A 0 ns median (below the clock resolution) has a latency of 0 and no finite throughput.
    if (!(s.median > 0)) return { latency: estimate };
    return {
      latency: estimate,
      throughput: { value: 1e9 / s.median, ...(s.ci && s.ci[1] > 0 ? { lower_value: 1e9 / s.ci[1] } : {}), ...(s.ci && s.ci[0] > 0 ? { upper_value: 1e9 / s.ci[0] } : {}) },
    };
  }
  return { [BMF_MEASURE[metric.unit](metric)]: estimate };
}

/** The engine metrics a result recorded, one measure each; none when it recorded none. */
function engineMeasures(result: Pick<CaseResult, 'rounds'>): Record<string, Metric> {
  if (!result.rounds.some((r) => r.metrics)) return {};
  const summary = summarizeMetrics(result);
  const out: Record<string, Metric> = {};
  for (const field of ENGINE_METRIC_FIELDS) {
    const value = field.value(summary);
    if (field.measure && value !== undefined && Number.isFinite(value)) out[field.measure] = { value };
  }
  return out;
}

function bmfOf(run: RunRecord): Record<string, Record<string, Metric>> {
  const out: Record<string, Record<string, Metric>> = {};
  for (const r of run.results) {
    const s = r.stats;
    if (!s) continue;
    out[`${r.caseId} [${r.variantId}]`] = { ...measuresOf(metricOf(run, r.caseId), s), ...engineMeasures(r) };
  }
  return out;
}

export const bmfReporter: Reporter = {
  format: 'bmf',
  description: "bencher.dev's Bencher Metric Format (JSON), for tracking runs over time",
  extension: 'json',
  escaping: 'json',
  refuses: REFUSES,
  // Bencher keeps its own history of single runs; a history has no one run to give it (rtbench history refuses --format bmf).
  render: byKind(
    {
      bench: (view) => bmf(bmfOf(view.run)),
      // A comparison of two saved runs reports the newer (candidate) run.
      comparison: (view) => bmf(bmfOf(view.runs[view.runs.length - 1]!.run)),
      claims: (view) => bmf(claimsBmf(view)),
    },
    REFUSES,
  ),
};
