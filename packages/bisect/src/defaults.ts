/**
 * A bisect's own policy. A step's rounds and the threshold are the
 * measurer's (wall time: lockstep's, 10 paired rounds of 100 ms of sampling
 * per process doubling up to 160; instruction counts: their own).
 * "Different" is judged at 99% (a bisect looks many times), "the same" at
 * 90% (a two one-sided test at 5%): decide.ts, error rates in its tests.
 */
import type { RunRequest } from '@rtbench/run';
import type { MeasurerDescriptor } from '@rtbench/measurers';
import { isResolved } from '@rtbench/runtime-registry';

export const BISECT_DEFAULTS = {
  timePerRoundMs: 100,
  confidence: 0.99,
  sameConfidence: 0.9,
  budgetMs: 15 * 60_000,
} as const;

/** A bisect's threshold: the one asked for, else the measurer's for the engines, as a comparison takes it. */
export function bisectThreshold(measurer: MeasurerDescriptor, asked: number | undefined, variants: RunRequest['variants']): number {
  return asked ?? measurer.defaults.threshold(variants.map((v) => (isResolved(v) ? v.target.engine : undefined)));
}
