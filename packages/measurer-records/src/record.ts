/**
 * What a saved run records of its measurer, and how it reads and words
 * itself from that alone: the measurer's descriptor (measurers) holds it as
 * its `record`, and the saved-run loader reads it from this package's list
 * (saved.ts), so loading and reporting a run loads no measuring code.
 */
import type { MeasuredBy, MeasurerFields, MeasurerKind, RunRecord } from '@rtbench/core/schema';
import type { ZodType } from 'zod';

/** View options a saved run may bring with it: the CPU limit per request whose share of requests over it is shown. */
export interface ShownWith {
  cpuLimitMs?: number;
}

/** What a verdict's threshold rule reads of an engine: the count threshold it declares (runtime-kit's EngineDescriptor). */
export interface EngineThresholds {
  readonly counting?: { readonly threshold: number };
}

/**
 * A measurer's verdicts' parameters (the test is every measurer's: stats' paired comparison of log ratios, a Student
 * t interval): its threshold for variants of these engines (undefined: an engine not known) and the confidence.
 */
export interface VerdictDefaults {
  threshold(engines: readonly (EngineThresholds | undefined)[]): number;
  readonly confidence: number;
}

/**
 * What a saved run records of a measurer: its kind, fields every run of it
 * records, and the schema of its own fields, which validates them when a run
 * is loaded (runs saved before the block kept them among the run's options:
 * read through `older`); how such a run was measured, in its words. Its
 * prepare() and build() may add fields (their `record`).
 */
export interface MeasurerRecord {
  /** The kind a saved run names (the two lockstep schedules are one). */
  readonly kind: MeasurerKind;
  /** Fields every run of it records (lockstep: how its processes were held). */
  readonly fields?: MeasurerFields;
  /** Its own fields' schema; absent: it records none beyond its kind. */
  readonly schema?: ZodType<MeasurerFields>;
  /** The blocks its rounds hold beyond the fields every round has, each by its name with its schema (a duet round's core); validated when a run is loaded. */
  readonly rounds?: Readonly<Record<string, ZodType>>;
  /** A run saved before the block: its fields as they stood among the run's options; undefined when it kept none. */
  older?(options: Readonly<Record<string, unknown>>): MeasurerFields | undefined;
  /** The option names `older` reads (they are no longer the run's options). */
  readonly olderKeys?: readonly string[];
  /** What a saved run's record cannot say that its analysis assumes (rounds that shared processes, unlabelled), as notes. */
  doubts?(run: RunRecord): string[];
  /** View options a run with these fields is shown with unless the command line gives its own (runs saved when the CPU limit was the measurer's). */
  shownWith?(fields: MeasurerFields): ShownWith;
  /** Its verdicts' threshold rule and confidence. */
  readonly verdict: VerdictDefaults;
  /** How a run with these options was measured, in its words: the run saves it, reports print it, and an older run that saved none is worded by it. */
  describe(options: RunRecord['options']): MeasuredBy;
  /** The untimed run-up each sample was asked to have, in ms (--run-up or a suite's runUp), where the run recorded one. */
  runUpMs?(fields: MeasurerFields): number | undefined;
}
