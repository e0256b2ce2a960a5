/**
 * Lockstep: a replicate of a case is a set of live processes, one per arm,
 * warmed together, then asked for one sample each in turn, the order rotating
 * every turn, so neighbouring samples of different arms are milliseconds apart
 * and share the machine's state (docs/measurements/two-speed-noise.md). The set's paired
 * ratio is the Hodges–Lehmann estimate over its turns (stats' pairRounds).
 * The default: every case has processes of its own, one per arm, started
 * while the case before it warms up, which serve it in setsPerProcess sets
 * (a comparison's default, 2: timing-defaults.ts) and end. Shared
 * (lockstep-shared): one process per arm serves every case of a set, in an
 * order shuffled per set. Per case (lockstep-per-case): a process per arm
 * and case started as the case opens. Why and what was measured:
 * docs/lockstep.md.
 */
import type { MeasureOptions } from '@rtbench/core/measure';
import { pacedJob, type CaseResultMessage, type ErrorMessage, type Job, type ReadyMessage } from '@rtbench/core/protocol';
import type { MeasurerFields, RoundRecord } from '@rtbench/core/schema';
import { lockstepOf, LOCKSTEP_RECORD, type LockstepRound } from '@rtbench/measurer-records';
import { cpuNsBetween, scheduleBetween, type CpuBetween, type JobOutcome, type LiveCase, type SampleReading, type WarmProcess } from '@rtbench/process';
import { leftBehindWarning } from '@rtbench/process';
import { EVERY_PLATFORM } from '@rtbench/host/platform';
import { runtimePlugins } from '@rtbench/runtime-registry';
import type { TranslatedFlags } from '@rtbench/runtime-kit';
import type { Arm, ArmResult, LateFailure, Measurer, MeasurerDescriptor, MeasurerOption, MeasurerSetup, PrepareContext, PreparedMeasurer, ReplicateContext, Unit } from '../measurer.ts';
import { collectsBeforeSampling, givenDurationMs, givenWholeNumber, isSmoke, SMOKE_SAMPLES, smokeSized, timedMeasureOptions, type TimedSetup } from './measure-options.ts';
import { corroborate, wantsQuietExchange } from './corroborate.ts';
import { armResultOf, crashAfterLastAnswer, timedMsOf } from './judge.ts';
import { capStack, capText } from '../case-text.ts';
import { WarmPool, type ClosedOutcome } from './warm-pool.ts';
import { TierUpHorizons, withSteadyRule, type ToldRate } from './steady-rule.ts';
import { TIMING_DEFAULTS } from './timing-defaults.ts';
import { RUN_UP_OPTION as RUN_UP } from '@rtbench/core/suite';

export interface LockstepOptions {
  /** Warmup (adaptive when warmupMinMs is set) and the sample length, as in a fresh process. */
  measure: MeasureOptions;
  /** Sampling time each arm gets in one set, in ms: sets the number of turns. */
  sampleTimeMs: number;
  /** Turns per set at least / at most, whatever the samples' length. */
  minTurns: number;
  maxTurns: number;
  timeoutMs: number;
  /**
   * Warm processes: how many consecutive sets one process serves (default 1).
   * Past the first, each case is kept set up and warm between its sets and
   * only rewarmed (core measure.ts REWARM_MS), so its full warmup is paid once
   * per process instead of once per set.
   */
  setsPerProcess?: number;
  /**
   * Warm processes that each serve one case (--schedule lockstep, and
   * lockstep-per-case with --sets-per-process > 1): a case never shares a
   * process with another case, and warms up fully once per process.
   */
  processPerCase?: boolean;
  /**
   * With processPerCase: while a case warms up, each arm's process for the
   * next case starts and loads the suite, so that case finds it waiting; the
   * samples wait until it has loaded and sits idle.
   */
  startAhead?: boolean;
  /** Each sample's untimed run-up lasts at least this long, in ms (--run-up): the set's sampling cap and the host's corroboration allow for it. */
  runUpMs?: number;
}

/**
 * Turns per lockstep set: at least this many, whatever the sampling time. A
 * set's paired ratio is an estimate over its turns, and long operations with
 * few turns spread widely between sets (docs/measurements/lockstep.md, "Long operations").
 * A table takes fewer (LOCKSTEP_OWN below).
 */
const MIN_TURNS = 12;
const MAX_TURNS = 10_000;

/** Lockstep's own setup, which its prepare() makes from --sets-per-process, --run-up and the kind of run. */
export interface LockstepSetup {
  /** Turns per set at least. */
  minTurns: number;
  /** Consecutive sets one process serves; absent: one. */
  setsPerProcess?: number;
  /** Each sample's untimed run-up lasts at least this long, in ms (--run-up); absent: the run-up's own rule. */
  runUpMs?: number;
}

/**
 * Lockstep's own defaults per kind of run: a table's long operations take 8
 * turns at least and one set per process, a comparison's 12 and two sets per
 * warm process (timing-defaults.ts says why).
 */
export const LOCKSTEP_OWN = { bench: { minTurns: 8, setsPerProcess: 1 }, compare: { minTurns: MIN_TURNS, setsPerProcess: 2 } } as const;

