/**
 * The measurer contract: how one replicate of one unit is measured on every arm. The run loop
 * (loop.ts) owns the plan (units, rounds, arms' order, added rounds, saving, interrupts); a measurer
 * owns how the numbers are taken: live processes sampled in turn (lockstep), a fresh process per arm
 * (processes), a program or server timed from outside (host-timed), or counts (instructions). Its
 * descriptor carries its policy (how it is chosen, what a saved run records of it, its metric, needs,
 * defaults, verdict threshold and its description of how it measured), so the plan, the run, bench and
 * bisect ask it rather than its name; a new measurer is one file under measurers/ and one entry in
 * measurers/all.ts. Every measurer yields round records of the run schema, so statistics and reports
 * read them alike.
 */
import type { ArmPackages } from '@rtbench/core';
import type { CaseListing } from '@rtbench/core/protocol';
import type { Failure, MeasurerFields, Metric, RoundRecord, RunRecord } from '@rtbench/core/schema';
import type { MeasurerRecord } from '@rtbench/measurer-records';
import type { ResolvedVariant } from '@rtbench/runtime-registry';
import type { ProfileServing, RunnableVariant } from '@rtbench/host-timed';
import type { RuntimeTarget } from '@rtbench/runtime-kit';
import type { PlatformSupport } from '@rtbench/host/platform';
import type { Isolation, SuiteLocation } from '@rtbench/suite-loader';

/** One variant ready to run: its plug-in, binary, translated flags and its runtime's bundle of the suite. */
export interface Arm extends RunnableVariant {
  /** The variant's engine flags in rtbench's syntax, before translation (a measurer may add its own). */
  variantFlags: readonly string[];
  bundlePath: string;
  /** The versions of the packages the arm pinned or its suite installed for it, from its record (a request suite's server and handler are made for them). */
  packages?: ArmPackages;
}

/** What one replicate measures: one case, or one host-timed measurement that feeds several cases (requests/s, p50, p99). */
export interface Unit {
  key: string;
  cases: readonly CaseListing[];
}

export type CaseOutcome =
  /** `warnings`: said under this case alone (an arm's warnings go under every case of its unit). */
  | { kind: 'round'; record: RoundRecord; warnings?: readonly string[] }
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
  /** Every arm of the run in its variant order, the baseline first, whichever this replicate is given (a measurer that samples some of them per replicate picks from it). */
  runArms?: readonly Arm[];
  signal?: AbortSignal;
  /** Called as each arm's work starts (progress). */
  onArmStart?(arm: Arm): void;
  /**
   * Given to a measurer with `untimedStart`: called once per replicate, while
   * its processes set up and warm and before anything is timed. The loop
   * saves the run so far then, instead of between replicates, where every
   * process would wait for it.
   */
  whileUntimed?(): void;
  /** No replicate follows this one in the run (absent: one may): a measurer starts nothing ahead for a next one. */
  last?: true;
}

/** A failure known only once a set's processes ended (a crash after a case's result): that case's round of the set is failed. */
export interface LateFailure {
  unitKey: string;
  armId: string;
  round: number;
  failure: Omit<Failure, 'round'>;
}

/** What a measurer is built from: the run's options as the CLI planned them, what the run knows of its variants, and the measurer's own setup. */
export interface MeasurerSetup {
  /** Sampling time per case and arm in one round, in ms. */
  sampleTimeMs: number;
  warmupMs: number;
  warmupMinMs?: number;
  timeoutMs: number;
  /** What the views asked of the measurement (MeasurementNeed); the measurer maps each to its own setup. */
  needs?: readonly MeasurementNeed[];
  /** A table (bench) or a comparison (compare). */
  mode: 'bench' | 'compare';
  /** What the measurer's prepare() returned (its options and the tools it found), carried here unopened; absent: it has no prepare. */
  own?: unknown;
  /** The engines of the ready variants (a measurer may prepare something per engine). */
  engines: readonly RuntimeTarget['engine'][];
  /** The cases to measure, as listed (a measurer chosen by the suite reads its own kind of case from them). */
  cases: readonly CaseListing[];
  /** The round plan's rounds, and the sampling time over them, in ms. */
  rounds: number;
  timeMs: number;
  /** The program cache's folder (a measurer that prepares programs keeps them there). */
  programDir: string;
  /** Where the suite is (a measurer that prepares programs bundles them from it). */
  suite: SuiteLocation;
  /** Says one line to the user before the run (a preparation that failed but does not stop it). */
  warn(line: string): void;
}

/**
 * An option a measurer declares for itself (the CLI adds it to the commands
 * that run measurers, with its help; its value reaches the measurer's
 * prepare() as typed). The shape is the CLI's option shape, so no layer
 * between translates it.
 */
