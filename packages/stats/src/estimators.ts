/**
 * Candidate headline estimates of a case x variant from its rounds (one array
 * of samples per process). scripts/measure/stats/estimators.ts compares them on repeated
 * runs; README.md has the comparison and why summarizeRounds uses the one it
 * uses. Inputs are assumed valid (summarizeRounds checks them).
 */
import { meanOf } from './variance-components.ts';
import { detectModes } from './modes.ts';
import { medianInPlace, quantileSorted } from './quantile.ts';

export type Rounds = readonly (readonly number[])[];

function sortedCopy(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}

function pooled(rounds: Rounds): number[] {
  return rounds.flat();
}

function roundMedians(rounds: Rounds): number[] {
  return rounds.map((r) => medianInPlace(Float64Array.from(r), r.length));
}

function medianOf(values: readonly number[]): number {
  return medianInPlace(Float64Array.from(values), values.length);
}

/** Median of the pooled samples that lie within `factor` of the fastest one. */
function fastStateMedian(rounds: Rounds, factor: number): number {
  const sorted = sortedCopy(pooled(rounds));
  const cut = (sorted[0] as number) * factor;
  return quantileSorted(sorted.filter((v) => v <= cut), 0.5);
}

export const estimators = {
  /** The median of the process medians: the typical process. */
  'median-of-medians': (rounds: Rounds): number => medianOf(roundMedians(rounds)),
  /** The median of the process means: the typical process's amortized cost, collections included (amortized.ts). */
  'median-of-means': (rounds: Rounds): number => medianOf(rounds.map(meanOf)),
  /** The fastest sample of all (Chen & Revels 2016). */
  min: (rounds: Rounds): number => Math.min(...pooled(rounds)),
  /** The 10th percentile of all samples pooled. */
  'p10-samples': (rounds: Rounds): number => quantileSorted(sortedCopy(pooled(rounds)), 0.1),
  /** The median over processes of each process's 10th percentile. */
  'median-of-p10': (rounds: Rounds): number => medianOf(rounds.map((r) => quantileSorted(sortedCopy(r), 0.1))),
  /** The center of the lower mode of the process medians (their median when there is one mode). */
  'lower-mode': (rounds: Rounds): number => detectModes(roundMedians(rounds)).modes[0]!.center,
  /** The center of the lower mode of all samples pooled (their median when there is one mode). */
  'lower-mode-samples': (rounds: Rounds): number => detectModes(pooled(rounds)).modes[0]!.center,
  /** The same with a lower mode allowed down to 5% of the samples. */
  'lower-mode-samples-5%': (rounds: Rounds): number => detectModes(pooled(rounds), { minShare: 0.05 }).modes[0]!.center,
  /** The median of the samples within 1.25x of the fastest: the fast state's typical sample. */
  'fast-state-median': (rounds: Rounds): number => fastStateMedian(rounds, 1.25),
} as const;

export type EstimatorName = keyof typeof estimators;