/** Lockstep's own option by its name. */
const SETS_PER_PROCESS = 'sets-per-process';

const SETS_PER_PROCESS_OPTION: MeasurerOption = {
  name: SETS_PER_PROCESS,
  kind: 'value',
  value: 'n',
  help: `With --schedule lockstep: one process per runtime serves this many sets in a row, its cases kept warm between them (a full collection before each case), so a case warms up fully once per process (with lockstep-per-case: one process per runtime and case, 1 by default); sets that share processes count as one process pair in every interval (docs/comparing.md) (default ${LOCKSTEP_OWN.bench.setsPerProcess}; --compare ${LOCKSTEP_OWN.compare.setsPerProcess})`,
};

const RUN_UP_OPTION: MeasurerOption = {
  name: RUN_UP,
  kind: 'value',
  value: 'duration',
  help: "With a lockstep schedule: before each sample, run the case untimed for at least this long (e.g. 150ms). V8 sizes its heap by the program's allocation rate in wall time, and a process that waited its turn reads as a slow allocator and collects more; about 150 ms of running restores a long loop's rate (docs/lockstep.md, \"A longer run-up\"). Costs that much machine time per sample (default: the run-up's own rule, a quarter or a whole batch)",
};

/** Lockstep's setup from its options: warm processes serve the kind of run's sets by default, a process per case only when asked. */
function prepareLockstep(context: PrepareContext, setsByDefault: boolean): PreparedMeasurer {
  const own = LOCKSTEP_OWN[context.mode];
  const setsPerProcess = givenWholeNumber(context, SETS_PER_PROCESS) ?? context.roundsPerProcess ?? (setsByDefault ? own.setsPerProcess : undefined);
  const runUpMs = givenDurationMs(context, RUN_UP);
  const setup: LockstepSetup = { minTurns: own.minTurns, ...(setsPerProcess !== undefined ? { setsPerProcess } : {}), ...(runUpMs !== undefined ? { runUpMs } : {}) };
  return { setup, ...(setsPerProcess !== undefined ? { fields: { setsPerProcess }, roundsPerProcess: setsPerProcess } : {}) };
}

/** The setup prepare() made; a build without one (a test's) takes a comparison's turns and one set per process. */
function lockstepSetupOf(setup: MeasurerSetup): LockstepSetup {
  return (setup.own as LockstepSetup | undefined) ?? { minTurns: MIN_TURNS };
}

/** A set's turns: from the sampling time within the kind of run's bounds; a smoke run's, SMOKE_SAMPLES exactly (measure-options.ts smokeSized). */
export function lockstepOptions(setup: TimedSetup, own: LockstepSetup): LockstepOptions {
  const smoke = smokeSized(setup);
  const measure = timedMeasureOptions(setup);
  // The run-up's time asked goes with samples grown to span the case (run-up.ts decides it there).
  const runUpMs = measure.amortize ? own.runUpMs : undefined;
  return {
    measure: runUpMs !== undefined ? { ...measure, runUpMs } : measure,
    sampleTimeMs: setup.sampleTimeMs,
    minTurns: smoke ? SMOKE_SAMPLES : own.minTurns,
    maxTurns: smoke ? SMOKE_SAMPLES : MAX_TURNS,
    timeoutMs: setup.timeoutMs,
    ...(own.setsPerProcess !== undefined ? { setsPerProcess: own.setsPerProcess } : {}),
    ...(runUpMs !== undefined ? { runUpMs } : {}),
  };
}

/**
 * The record says the processes collected before sampling, when the memory
 * view's need made them, and that a fixed warmup's run was a smoke run (its
 * samples not grown, SMOKE_SAMPLES of them: measure-options.ts).
 */
export function collectedFields(setup: Pick<MeasurerSetup, 'needs' | 'warmupMinMs'>): { fields?: MeasurerFields } {
  const fields: MeasurerFields = {
    ...(collectsBeforeSampling(setup) ? { collectBeforeSampling: true } : {}),
    ...(isSmoke(setup) ? { smoke: true } : {}),
    ...(smokeSized(setup) ? { smokeSamples: SMOKE_SAMPLES } : {}),
  };
  return Object.keys(fields).length ? { fields } : {};
}

/** What the three lockstep schedules share: chosen by --schedule, timed calls, their one option and the timing defaults. */
const LOCKSTEP_KIND = {
  chosenBy: 'schedule',
  platforms: EVERY_PLATFORM,
  measures: 'time per operation',
  timesCalls: true,
  options: [SETS_PER_PROCESS_OPTION, RUN_UP_OPTION],
  warmsInRuntime: true,
  defaults: TIMING_DEFAULTS,
} as const satisfies Partial<MeasurerDescriptor>;

