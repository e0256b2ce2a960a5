/**
 * The measurer contract: how one replicate of one unit is measured on every
 * arm. The run loop (loop.ts) owns the plan — which units, in which rounds,
 * in which order of arms, when to add rounds, saving, interrupts — and a
 * measurer owns how the numbers are taken: live processes sampled in turn
 * (lockstep), one fresh process per arm (processes), or a program or server
 * timed from outside (host-timed). Every measurer yields round records of the
 * run schema, so the statistics and reports read them alike.
 */
import type { CaseListing } from '@rtbench/core/protocol';
import type { Failure, RoundRecord } from '@rtbench/core/schema';
import type { RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';

/** One variant ready to run: its plug-in, binary, translated flags and its runtime's bundle of the suite. */
export interface Arm {
  id: string;
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
  /** The variant's engine flags in rtbench's syntax, before translation (a measurer may add its own). */
  variantFlags: readonly string[];
  bundlePath: string;
}

/** What one replicate measures: one case, or one host-timed measurement that feeds several cases (requests/s, p50, p99). */
export interface Unit {
  key: string;
  cases: readonly CaseListing[];
}

export type CaseOutcome =
  | { kind: 'round'; record: RoundRecord }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'failure'; failure: Omit<Failure, 'round'> };

/** One arm's share of a replicate. */
export interface ArmResult {
  armId: string;
  /** One outcome per case of the unit, in the unit's order. */
  outcomes: CaseOutcome[];
  /** What the case said about itself (ctx.warn), reported once per case and variant. */
  warnings: string[];
  /** For the progress line, when the value is not a time per op ("812 ms", "12.3K req/s"). */
  text?: string;
  /** ms of timed batches in this arm's samples (in-runtime timing), for the run's timed share. */
  timedMs?: number;
}

export interface ReplicateContext {
  /** The replicate's index (a round, or a lockstep set). */
  round: number;
  signal?: AbortSignal;
  /** Called as each arm's work starts (progress). */
  onArmStart?(arm: Arm): void;
}

/** A failure known only once a set's processes ended (a crash after a case's result): that case's round of the set is failed. */
export interface LateFailure {
  unitKey: string;
  armId: string;
  round: number;
  failure: Omit<Failure, 'round'>;
}

/** The names a measurer goes by on the command line (--schedule, --measure) and in a saved run. */
export type MeasurerName = 'lockstep' | 'lockstep-per-case' | 'processes' | 'instructions' | 'host-timed';

/**
 * What a measurer is, beside its code (each measurer's file declares its
 * own): the CLI's help and errors, and the saved run's options, are made
 * from these.
 */
export interface MeasurerDescriptor {
  readonly name: MeasurerName;
  /** What one sample is: "time per operation". */
  readonly measures: string;
  /** What it needs beyond the runtimes, when it needs something ("valgrind"). */
  readonly needs?: string;
  /** How it measures, in one sentence for --help. */
  readonly help: string;
}

export interface Measurer {
  readonly descriptor: MeasurerDescriptor;
  /** Measures one replicate of `unit` on `arms`, given in the schedule's order for this round. */
  replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]>;
  /**
   * Present when processes live across the units of a set (warm lockstep):
   * the loop then runs each set's units in a shuffled order and calls this
   * after the set's last unit; processes that served their last set end,
   * and what is learned only then comes back as late failures.
   */
  endSet?(): Promise<LateFailure[]>;
  /** Present when processes may live across sets: ends those still running after the run's last set (the loop calls it once, before dispose). */
  endRun?(): Promise<LateFailure[]>;
  /**
   * With endSet: 'fixed' runs every set's units in the plan's order instead of
   * a shuffled one (instruction counts: a process then does the same work in
   * every set, so what ran before a case is the same in every round).
   */
  readonly setOrder?: 'shuffled' | 'fixed';
  /** Releases what the measurer kept between replicates (prepared programs). */
  dispose?(): void;
}
