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
import { ceil, max } from './primordials.ts';
import type { SampleSpan } from './protocol-schema.ts';

/**
 * Batches at least this long took no run-up in runs saved before a span
 * recorded its own (derivedRunUpCalls reads such a run by that rule).
 */
export const NO_PRE_BATCH_NS = 4e6;

/**
 * Untimed calls before each lockstep sample: a quarter batch, at least 1; a
 * whole batch of the span's size when the span saw the case's periodic
 * costs (amortize.ts spansCollections: one batch that spans a cycle; the
 * span's, not the sample's, once the sample was raised to the floor, which
 * a run-up as long would double). A long batch of few calls gets its run-up
 * too: one 8–16 ms operation after a wait is not its own warm-up of the
 * caches (docs/lockstep.md, "The run-up"). `asked` (--run-up): at least the
 * calls that fill that many ns at the sample's ns per call, for an engine
 * that paces its collections by its allocation rate in wall time, which a
 * wait lowers (docs/lockstep.md, "A longer run-up").
 */
export function runUpCalls(iterationsPerSample: number, span: SampleSpan | undefined, asked?: { ns: number; callNs: number }): number {
  const rule = spansCollections(span) ? ceil(iterationsPerSample / (span.flooredBy ?? 1)) : iterationsPerSample >> 2 || 1;
  return asked !== undefined && asked.callNs > 0 ? max(rule, ceil(asked.ns / asked.callNs)) : rule;
}

/** The run-up of a run saved before spans recorded theirs: the rule then, none for a batch of fewer than 4 calls that took NO_PRE_BATCH_NS or more. */
export function derivedRunUpCalls(iterationsPerSample: number, batchNs: number, span: SampleSpan | undefined): number {
  if (iterationsPerSample < 4 && batchNs >= NO_PRE_BATCH_NS) return 0;
  return runUpCalls(iterationsPerSample, span);
}
