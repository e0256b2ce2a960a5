/**
 * What a case's samples measure, and a sample read as a cost: the shape,
 * constants and helpers every reader of a saved run shares. Apart from
 * schema.ts (whose metricSchema validates this shape and which re-exports
 * these) so that a reader that never validates a run (a history answered
 * from its store) builds no zod schema to use them.
 */

/** A metric's units; switches: context switches counted by the host (absent in older runs). */
export const METRIC_UNITS = ['ns', 'ms', 'req/s', 'instructions', 'switches'] as const;
export const METRIC_DIRECTIONS = ['lower-is-better', 'higher-is-better'] as const;

/**
 * What a case's samples measure, when it is not the in-runtime loop's time per
 * operation (the default when absent, so older runs read as before). Cases timed
 * by the host from outside the runtime (start-up, HTTP load) declare it:
 * samples are in `unit`, and `direction` says which way is better.
 */
export interface Metric {
  /** What is measured, e.g. "time to first response", "requests/s", "latency p99". */
  name: string;
  unit: (typeof METRIC_UNITS)[number];
  direction: (typeof METRIC_DIRECTIONS)[number];
}

/** Instruction counts' metric: samples are instructions per operation. */
export const INSTRUCTIONS_PER_OP: Metric = { name: 'instructions per operation', unit: 'instructions', direction: 'lower-is-better' };

/** The in-runtime loop's metric: samples are ns per operation. */
export const TIME_PER_OP: Metric = { name: 'time per operation', unit: 'ns', direction: 'lower-is-better' };

/** A case's metric, TIME_PER_OP when the run does not declare one. */
export function metricOf(run: { readonly cases: readonly { readonly id: string; readonly metric?: Metric | undefined }[] }, caseId: string): Metric {
  return run.cases.find((c) => c.id === caseId)?.metric ?? TIME_PER_OP;
}

/**
 * A sample as a cost (lower is better), so ratios and verdicts built for times
 * read the same way for every metric: requests/s become seconds per request.
 */
export function asCost(value: number, metric: Metric): number {
  return metric.direction === 'higher-is-better' ? 1 / value : value;
}
