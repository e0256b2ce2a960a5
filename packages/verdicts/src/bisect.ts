/**
 * A bisect's answer: each pair of releases it compared with its verdict, the
 * releases it named as where the case changed (each confirmed by a fresh
 * direct comparison), the parts of the range that differ where no single
 * release could be named. Decided by @rtbench/bisect's search; laid out by
 * report's bisect view.
 */
import type { Comparison } from '@rtbench/stats';

/** Why a pair is compared: the range's ends, one side of a split, or the confirmation of a culprit. */
export type StepPurpose = 'ends' | 'split' | 'confirm';

/** One pair compared, with all its rounds pooled. */
export interface StepRecord {
  older: string;
  newer: string;
  purpose: StepPurpose;
  /** Measurements asked (1 + repeats) and rounds pooled. */
  attempts: number;
  rounds: number;
  /** newer / older: ratio < 1 is faster. */
  comparison: Comparison;
}

/** A change placed between two releases that ran (nothing that ran lies between them). */
export interface Culprit {
  older: string;
  newer: string;
  /** Releases between the two that could not run: the change is in one of the steps among them. */
  skippedBetween: string[];
  direction: 'faster' | 'slower';
  /** The comparison that placed it here. */
  found: Comparison;
  /** A fresh direct comparison of the two, after the search; confirmed when its verdict is the same direction. */
  confirmation: Comparison;
  confirmed: boolean;
}

/**
 * A part of the range that differs but where no single step was named: a
 * drift of small steps, undecided halves, or (search 'largest') a smaller
 * change met beside the larger one and not searched.
 */
export interface UnresolvedRange {
  older: string;
  newer: string;
  comparison: Comparison;
  why: 'spread' | 'undecided' | 'smaller';
}

export type BisectOutcome =
  /** The ends do not differ beyond the threshold: nothing to search. */
  | { kind: 'no-change'; ends: Comparison }
  /** The ends could not be told apart or equal within the maximum rounds. */
  | { kind: 'undecided'; ends: Comparison }
  | { kind: 'changes'; ends: Comparison; culprits: Culprit[]; unresolved: UnresolvedRange[] };

export interface BisectResult {
  releases: readonly string[];
  /** The range searched after skipping ends that could not run. */
  first: string;
  last: string;
  outcome: BisectOutcome;
  steps: StepRecord[];
  skipped: { release: string; reason: string }[];
}
