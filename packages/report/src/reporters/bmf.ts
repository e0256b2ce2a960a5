/**
 * Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format/),
 * for tracking runs over time with `bencher run --adapter json`. One benchmark
 * per case × variant, named "<case> [<variant>]"; the `latency` measure is the
 * median in nanoseconds with its 95% CI as the lower and upper values, and
 * `throughput` is operations per second.
 */
import type { RunRecord } from '@rtbench/core/schema';
import type { View } from '../views/types.ts';
import type { Reporter } from './reporter.ts';

interface Metric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

export function bmfOf(run: RunRecord): Record<string, Record<string, Metric>> {
  const out: Record<string, Record<string, Metric>> = {};
  for (const r of run.results) {
    const s = r.stats;
    if (!s || !(s.median > 0)) continue;
    out[`${r.caseId} [${r.variantId}]`] = {
      latency: { value: s.median, lower_value: s.ci[0], upper_value: s.ci[1] },
      throughput: { value: 1e9 / s.median, ...(s.ci[1] > 0 ? { lower_value: 1e9 / s.ci[1] } : {}), ...(s.ci[0] > 0 ? { upper_value: 1e9 / s.ci[0] } : {}) },
    };
  }
  return out;
}

export const bmfReporter: Reporter = {
  format: 'bmf',
  description: "bencher.dev's Bencher Metric Format (JSON), for tracking runs over time",
  extension: 'json',
  // A comparison of two saved runs reports the newer (candidate) run.
  render: (view: View) => `${JSON.stringify(bmfOf(view.kind === 'comparison' ? view.runs[view.runs.length - 1]!.run : view.run), null, 1)}\n`,
};