export interface MeasurerOption {
  /** Its name on the command line, without the dashes: "cache-sim". */
  readonly name: string;
  /** A flag takes no value; a value option takes one. */
  readonly kind: 'flag' | 'value';
  /** What its value is, for --help ("n"). */
  readonly value?: string;
  readonly help: string;
}

/** The value an option was given: as typed, or as a planner gave it. */
export type MeasurerOptionValue = string | number | boolean;

/** What prepare() is given: its own options' values, the kind of run, where helpers may be kept. */
export interface PrepareContext {
  /** The values of its own options that were given, by option name ("cache-sim"). */
  readonly given: Readonly<Record<string, MeasurerOptionValue>>;
  /** A table (bench) or a comparison (compare): the measurer's defaults for that kind. */
  readonly mode: 'bench' | 'compare';
  /** A folder the measurer may build and keep helpers in (rtbench's cache). */
  readonly cacheDir: string;
  /**
   * A planner's ask, in no measurer's words: consecutive rounds one process
   * may serve (1: every round is an independent process pair). A measurer
   * whose processes can serve several rounds maps it to its own setup (an
   * option given on the command line wins); the others have nothing to map.
   */
  readonly roundsPerProcess?: number;
}

/** What a measurer prepared before the run: its setup, carried to build() unopened, and what the saved run records of it. */
export interface PreparedMeasurer {
  /** Given to build() as MeasurerSetup.own: no layer between opens it. */
  readonly setup?: unknown;
  /** Its own fields in the saved run's measurer block (lockstep: how many sets a process served). */
  readonly fields?: MeasurerFields;
  /**
   * Consecutive rounds that share one process per arm, so count as one
   * independent pair in an interval (absent: 1): the plan words a design too
   * small for an interval from it without knowing which option set it.
   */
  readonly roundsPerProcess?: number;
}

/**
 * What a view asks of the measurement beyond its samples, which each
 * measurer maps to its own setup or ignores: 'settled-memory', resident
 * memory read after a full collection (the memory view; lockstep collects
 * before a case's first sample); 'collection-counts', the engine's
 * collections counted where a runtime counts them only in a log (the GC
 * view: the timing measurers' jobs say `collectionLog`).
 */
export type MeasurementNeed = 'settled-memory' | 'collection-counts';

/** What one round of a unit serves on one arm, where a round is a whole server (request cases). */
export interface ServedRound {
  /** Requests to the handler: the least a round sends and the most (equal: a count served whole). */
  requests: { least: number; most: number };
  /** The handler's requests kept in flight together. */
  concurrency: number;
  /** Requests to the empty handler besides, one at a time. */
  emptyRequests: number;
  /** Past this much serving (ms from the first request) the round stops once it sent the least; absent: its count is served whole. */
  withinMs?: number;
}

/** Thrown by prepare() for options or tools it cannot work with: its message is the one line the user reads. */
export class MeasurerRefused extends Error {}

/** A measurer built for a run: what it measures with, its units, and what the saved run says of it beyond its kind. */
export interface BuiltMeasurer {
  measurer: Measurer;
  /** What one replicate measures; absent: one unit per case. */
  units?: Unit[];
  /** The run's options as the measurer ran them, where they differ from the plan's (a load round's real length). */
  recordOptions?: Partial<Pick<RunRecord['options'], 'timeMs' | 'warmupMs'>>;
  /** Its own fields, known once built, added to the measurer block (instruction counts: the engine flags added). */
  fields?: MeasurerFields;
  /** The run's cases as recorded, when the measurer gives them a metric; absent: as listed, with the descriptor's metric if any. */
  cases?: RunRecord['cases'];
  /**
   * Present when the measurer prepares its own programs instead of running
   * the suite's bundle in each runtime: the hashes of the code it runs per
   * runtime (the saved run's suiteCode); the arms then carry no bundle.
   */
  ownCode?(arms: readonly Arm[]): Promise<NonNullable<RunRecord['suiteCode']>>;
}

/** A measurer's defaults for one kind of run: a table (bench) or a comparison's verdicts (compare). */
interface RunDefaults {
  /** Sampling time per case and arm over the rounds (--time), and the warmup's floor (--warmup). */
  readonly time: string;
  readonly warmup: string;
  readonly rounds: number;
  /**
   * When rounds are added while an interval is wide: 'unless-fixed' (unless
   * --rounds is given), 'when-asked' (--target, --max-rounds or --max-time),
   * 'never' (a fixed number of rounds; those options are refused).
   */
  readonly adaptive: 'unless-fixed' | 'when-asked' | 'never';
  /** Adaptive: the interval's half-width to reach, the most rounds, the wall time after which no round starts. */
  readonly target: number;
  readonly maxRounds: number;
  readonly maxTime?: string;
  /** The per-process limit when --timeout is not given; absent: 20 times what one process is asked to run. */
  readonly timeout?: string;
}