// Every kind warms the case together in every process, then takes one sample each in turn (order rotating every turn, an untimed run-up before each sample: a quarter batch, a whole one once the sample grew to hold collections, at least the time --run-up or the suite asks: core run-up.ts, recorded in each round's span).
// The default gives every case processes of its own, so that a cell is a property of its case and runtime: a process
// that served other cases hands the next one their heap, the engine's sizing of its young generation and their compiled
// code (docs/lockstep.md, "A case's own processes"); the next case's processes start while this one warms up, so the
// isolation costs no start-up time between cases.
export const LOCKSTEP: MeasurerDescriptor = {
  ...LOCKSTEP_KIND,
  name: 'lockstep',
  record: { ...LOCKSTEP_RECORD, fields: { processes: 'per-case', startedAhead: true } },
  prepare: (context) => prepareLockstep(context, true),
  help: "per round live processes of each case's own, one per runtime (started while the case before warms up), sampled in turn",
  build: (setup) => ({ measurer: warmLockstepMeasurer({ ...lockstepOptions(setup, lockstepSetupOf(setup)), processPerCase: true, startAhead: true }), ...lockstepRecordFields(setup) }),
};
export const LOCKSTEP_PER_CASE: MeasurerDescriptor = {
  ...LOCKSTEP_KIND,
  name: 'lockstep-per-case',
  record: { ...LOCKSTEP_RECORD, fields: { processes: 'per-case' } },
  prepare: (context) => prepareLockstep(context, false),
  isolation: 'process-per-case',
  help: 'the same, each process started as its case opens and fresh every round unless --sets-per-process says otherwise',
  // A process per case: fresh every set, or warm for several sets of its one case.
  build(setup) {
    const options = lockstepOptions(setup, lockstepSetupOf(setup));
    return { measurer: (options.setsPerProcess ?? 1) > 1 ? warmLockstepMeasurer({ ...options, processPerCase: true }) : lockstepMeasurer(options), ...lockstepRecordFields(setup) };
  },
};
// One process per runtime serves every case of a set: the cases share its heap, the engine's sizing and compiled code.
// Kept to show what that company does to a cell (docs/measurements/independence.md), and for runs that want the older design.
export const LOCKSTEP_SHARED: MeasurerDescriptor = {
  ...LOCKSTEP_KIND,
  name: 'lockstep-shared',
  record: { ...LOCKSTEP_RECORD, fields: { processes: 'warm' } },
  prepare: (context) => prepareLockstep(context, true),
  help: 'per round one warm process per runtime that serves every case in a shuffled order (the cases share its heap and compiled code), sampled in turn',
  build: (setup) => ({ measurer: warmLockstepMeasurer(lockstepOptions(setup, lockstepSetupOf(setup))), ...lockstepRecordFields(setup) }),
};

/**
 * A set's sampling stops once it took this many times its arms' sampling
 * time (--time over --rounds, per arm): on a loaded machine the uncapped
 * minimum of turns stretched a default run (docs/measurements/lockstep.md, "Long operations")…
 */
const SAMPLING_CAP_FACTOR = 3;
/** …but not before this many turns. */
const LOADED_MIN_TURNS = 5;

/**
 * Whether a set takes turn number `turn` (from 0): while it is short of its
 * planned turns, and, past LOADED_MIN_TURNS, while its sampling has taken no
 * more than SAMPLING_CAP_FACTOR times the sampling time of its live arms.
 */
export function takesTurn(turn: number, plannedTurns: number, elapsedMs: number, options: Pick<LockstepOptions, 'sampleTimeMs' | 'runUpMs'>, liveArms: number): boolean {
  if (turn >= plannedTurns) return false;
  // The run-up asked (--run-up) is time the set was told to spend: the cap holds only the rest.
  const runUpsMs = turn * liveArms * (options.runUpMs ?? 0);
  return turn < LOADED_MIN_TURNS || elapsedMs - runUpsMs <= SAMPLING_CAP_FACTOR * options.sampleTimeMs * liveArms;
}

/** The most turns a set takes beyond its planned ones while an arm's exchanges are all too loaded to corroborate it (sampleInTurn). */
const MOST_ADDED_TURNS = 12;

/** A set whose longest sample was raised to the floor takes at least this many turns: a paired ratio over one turn is one pair. */
const FLOORED_MIN_TURNS = 2;

/** What a set's turns are planned from, per arm, as its ready message says it: the sample's expected length, and its span (flooredBy: how many of the span's batches a sample raised to the floor holds). */
export type PlannedSample = Pick<ReadyMessage, 'batchNs' | 'span'>;

/**
 * How many turns a set takes: the sampling time over the longest arm's
 * sample, at least minTurns. A longest sample raised to the floor (core
 * amortize.ts SAMPLE_FLOOR_MS) already holds `flooredBy` of the batches
 * minTurns counts, so its minimum is minTurns of those batches, and
 * FLOORED_MIN_TURNS turns at least.
 */
export function turnsFor(options: Pick<LockstepOptions, 'sampleTimeMs' | 'minTurns' | 'maxTurns'>, samples: readonly PlannedSample[]): number {
  let longest: PlannedSample = { batchNs: 1 };
  for (const s of samples) if (s.batchNs > longest.batchNs) longest = s;
  const flooredBy = longest.span?.flooredBy ?? 1;
  const minimum = flooredBy > 1 ? Math.max(FLOORED_MIN_TURNS, Math.ceil(options.minTurns / flooredBy)) : options.minTurns;
  const turns = Math.ceil((options.sampleTimeMs * 1e6) / longest.batchNs);
  return Math.min(options.maxTurns, Math.max(minimum, turns));
}

