/** The shapes a bisect is made of: what it asks the measurer, what it gets back, what it answers. */
import type { Comparison } from '@rtbench/stats';
import type { StepPurpose, StepRecord } from '@rtbench/verdicts';

export type { BisectResult, Culprit, StepPurpose, StepRecord, UnresolvedRange } from '@rtbench/verdicts';

/** One measurement asked of the measurer: `rounds` more paired rounds of two releases (indices into the list). */
export interface StepRequest {
  older: number;
  newer: number;
  rounds: number;
  purpose: StepPurpose;
  /** 0 for the pair's first measurement, 1 for the first repeat, … (adaptive repeats). */
  attempt: number;
}

/**
 * What a measurement gives: per round, ln(newer's cost / older's cost) from
 * samples taken together (a paired round); or a release that cannot run the
 * case (not installable, crashed, case unsupported), which the search skips.
 */
export type StepOutcome = { kind: 'measured'; logRatios: number[] } | { kind: 'cannot-run'; release: number; reason: string };

export type Measure = (request: StepRequest) => Promise<StepOutcome>;

/**
 * Verdict of pooled per-round log ratios: different (faster/slower) when the
 * interval at `confidence` excludes 1 and the estimate is beyond the
 * threshold; equivalent when the interval at `sameConfidence` lies within
 * ±`sameBand` (at least the threshold); else inconclusive. Default:
 * pairedDecide(unitTest), t intervals on the per-unit log ratios (decide.ts).
 */
export type Decide = (logRatios: readonly number[], sameBand: number) => Comparison;

/** One paired comparison of per-round values at a confidence and threshold (default: stats' comparePaired, decide.ts unitTest). */
export type PairedTest = (baseline: readonly number[], candidate: readonly number[], opts: { threshold: number; confidence: number }) => Comparison;

export interface BisectOptions {
  /** A change smaller than this is not one (0.01 = 1%). */
  threshold: number;
  /** Confidence of the interval that calls a pair different (0.99: each of a bisect's many looks errs rarely). */
  confidence: number;
  /** Confidence of the interval that calls a pair the same (0.90: a two one-sided test at 5%, as TOST reads it). */
  sameConfidence: number;
  /** Rounds of a pair's first measurement; each repeat doubles the pair's rounds. */
  minRounds: number;
  /** A pair still undecided at this many rounds is reported undecided. */
  maxRounds: number;
  /**
   * Which changes the search follows: 'largest' (the default) follows, at
   * every split, the half whose change is larger, and names the other half's
   * change without searching it; 'all' follows every half that differs.
   */
  follow?: SearchFollow;
  /** How pooled log ratios become a verdict; default pairedDecide(unitTest, options). */
  decide?: Decide;
  /** Told after every pair is decided (progress, ETA). */
  onStep?: (step: StepRecord, state: SearchState) => void;
}

type SearchFollow = 'largest' | 'all';

/** Where the search stands, for an ETA: ranges still to split and the widest's length. */
export interface SearchState {
  stepsDone: number;
  /** Pair comparisons still expected, assuming one change per open range and no repeats. */
  stepsLeft: number;
}