/** A measurer's own policy: its defaults for a table and a comparison (its verdicts' parameters are its record's). */
export interface MeasurerDefaults {
  readonly bench: RunDefaults;
  readonly compare: RunDefaults;
}

/**
 * What a measurer is, beside its code (each measurer's file declares its
 * own): the CLI's choices, help, errors and defaults, and the saved run's
 * options, are made from these.
 */
export interface MeasurerDescriptor {
  /** Its name on the command line. */
  readonly name: string;
  /** How it is chosen: --schedule (how time is taken), --measure (what is measured), or by the suite (its cases say, through owns()). */
  readonly chosenBy: 'schedule' | 'measure' | 'suite';
  /** Chosen by the suite: whether it measures these cases (every one of them is of its kind). */
  owns?(cases: readonly CaseListing[]): boolean;
  /** Chosen by the suite: what such a suite is, for the lines that refuse options meant for in-runtime cases ("timed by the host (start-up, HTTP load)"). */
  readonly suiteKind?: string;
  /** What a saved run records of it, and how such a run is read and worded (measurer-records). */
  readonly record: MeasurerRecord;
  /** What one sample is: "time per operation". */
  readonly measures: string;
  /** The metric its samples are in, when not time per operation (a saved run gives it to every case). */
  readonly metric?: Metric;
  /** What it needs beyond the runtimes, in words for --help ("valgrind"); its prepare() finds it. */
  readonly needs?: string;
  /** The platforms it works on, and the sentence (why, and what to do instead) that refuses it elsewhere before anything runs. */
  readonly platforms: PlatformSupport;
  /** Its own options on the command line; their values reach prepare() as given. */
  readonly options?: readonly MeasurerOption[];
  /**
   * Finds the tools it needs and turns its options' values into its setup,
   * before anything is resolved or run; throws MeasurerRefused with one line
   * when it cannot. Absent: it needs nothing of its own.
   */
  prepare?(context: PrepareContext): PreparedMeasurer;
  /** The isolation it gives a case, when a brought file's format asks for one: 'process-per-case' (no case shares a process with another, and every set starts fresh ones, as Node core's compare.js does). */
  readonly isolation?: Isolation;
  /** Whether its cases run in the in-runtime loop, which warms them (an adaptive warmup's floor is then recorded, and profiles can be taken of them). */
  readonly warmsInRuntime: boolean;
  /** Its figure is time per call in the in-runtime loop, which bench --self-check holds against the same case alone and in a long loop. */
  readonly timesCalls?: true;
  /** Its processes call a case back to back, each of its own: time over calls across its samples is a long loop's figure (bench --self-check's loop). */
  readonly callsBackToBack?: true;
  /** Whether its cases are served by a server it starts, which a CPU profile can be taken of (request cases: Measurer.profileServing). */
  readonly profilesServers?: true;
  /**
   * With profilesServers: what a round of each unit serves on one arm, in the
   * unit's order (the time said before a run is reckoned from it, since a
   * round is a whole server whose pace the plan's time does not set).
   */
  servedRounds?(cases: readonly CaseListing[], setup: Pick<MeasurerSetup, 'warmupMinMs' | 'own'>): readonly ServedRound[];
  /** How it measures, in one sentence for --help. */
  readonly help: string;
  /** Its defaults for a table and a comparison. */
  readonly defaults: MeasurerDefaults;
  /**
   * How many rounds give each arm of a run of `arms` arms one process pair
   * (a duet seats two arms a round: arms − 1). The plan counts --rounds,
   * --max-rounds and --time per arm and runs this many times as many rounds
   * (schedule.ts roundsPerArm). Absent: every round samples every arm.
   */
  roundsPerPair?(arms: number): number;
  /** Why it cannot measure this variant (its runtime or engine lacks what it needs); undefined when it can. */
  refuses?(variant: ResolvedVariant): string | undefined;
  /** The measurer for a run. */
  build(setup: MeasurerSetup): BuiltMeasurer;
}

export interface Measurer {
  readonly descriptor: MeasurerDescriptor;
  /** Measures one replicate of `unit` on `arms`, given in the schedule's order for this round; an arm it leaves out of its results sat this replicate out. */
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
  /** With descriptor.profilesServers: the server a unit's cases are served by on an arm, as a CPU profile serves it, or why that arm cannot serve it. */
  profileServing?(unit: Unit, arm: Arm): Promise<ProfileServing | { unsupported: string } | { error: string }>;
  /** replicate() calls context.whileUntimed once, before its first timed work (lockstep: the processes warm first). */
  readonly untimedStart?: true;
}