/** An arm's sample in one turn: its place in the turn's order (0 for all when asked together), and what it answered (undefined: it answered the case or ended instead). */
export interface TurnSample {
  arm: number;
  position: number;
  reading: SampleReading | undefined;
}

/**
 * One turn over the live arms (indices into `cases`): one after another in an
 * order rotated by one every turn, so every arm holds every position equally
 * often; or, `together`, every command written before any answer is awaited,
 * so the arms' windows open within microseconds of each other.
 */
export async function takeTurn(cases: readonly Pick<LiveCase, 'sample'>[], live: readonly number[], turn: number, together: boolean): Promise<TurnSample[]> {
  if (together) {
    const got = await Promise.all(live.map((i) => cases[i]!.sample()));
    return live.map((arm, k) => ({ arm, position: 0, reading: got[k] }));
  }
  const order = [...live.slice(turn % live.length), ...live.slice(0, turn % live.length)];
  const out: TurnSample[] = [];
  for (const [position, arm] of order.entries()) out.push({ arm, position, reading: await cases[arm]!.sample() });
  return out;
}

/** How a set is run beyond its cases: what the host waits for before the first turn, whether its arms sample at once, when it began. */
interface SetRun {
  /** Resolves once nothing else of the host's runs (processes ending, the next case's loading). */
  quiet?: () => Promise<void>;
  /** The arms sample at the same time (seated on cores of their own). */
  together?: boolean;
  /** performance.now() when the host turned to the set, before it took or started its processes and opened the case. */
  begunAt?: number;
}

/**
 * One case on live processes, one per arm, already asked to set it up: wait
 * for them to be ready, take the turns, finish, and judge each arm's answer
 * (every sample it was asked for, in turn order, corroborated by the host's
 * clock). `together`: each turn asks every arm at once and reads every
 * answer (duet.ts: each arm on a core of its own), instead of one after
 * another.
 */
async function sampleInTurn(
  cases: readonly LiveCase[],
  arms: readonly Arm[],
  options: LockstepOptions,
  context: ReplicateContext,
  { quiet, together = false, begunAt }: SetRun = {},
): Promise<{ results: ArmResult[]; outcomes: JobOutcome[] }> {
  // The opening ends as the processes have their case, before the host's own work, which goes here (not between sets).
  const openingUs = begunAt !== undefined ? usOf((performance.now() - begunAt) * 1e6) : undefined;
  context.whileUntimed?.();
  const opened = performance.now();
  const ready = await Promise.all(cases.map((s) => s.ready));
  const readyAt = performance.now();
  // Nothing else of ours runs while the arms take their samples (a previous set's processes still ending).
  await quiet?.();
  // The host's time before each stretch is kept with the set's rounds, so a run says what its sets cost beyond their samples (where-time-goes).
  const waits = {
    ...(openingUs !== undefined ? { openingUs } : {}),
    readyWaitUs: usOf((readyAt - opened) * 1e6),
    quietWaitUs: usOf((performance.now() - readyAt) * 1e6),
  };
  let live = arms.map((_, i) => i).filter((i) => ready[i] !== undefined);
  const positions: number[][] = arms.map(() => []);
  const readings: SampleReading[][] = arms.map(() => []);
  const turns = turnsFor(options, live.map((i) => ready[i]!));
  // The turns are planned from the fastest warmup batch and a minimum that gives long operations more than their
  // sampling time; a set stops early (after LOADED_MIN_TURNS at least) once its sampling took SAMPLING_CAP_FACTOR
  // times the sampling time of its arms, so neither a loaded machine nor a long operation stretches a run without bound.
  const started = performance.now();
  // Arms sampled together take the sampling time of one.
  const armsAtStart = together ? 1 : live.length;
  // Each process's CPU time over its set, read from outside: what its samples are held against (corroborate.ts).
  const cpuAtStart = cases.map((s) => s.cpuTimes());
  const ownAtStart = cases.map((s) => s.mainThreadSchedule());
  const emulators = cases.map((s) => s.emulator());
  let turn = 0;
  const takeOne = async (): Promise<void> => {
    const gone: number[] = [];
    for (const { arm: i, position, reading } of await takeTurn(cases, live, turn++, together)) {
      if (reading === undefined) gone.push(i);
      else {
        positions[i]!.push(position);
        readings[i]!.push(reading);
      }
    }
    if (gone.length) live = live.filter((i) => !gone.includes(i));
  };
  while (live.length && !context.signal?.aborted && takesTurn(turn, turns, performance.now() - started, options, armsAtStart)) await takeOne();
  // A loaded machine can stretch every exchange of a short set with waits outside its spans, so that neither the CPU
  // share nor the spans tell its figures from shrunk ones: the set takes more turns until each arm has an exchange
  // quiet enough to (corroborate.ts QUIET_SPAN_SHARE), MOST_ADDED_TURNS at most.
  let addedTurns = 0;
  const wantsMore = (): boolean => live.some((i) => wantsQuietExchange(readings[i]!, emulators[i]));
  for (; addedTurns < MOST_ADDED_TURNS && live.length && !context.signal?.aborted && wantsMore(); addedTurns++) await takeOne();
  // What every arm's lockstep block says of the set: the host's waits before it, and the turns it added.
  const setFields = { ...waits, ...(addedTurns ? { addedTurns } : {}) };
  const cpu = cases.map((s, i) => cpuNsBetween(cpuAtStart[i], s.cpuTimes()));
  // The process's own main thread over the set: where each exchange's CPU was read (SampleReading.mainThreadNs).
  const own = cases.map((s, i) => scheduleBetween(ownAtStart[i], s.mainThreadSchedule()));
  const outcomes = await Promise.all(cases.map((s) => s.finish()));
  const results = arms.map((arm, i) => {
    const host = hostRecord(readings[i]!, cpu[i], emulators[i]);
    const result = armResultOf(arm, outcomes[i]!, options.timeoutMs, context.round, i, { lockstep: { positions: positions[i]!, ...setFields, ...host } });
    const outcome = result.outcomes[0]!;
    if (outcome.kind !== 'round') return result;
    result.timedMs = timedMsOf(result);
    // The result repeats every sample the host asked for, in turn order; anything else breaks the pairing.
    if (outcome.record.samples.length !== positions[i]!.length) {
      result.outcomes[0] = {
        kind: 'failure',
        failure: { kind: 'error', message: `the ${arm.plugin.name} process answered with ${outcome.record.samples.length} samples after ${positions[i]!.length} turns` },
      };
      return result;
    }
    const memory = outcomes[i]!.memory;
    // The resident set after each sample, aligned with the samples (a reading that failed leaves none).
    if (memory) outcome.record.memory = memory.sampleBytes.length === outcome.record.samples.length ? memory : { ...memory, sampleBytes: [] };
    const doubt = corroborate(outcome.record, readings[i]!, { threadCpuNs: cpu[i]?.mainThreadNs, ownMainThread: own[i], emulator: emulators[i], runUpMs: options.runUpMs });
    if (doubt) result.outcomes[0] = { kind: 'failure', failure: { kind: 'error', message: `${arm.plugin.name}: ${doubt}` } };
    return result;
  });
  return { results, outcomes };
}

