/**
 * A release matrix's verdicts: every adjacent step of every case of every
 * track read together (Benjamini–Hochberg, intervals at the adjusted level),
 * as `--compare` reads a table, so the matrix's multiplicity is accounted
 * for; a step whose verdict is faster or slower is a change point. The
 * shapes here are the matrix's own, shared by @rtbench/releases (which pools
 * each step's sets from its folder) and report (which draws them).
 */
import type { ReleaseTrack } from '@rtbench/core/releases-schema';
import { applyFdr, type Comparison } from '@rtbench/stats';
import type { ClaimsMatrix } from './claims-matrix.ts';
import { decidedDirection } from './change-points.ts';

/** False discovery rate of the matrix's change points. */
const MATRIX_FDR_ALPHA = 0.05;

/** One runtime's releases on one suite (declared with the matrix's state, whose tracks it is). */
export type { ReleaseTrack };

/** The engine of one release, from the runs that measured it. */
export interface ReleaseEngine {
  version: string;
  /** "V8 14.6.202.33" */
  engine?: string;
}

/** One adjacent step of one case: older → newer, paired within the sets that held both. */
export interface StepVerdict {
  older: string;
  newer: string;
  /** newer / older, read at the matrix's adjusted level (Benjamini–Hochberg over every step of every case). */
  comparison: Comparison & { qValue: number };
  /** Sets behind the interval, and the runs they came from. */
  sets: number;
  runs: number;
}

export interface CaseSeries {
  caseId: string;
  /** Per release, oldest first: time relative to the track's first release (the product of the steps' ratios); undefined after a step without data. */
  relative: (number | undefined)[];
  /** Per step, oldest first (one fewer than the releases); undefined: not measured yet. */
  steps: (StepVerdict | undefined)[];
}

/** A step beyond the threshold: where a case changed, with what reproduces it. */
export interface ChangePoint {
  track: string;
  caseId: string;
  older: string;
  newer: string;
  direction: 'faster' | 'slower';
  comparison: Comparison & { qValue: number };
  engines: { older?: ReleaseEngine; newer?: ReleaseEngine };
  /** Releases between the two that --every skipped: the change is in one of their steps. */
  skipped: string[];
  /** `rtbench bench <suite> --compare a b --filter <case>`: the direct comparison that confirms it. */
  compareCommand: string;
  /** `rtbench bisect a..b <suite> --filter <case>`, only when releases were skipped. */
  bisectCommand?: string;
}

export interface TrackAnalysis {
  track: ReleaseTrack;
  /** By release tag. */
  engines: Record<string, ReleaseEngine>;
  cases: CaseSeries[];
  /** Sets measured over the track's windows, and the sets wanted. */
  setsMeasured: number;
  setsWanted: number;
  /** Claims × the releases a claims run checked them on (`releases --claims`), a column per release, oldest first; absent: none given. */
  claims?: ClaimsMatrix;
}

/** Every step's comparison read at the matrix's adjusted level, and that level (1 − α when nothing was compared). */
export function judgeSteps(comparisons: readonly Comparison[]): { adjusted: (Comparison & { qValue: number })[]; confidence: number } {
  const adjusted = applyFdr(comparisons, { alpha: MATRIX_FDR_ALPHA });
  return { adjusted, confidence: adjusted[0]?.confidence ?? 1 - MATRIX_FDR_ALPHA };
}

/** The steps of one case that are change points, each with its direction. */
export function changedSteps(steps: readonly (StepVerdict | undefined)[]): { step: StepVerdict; direction: 'faster' | 'slower' }[] {
  return steps.flatMap((step) => {
    const direction = step && decidedDirection(step.comparison);
    return step && direction ? [{ step, direction }] : [];
  });
}
