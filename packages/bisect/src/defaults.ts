/**
 * A bisect's own policy. A step's rounds follow the measurer's comparison
 * (bisectRounds); the threshold is the measurer's.
 * "Different" is judged at 99% (a bisect looks many times), "the same" at
 * 90% (a two one-sided test at 5%): decide.ts, error rates in its tests.
 */
import type { RunRequest } from '@rtbench/run';
import type { MeasurerDescriptor } from '@rtbench/measurers';
import { engineNamed, isResolved } from '@rtbench/runtime-registry';

export const BISECT_DEFAULTS = {
  timePerRoundMs: 100,
  confidence: 0.99,
  sameConfidence: 0.9,
  budgetMs: 15 * 60_000,
} as const;

/**
 * A step's paired rounds: a comparison's, at most 10, doubled while
 * undecided up to eight times those, at most 160 (wall time: 10 rounds of
 * 100 ms of sampling per process, up to 160; instruction counts: 3 up to 24).
 */
export function bisectRounds(measurer: MeasurerDescriptor): { min: number; max: number } {
  const { rounds } = measurer.defaults.compare;
  return { min: Math.min(10, rounds), max: Math.min(160, 8 * rounds) };
}

/** A bisect's threshold: the one asked for, else the measurer's for the engines, as a comparison takes it. */
export function bisectThreshold(measurer: MeasurerDescriptor, asked: number | undefined, variants: RunRequest['variants']): number {
  return asked ?? measurer.record.verdict.threshold(variants.map((v) => (isResolved(v) ? engineNamed(v.target.engine) : undefined)));
}