/** ns as µs to 0.1 µs, as a lockstep block keeps its host readings. */
const usOf = (ns: number): number => Math.round(ns / 100) / 10;

/** What the host saw of each sample and of the process's CPU over the set, kept with the samples (µs, to 0.1 µs). */
function hostRecord(
  readings: readonly SampleReading[],
  cpu: CpuBetween | undefined,
  emulator: string | undefined,
): Omit<LockstepRound, 'positions'> {
  if (!readings.length) return {};
  const spans = readings.every((r) => r.spanNs !== undefined) ? { spanUs: readings.map((r) => usOf(r.spanNs!)) } : {};
  return { hostWaitUs: readings.map((r) => usOf(r.waitedNs)), ...spans, ...(cpu ? { processCpuUs: usOf(cpu.totalNs), mainThreadCpuUs: usOf(cpu.mainThreadNs) } : {}), ...(emulator ? { emulator } : {}) };
}

/**
 * The arm's flags with those its engine needs for the harness to force a
 * full collection (EngineDescriptor.collectFlags), translated by its plug-in:
 * a lockstep process takes one before each case opens, before its first
 * sample (for the memory view) and after its last, outside every timed batch, so that the host's
 * readings of the resident set there hold no garbage (@rtbench/verdicts
 * memory-growth.ts) and each case starts from a collected heap.
 */
export function collectingFlags(arm: Pick<Arm, 'plugin' | 'flags' | 'variantFlags'>): TranslatedFlags {
  const added = (arm.plugin.engine.collectFlags ?? []).filter((flag) => !arm.variantFlags.includes(flag));
  if (!added.length) return arm.flags;
  const translated = arm.plugin.translateFlags([...arm.variantFlags, ...added]);
  // The variant's own environment (NODE_ENV=…) stays and wins, as when its flags were first translated.
  return { args: translated.args, env: { ...translated.env, ...arm.flags.env } };
}

/**
 * The record's fields of a lockstep run: collectedFields, and the environment the lockstep processes of each runtime
 * whose engine the run has start with (RuntimePlugin.waitingEnv), so a run says nothing of runtimes it did not start.
 */
function lockstepRecordFields(setup: MeasurerSetup): { fields?: MeasurerFields } {
  const ran = runtimePlugins().filter((p) => p.waitingEnv && setup.engines.includes(p.engine.id));
  const waiting = Object.fromEntries(ran.map((p) => [p.name, Object.entries(p.waitingEnv!).map(([k, v]) => `${k}=${v}`)]));
  // The run-up asked, where the samples had it (not a smoke run's, nor the memory view's).
  const { runUpMs } = lockstepOptions(setup, lockstepSetupOf(setup));
  const fields: MeasurerFields = { ...collectedFields(setup).fields, ...(Object.keys(waiting).length ? { waitingEnv: waiting } : {}), ...(runUpMs !== undefined ? { runUpMs } : {}) };
  return Object.keys(fields).length ? { fields } : {};
}

