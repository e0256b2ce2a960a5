/**
 * The untimed run-up before each lockstep sample. A lockstep process sits
 * idle while the set's others take their samples, and the first stretch of
 * work after that wait is slower than the rest (docs/lockstep.md, "The
 * run-up"). Decided once per case in the runtime and recorded in the span
 * (protocol-schema.ts sampleSpan runUpCalls), so that a saved run says what
 * each case had and the host reads it rather than deciding again.
 * Runs beside case code: no Math.
 */
import { spansCollections } from './amortize.ts';
import { ceil } from './primordials.ts';
import type { SampleSpan } from './protocol-schema.ts';

/**
 * Batches at least this long get no run-up: one operation of 4 ms or more
 * (json-reviver's 500 KB cases: 8–16 ms) is its own warm-up of the caches,
 * and a run-up of one more operation would halve the time a set spends
 * in timed samples.
 */
export const NO_PRE_BATCH_NS = 4e6;

/**
 * Untimed calls before each lockstep sample: a quarter batch, at least 1; a
 * whole batch of the span's size when the span saw the case's periodic
 * costs (amortize.ts spansCollections: one batch that spans a cycle; the
 * span's, not the sample's, once the sample was raised to the floor, which
 * a run-up as long would double); none for a long batch of few calls.
 */
export function runUpCalls(iterationsPerSample: number, batchNs: number, span: SampleSpan | undefined): number {
  if (iterationsPerSample < 4 && batchNs >= NO_PRE_BATCH_NS) return 0;
  if (spansCollections(span)) return ceil(iterationsPerSample / (span.flooredBy ?? 1));
  return iterationsPerSample >> 2 || 1;
}