/** A fresh set of processes per case: each starts with a lockstep job for that one case. */
function lockstepMeasurer(options: LockstepOptions): Measurer {
  const horizons = new TierUpHorizons();
  return {
    descriptor: LOCKSTEP_PER_CASE,
    untimedStart: true,
    async replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
      const begunAt = performance.now();
      const caseId = unit.cases[0]!.id;
      // Start-up and warmup are not measured: the processes start together and warm up side by side, each until steady by its engine's rule;
      // so they load the bundle's code compiled by an earlier process where the runtime keeps it (runtime-kit code-cache.ts).
      const told = toldRates(horizons, caseId, arms);
      const sessions: LiveCase[] = arms.map((arm, i) => {
        context.onArmStart?.(arm);
        const job = pacedJob(caseId, withSteadyRule(options.measure, arm.plugin.engine.warmup, told[i]!.ns));
        return arm.plugin.startSession({ target: arm.target, flags: collectingFlags(arm), bundlePath: arm.bundlePath, job, timeoutMs: options.timeoutMs, codeCache: true, ...(context.signal ? { signal: context.signal } : {}) });
      });
      const { results } = await sampleInTurn(sessions, arms, options, context, { begunAt });
      learnHorizons(horizons, caseId, arms, results, told);
      return results;
    },
  };
}

/** Each arm's runtime as run (warmupKey) and the tier-up rate its process is told for this case. */
const toldRates = (horizons: TierUpHorizons, caseId: string, arms: readonly Arm[]): ToldRate[] => arms.map((arm) => horizons.told(caseId, arm));

/** What each arm's process found at the tier-up horizon with this case, for the next processes of its runtime. */
function learnHorizons(horizons: TierUpHorizons, caseId: string, arms: readonly Arm[], results: readonly ArmResult[], told: readonly ToldRate[]): void {
  results.forEach((result, i) => {
    const outcome = result.outcomes[0];
    if (outcome?.kind === 'round') horizons.learn(told[i]!.key, caseId, outcome.record, arms[i]!.plugin.engine.warmup, told[i]!.ns);
  });
}

/** A warm process and what the host knows of it. */
interface ServingProcess {
  process: WarmProcess;
  arm: Arm;
  served: Served[];
  /** This arm's processes numbered from 0 in the order they started. */
  index: number;
  /** Sets this process finished. */
  sets: number;
  /** Cases it served in the current set. */
  servedThisSet: number;
  /** Per case: how many times in a row this process served it and kept it warm (absent: not kept). */
  visits: Map<string, number>;
}

/** A case a warm process served: the record the loop keeps, and the result message it came from (metrics read on the host arrive when the process ends). */
interface Served {
  unitKey: string;
  caseId: string;
  round: number;
  record?: RoundRecord;
  message?: CaseResultMessage;
  /** The process ended during this case: what it left running was said with this case's result. */
  endedHere?: boolean;
}

/**
 * Kept cases whose teardown failed as their process closed (core execute.ts):
 * each fails the last set in which this process served that case, as a
 * teardown that fails during a set fails that set.
 */
function teardownsAtClose(errors: readonly ErrorMessage[], held: ServingProcess, armId: string): LateFailure[] {
  const late: LateFailure[] = [];
  for (const error of errors) {
    const last = held.served.findLast((s) => s.caseId === error.caseId && s.record);
    if (!last) continue;
    late.push({
      unitKey: last.unitKey,
      armId,
      round: last.round,
      failure: { kind: 'error', phase: 'teardown', message: `teardown failed as the warm ${held.arm.plugin.name} process closed: ${capText(error.message)}`, ...(error.stack ? { stack: capStack(error.stack) } : {}) },
    });
  }
  return late;
}

/** A warm process's whole life is bounded by this many case timeouts; each case has its own. */
const WARM_PROCESS_TIMEOUTS = 1_000;

/** Where an arm of a seated replicate runs: the core its process is pinned to, and the arm sampled beside it. */
export interface Seat {
  readonly arm: Arm;
  readonly core: number;
  readonly partner?: string;
}

/**
 * Arms sampled together, each on a core of its own (duet.ts): the measurer
 * it is, which of the given arms a replicate samples and where, and how a
 * process is started pinned to its core (JobRequest.wrap).
 */
export interface Seating {
  readonly descriptor: MeasurerDescriptor;
  seat(arms: readonly Arm[], context: ReplicateContext): readonly Seat[];
  wrap(core: number): { command: string; args: string[] };
}

/**
 * Warm processes: one per arm serves every case of a set (a serve job).
 * The loop calls endSet() after the last case of a set: a process that has
 * served setsPerProcess sets ends there, and the next set starts a new one;
 * endRun() ends the rest. A process that crashed, timed out or broke the
 * protocol is replaced by a fresh one for the next case. With `seating`, a
 * replicate samples the arms it seats, all at once, each process pinned to
 * its seat's core (one per arm and core).
 */
/** A warm lockstep measurer's own state: its options, its seating, and the processes it keeps. */
interface WarmState {
  options: LockstepOptions;
  seating: Seating | undefined;
  setsPerProcess: number;
  /** Every case has processes of its own (--schedule lockstep). */
  perCase: boolean;
  /** Processes started per arm so far (a process's index). */
  started: Map<string, number>;
  /** Keyed by arm, or by arm and case when every case has processes of its own. */
  processes: WarmPool<ServingProcess>;
  /** A runtime whose plug-in cannot serve many cases gets a process per case. */
  sessionsPerCase: Measurer;
  horizons: TierUpHorizons;
}

/**
 * Warm processes: one per arm serves every case of a set (a serve job).
 * The loop calls endSet() after the last case of a set: a process that has
 * served setsPerProcess sets ends there, and the next set starts a new one;
 * endRun() ends the rest. A process that crashed, timed out or broke the
 * protocol is replaced by a fresh one for the next case. With `seating`, a
 * replicate samples the arms it seats, all at once, each process pinned to
 * its seat's core (one per arm and core).
 */
export function warmLockstepMeasurer(options: LockstepOptions, seating?: Seating): Measurer {
  const setsPerProcess = Math.max(1, options.setsPerProcess ?? 1);
  const perCase = options.processPerCase === true && !seating;
  const started = new Map<string, number>();
  const processes = new WarmPool<ServingProcess>(closedProcess);
  const w: WarmState = { options, seating, setsPerProcess, perCase, started, processes, sessionsPerCase: lockstepMeasurer(options), horizons: new TierUpHorizons() };
  return {
    descriptor: seating?.descriptor ?? (options.processPerCase ? LOCKSTEP_PER_CASE : LOCKSTEP),
    untimedStart: true,
    replicate: (unit: Unit, given: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> => warmReplicate(w, unit, given, context),
    endSet: () => endProcesses(w, false),
    endRun: () => endProcesses(w, true),
    dispose: () => processes.dispose(),
  };
}

const keyOf = (w: WarmState, arm: Arm, caseId: string, core: number | undefined): string => (w.perCase ? `${arm.id}\u0000${caseId}` : core !== undefined ? `${arm.id}\u0000core ${core}` : arm.id);
/** Where an arm's process started ahead of its case waits (no case id holds the control character). */
const aheadKey = (arm: Arm): string => `\u0001ahead\u0000${arm.id}`;

/** As a process ends: the records of its cases get what the host read after its end (engine traces), and a crash after its last answer fails that case. */
function closedProcess(held: ServingProcess, outcome: ClosedOutcome): LateFailure[] {
  const armId = held.arm.id;
  for (const s of held.served) if (s.record && s.message?.metrics) s.record.metrics = s.message.metrics;
  const last = held.served[held.served.length - 1];
  // What the process left running when it exited is said for the cases it served (one of them started it), unless a case it ended in said it already.
  const leftBehind = held.served.some((s) => s.endedHere) ? undefined : leftBehindWarning(outcome, held.arm.plugin.name);
  const cases = new Set(held.served.map((s) => s.unitKey)).size;
  const warnings: LateFailure[] = leftBehind
    ? held.served.map((s) => ({
        unitKey: s.unitKey,
        armId,
        round: s.round,
        failure: { kind: 'warning', message: cases > 1 ? `${leftBehind} (one of the ${cases} cases this warm process served; --schedule lockstep, the default, tells which)` : leftBehind },
      }))
    : [];
  const crash = last?.record && crashAfterLastAnswer(outcome, `the ${held.arm.plugin.name} process`, held.served.length, { unitKey: last.unitKey, armId, round: last.round });
  return [...warnings, ...teardownsAtClose(outcome.closingErrors, held, armId), ...(crash ? [crash] : [])];
}

function startProcess(w: WarmState, arm: Arm, context: ReplicateContext, core: number | undefined, replaced: ServingProcess | undefined): ServingProcess {
  const { options, seating, setsPerProcess, started } = w;
  const job: Job = { protocol: 1, kind: 'serve', options: withSteadyRule(options.measure, arm.plugin.engine.warmup) };
  const wrap = seating && core !== undefined ? { wrap: seating.wrap(core) } : {};
  const process = arm.plugin.startWarm!({ target: arm.target, flags: collectingFlags(arm), bundlePath: arm.bundlePath, job, timeoutMs: options.timeoutMs * WARM_PROCESS_TIMEOUTS * setsPerProcess, codeCache: true, ...wrap, ...(context.signal ? { signal: context.signal } : {}) });
  const index = started.get(arm.id) ?? 0;
  started.set(arm.id, index + 1);
  // A replacement mid-set takes over the set's count, so it ends with the others.
  return { process, arm, served: [], index, sets: replaced?.sets ?? 0, servedThisSet: 0, visits: new Map() };
}

function processFor(w: WarmState, arm: Arm, caseId: string, context: ReplicateContext, core: number | undefined): ServingProcess {
  const key = keyOf(w, arm, caseId, core);
  // A case without a process of its own takes the one started ahead for it while the case before warmed up.
  if (w.options.startAhead && w.perCase && !w.processes.holds(key)) w.processes.adopt(aheadKey(arm), key);
  return w.processes.take(key, (replaced) => startProcess(w, arm, context, core, replaced));
}

/** Starts each arm's process for the next case, unless one waits already; it loads the suite while this case warms up. */
function startAhead(w: WarmState, arms: readonly Arm[], context: ReplicateContext): Promise<void>[] {
  if (!w.options.startAhead || !w.perCase || context.last) return [];
  return arms.map((arm) => w.processes.take(aheadKey(arm), (replaced) => startProcess(w, arm, context, undefined, replaced)).process.loaded);
}

/**
 * Ends the processes that served their last set (all of them with `all`).
 * At a set's end what ended processes told comes back without waiting for
 * the rest (~0.2 s a set: they end while the next set's processes start);
 * at the run's end, everything.
 */
async function endProcesses(w: WarmState, all: boolean): Promise<LateFailure[]> {
  const { processes } = w;
  // A case's own processes end after their last visit (replicate), not with the set.
  if (w.perCase && !all) return processes.settled();
  for (const [key, held] of processes.entries()) {
    held.sets++;
    held.servedThisSet = 0;
    if (all || held.sets >= w.setsPerProcess) processes.retire(key);
  }
  return all ? processes.drain() : processes.settled();
}

/** One case on every seated arm's warm process, sampled in turn (or at once, seated). */
async function warmReplicate(w: WarmState, unit: Unit, given: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
  const begunAt = performance.now();
  // A runtime whose plug-in cannot serve many cases gets a process per case (a seating's descriptor refuses it).
  if (!w.seating && given.some((a) => !a.plugin.startWarm)) return w.sessionsPerCase.replicate(unit, given, context);
  const seats: readonly (Pick<Seat, 'arm'> & Partial<Seat>)[] = w.seating ? w.seating.seat(given, context) : given.map((arm) => ({ arm }));
  const arms = seats.map((s) => s.arm);
  const caseId = unit.cases[0]!.id;
  const held = seats.map(({ arm, core }) => {
    context.onArmStart?.(arm);
    return processFor(w, arm, caseId, context, core);
  });
  const servedBefore = held.map((h) => (w.perCase ? 0 : h.servedThisSet));
  const visit = held.map((h) => (h.visits.get(caseId) ?? 0) + 1);
  // Kept warm for the next set unless this is the process's last one (a case's own process: its case's last visit).
  const keep = held.map((h, i) => (w.perCase ? visit[i]! : h.sets + 1) < w.setsPerProcess);
  const told = toldRates(w.horizons, caseId, arms);
  const cases = held.map((h, i) => h.process.open(caseId, w.options.timeoutMs, keep[i], told[i]!.ns));
  const loadedAhead = startAhead(w, arms, context);
  // Nothing of ours runs while the arms sample: processes ending, or the next case's still loading.
  const quiet = async (): Promise<void> => {
    await w.processes.ended();
    await Promise.all(loadedAhead);
  };
  const { results, outcomes } = await sampleInTurn(cases, arms, w.options, context, { quiet, together: w.seating !== undefined, begunAt });
  learnHorizons(w.horizons, caseId, arms, results, told);
  results.forEach((result, i) => recordServed(w, { unit, caseId, context, seat: seats[i]!, held: held[i]!, keep: keep[i]!, visit: visit[i]!, servedBefore: servedBefore[i]!, sampled: outcomes[i]! }, result));
  return results;
}

/** What one arm's sampling of a case leaves on its process: what it served, and the visit it keeps the case for. */
interface ServedArm {
  unit: Unit;
  caseId: string;
  context: ReplicateContext;
  seat: Pick<Seat, 'arm'> & Partial<Seat>;
  held: ServingProcess;
  keep: boolean;
  visit: number;
  servedBefore: number;
  sampled: Awaited<ReturnType<typeof sampleInTurn>>['outcomes'][number];
}

/** One arm's result noted on its process (its record's lockstep block, its visits), and its process retired after its case's last visit. */
function recordServed(w: WarmState, a: ServedArm, result: ArmResult): void {
  const { unit, caseId, context, seat, keep, visit, servedBefore, sampled } = a;
  const h = a.held;
  const outcome = result.outcomes[0];
  h.servedThisSet++;
  const served: Served = { unitKey: unit.key, caseId, round: context.round, ...(sampled.leftBehind ? { endedHere: true } : {}) };
  // The process keeps a case only after a result it was asked to keep it for (core execute.ts caseAnswer).
  if (outcome?.kind === 'round' && keep) h.visits.set(caseId, visit);
  else h.visits.delete(caseId);
  if (outcome?.kind === 'round') {
    served.record = outcome.record;
    outcome.record.lockstep = { ...lockstepOf(outcome.record)!, servedBefore, process: h.index, visit };
    const { core, partner } = seat;
    if (core !== undefined) outcome.record.duet = { core, ...(partner !== undefined ? { partner } : {}) };
    const message = sampled.messages.find((m): m is CaseResultMessage => m.type === 'result');
    if (message) served.message = message;
  } else if (outcome?.kind === 'failure' && (outcome.failure.kind === 'crash' || outcome.failure.kind === 'timeout') && h.process.served.length > 1) {
    // What ran before in the same process may be the cause: say so, and how to rule it out.
    outcome.failure.message += ` (in a warm process that had served ${h.process.served.length - 1} other cases before; --schedule lockstep, the default, gives each case its own processes)`;
}
h.served.push(served);
// A case's own process ends after its last visit, while the next case warms up.
if (w.perCase && !keep) w.processes.retire(keyOf(w, seat.arm, caseId, undefined));
}
