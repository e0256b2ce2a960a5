/**
 * A run, from the plan the CLI made to the saved record: the record with the
 * environment the CLI found (git, host, the variants), the measurer the
 * options name (its descriptor is what the record says), the arms over the
 * suite's bundles, then the loop (loop.ts), which saves after every job and
 * ends with the profiles when they were asked for (profiles.ts). The CLI
 * parses, plans, calls executeRun and renders what comes back.
 */
import { availableParallelism } from 'node:os';
import type { CaseListing } from '@rtbench/core/protocol';
import { INSTRUCTIONS_PER_OP, type GitState, type RunRecord, type Variant } from '@rtbench/core/schema';
import { isHostCaseSpec, type HostCaseSpec } from '@rtbench/host-timed';
import type { RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';
import { runtimePlugins, runtimeEngines } from '@rtbench/runtime-registry';
import { hostInfo } from './host.ts';
import { executeLoop, type LoopPlan, type Profiler, type RunHooks } from './loop.ts';
import type { Arm, Measurer, MeasurerDescriptor, Unit } from './measurer.ts';
import { HOST_TIMED, hostBudget, hostTimedMeasurer, hostUnits } from './measurers/host-timed.ts';
import { fixedRandomPreload, INSTRUCTIONS, instructionsMeasurer } from './measurers/instructions.ts';
import { LOCKSTEP, LOCKSTEP_PER_CASE, lockstepMeasurer, warmLockstepMeasurer } from './measurers/lockstep.ts';
import { PROCESSES, processesMeasurer } from './measurers/processes.ts';
import { addResults } from './record.ts';
import { BALANCED_ORDER_DESCRIPTION, SHUFFLED_ORDER_DESCRIPTION, type Schedule } from './schedule.ts';
import type { SuiteLocation } from './suite-location.ts';

/** How in-runtime cases can be timed (--schedule), the default first. */
export const SCHEDULES: readonly MeasurerDescriptor[] = [LOCKSTEP, LOCKSTEP_PER_CASE, PROCESSES];
/** Every measurer of in-runtime cases: the schedules, and instruction counts (--measure instructions). */
const IN_RUNTIME: readonly MeasurerDescriptor[] = [...SCHEDULES, INSTRUCTIONS];

/** How in-runtime cases are measured: a schedule's name, or instructions. */
export type InRuntimeMeasurer = 'lockstep' | 'lockstep-per-case' | 'processes' | 'instructions';

export interface RunOptions {
  /** Sampling time per case and variant, summed over the schedule's rounds, in ms. */
  timeMs: number;
  /** Warmup in each process, in ms (with warmupMinMs: the most it may take). */
  warmupMs: number;
  /** Adaptive warmup's floor, in ms; absent: warmup takes exactly warmupMs. */
  warmupMinMs?: number;
  /** Per-process limit, in ms. */
  timeoutMs: number;
  filter?: string;
  /** --shard i/n: the share of the cases this run measures. */
  shard?: { index: number; count: number };
  seed: number;
  mode: 'bench' | 'compare';
  schedule: Schedule;
  measurer: InRuntimeMeasurer;
  /** Warm lockstep: consecutive sets one process serves, its cases kept warm between them. */
  setsPerProcess?: number;
  /** Instruction counts: the valgrind binary, and whether to simulate the caches. */
  instructions?: { valgrind: string; cacheSim: boolean; libraryDir?: string };
  command: string[];
}

/** A variant ready to run: the CLI resolved its runtime and checked its flags. */
export interface ReadyVariant {
  spec: { id: string; flags: string[] };
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
  record: Variant;
}

/** A variant that cannot run, and why: it stays in the run, failed. */
export interface UnavailableVariant {
  spec: { id: string; runtimeSpec: string; flags: string[] };
  plugin: RuntimePlugin;
  reason: string;
  kind: 'runtime-unavailable' | 'flags';
}

export type RunVariant = ReadyVariant | UnavailableVariant;

export function isReady(v: RunVariant): v is ReadyVariant {
  return 'target' in v;
}

/** What the run needs of its surroundings, which the CLI knows: where it runs from, and how the suite becomes code. */
export interface RunEnvironment {
  /** The rtbench checkout's commit; absent when rtbench is installed (the user's repository is not rtbench's). */
  git?: GitState;
  /** The installed rtbench's version; absent in a checkout. */
  rtbenchVersion?: string;
  /** The commit of the checkout a binary the user named lives in (their own build), if any. */
  binaryGit(binary: string): GitState | undefined;
  /** The program cache's folder for host-timed programs and servers. */
  programDir: string;
  /** The suite bundled for a runtime (checked against its hash before every run), and the hash of its code. */
  bundle(plugin: RuntimePlugin): Promise<{ path: string; sha256: string }>;
  /** A host-timed suite's code per runtime: the sources of all its programs (not only the filtered cases'), so shards of one run agree. */
  hostSuiteCode(plugins: readonly RuntimePlugin[]): Promise<{ runtime: string; sha256: string }[]>;
}

/**
 * Turns per lockstep set: at least this many, whatever the sampling time. A
 * set's paired ratio is an estimate over its turns, and a case of 8–16 ms per
 * operation got 5 at the defaults against ~20 for a 1 ms sample: its sets
 * spread ±5–28%. 12 brings those cases near the short ones at about twice
 * their sampling time (docs/lockstep.md, "Long operations").
 */
const MIN_TURNS = 12;
const MAX_TURNS = 10_000;

const isHostTimed = (cases: readonly CaseListing[]): boolean => cases.length > 0 && cases.every(isHostCaseSpec);

/** The run record before any job: the options as run, the environment, the variants and the cases. */
export function newRun(suite: SuiteLocation & { cases: readonly CaseListing[] }, variants: readonly RunVariant[], options: RunOptions, environment: RunEnvironment, startedAt: string): RunRecord {
  const { schedule } = options;
  const descriptor = isHostTimed(suite.cases) ? HOST_TIMED : IN_RUNTIME.find((d) => d.name === options.measurer)!;
  const lockstep = descriptor === LOCKSTEP || descriptor === LOCKSTEP_PER_CASE;
  return {
    schema: 'rtbench.run',
    schemaVersion: 1,
    id: `${startedAt}-${suite.name}-${options.seed}`,
    status: 'interrupted',
    startedAt,
    finishedAt: startedAt,
    command: options.command,
    suite: suite.name,
    mode: options.mode,
    options: {
      timeMs: options.timeMs,
      warmupMs: options.warmupMs,
      rounds: schedule.rounds,
      timeoutMs: options.timeoutMs,
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      order: schedule.order === 'balanced' ? BALANCED_ORDER_DESCRIPTION : SHUFFLED_ORDER_DESCRIPTION,
      seed: options.seed,
      ...(schedule.adaptive
        ? { adaptive: { target: schedule.adaptive.target, minRounds: schedule.rounds, maxRounds: schedule.adaptive.maxRounds, ...(schedule.adaptive.budgetMs ? { budgetMs: schedule.adaptive.budgetMs } : {}) } }
        : {}),
      // The record keeps the two lockstep kinds as one measurer and says how its processes were held.
      measurer: lockstep ? 'lockstep' : (descriptor.name as 'processes' | 'instructions' | 'host-timed'),
      ...(lockstep ? { lockstepProcesses: descriptor === LOCKSTEP ? ('warm' as const) : ('per-case' as const) } : {}),
      ...(options.warmupMinMs !== undefined && descriptor !== HOST_TIMED ? { warmupMinMs: options.warmupMinMs } : {}),
      ...(options.setsPerProcess !== undefined && lockstep ? { setsPerProcess: options.setsPerProcess } : {}),
    },
    ...(environment.git ? { git: environment.git } : {}),
    ...(environment.rtbenchVersion ? { rtbenchVersion: environment.rtbenchVersion } : {}),
    host: hostInfo(),
    variants: variants.map((v) => {
      if (!isReady(v)) return { id: v.spec.id, runtime: v.plugin.name, spec: v.spec.runtimeSpec, flags: v.spec.flags, unavailable: v.reason };
      // A binary the user named may be their own build: record its commit.
      const binaryGit = v.record.source === 'path' && v.record.binary ? environment.binaryGit(v.record.binary) : undefined;
      return binaryGit ? { ...v.record, binaryGit } : v.record;
    }),
    cases: suite.cases.map(({ id, name, group, params }) => ({ id, name, ...(group ? { group } : {}), params: { ...params } })),
    results: [],
    digestMismatches: [],
  };
}

/** The measurer of in-runtime cases the options name. */
function inRuntimeMeasurer(options: RunOptions, preload: string | undefined): Measurer {
  if (options.measurer === 'instructions') {
    if (!options.instructions) throw new Error('instruction counts need a valgrind binary (the CLI finds it when it plans)');
    const { valgrind, cacheSim } = options.instructions;
    return instructionsMeasurer({ valgrind, cacheSim, ...(preload ? { preload } : {}), timeoutMs: options.timeoutMs, parallel: Math.max(1, Math.min(2, availableParallelism())) });
  }
  const measure = { warmupMs: options.warmupMs, ...(options.warmupMinMs !== undefined ? { warmupMinMs: options.warmupMinMs } : {}), timeMs: options.timeMs / options.schedule.rounds, minSamples: 5, maxSamples: 100_000, sampleMs: 0 };
  if (options.measurer === 'processes') return processesMeasurer(measure, options.timeoutMs);
  const lockstep = { measure, sampleTimeMs: options.timeMs / options.schedule.rounds, minTurns: MIN_TURNS, maxTurns: MAX_TURNS, timeoutMs: options.timeoutMs, ...(options.setsPerProcess !== undefined ? { setsPerProcess: options.setsPerProcess } : {}) };
  if (options.measurer === 'lockstep') return warmLockstepMeasurer(lockstep);
  // A process per case: fresh every set, or warm for several sets of its one case.
  return (options.setsPerProcess ?? 1) > 1 ? warmLockstepMeasurer({ ...lockstep, processPerCase: true }) : lockstepMeasurer(lockstep);
}

export interface RunRequest {
  suite: SuiteLocation & { cases: readonly CaseListing[] };
  variants: readonly RunVariant[];
  options: RunOptions;
  environment: RunEnvironment;
  /** Profiles to take after the measured rounds, in the same loop (profiles.ts profiler). */
  profiler?: Profiler;
  /** Adaptive rounds stop for a unit once this says so (loop.ts LoopPlan.settled). */
  settled?: LoopPlan['settled'];
}

/** Measures the plan, saving the run after every job (hooks.save), and returns the finished record. */
export async function executeRun(request: RunRequest, hooks: RunHooks): Promise<RunRecord> {
  const { suite, variants, options, environment } = request;
  const run = newRun(suite, variants, options, environment, new Date().toISOString());
  const hostTimed = isHostTimed(suite.cases);
  let units: Unit[];
  let measurer: Measurer;
  if (hostTimed) {
    const cases = suite.cases as HostCaseSpec[];
    // Each case's metric; and what a load round really gets (raised to the minimums). A start-up round has no sampling time.
    run.cases = cases.map(({ id, name, group, params, metric }) => ({ id, name, ...(group ? { group } : {}), params: { ...params }, metric }));
    const budget = hostBudget(options.timeMs, options.schedule.rounds, options.warmupMs, options.timeoutMs, environment.programDir);
    if (cases.some((c) => c.measurement.kind === 'load')) Object.assign(run.options, { timeMs: budget.loadMs * options.schedule.rounds, warmupMs: budget.loadWarmupMs });
    // Adaptive rounds judge the in-runtime loop's precision; host-timed cases run the planned rounds.
    delete run.options.adaptive;
    units = hostUnits(cases);
    measurer = hostTimedMeasurer(budget);
  } else {
    units = suite.cases.map((c) => ({ key: c.id, cases: [c] }));
    // Built before the run is recorded, so the record names it only when JavaScriptCore's processes preload it.
    const preload = options.measurer === 'instructions' ? fixedRandomPreload(options.instructions?.libraryDir, variants.filter(isReady).map((v) => v.plugin.engine), (line) => process.stderr.write(`! ${line}\n`)) : undefined;
    measurer = inRuntimeMeasurer(options, preload);
    if (measurer.descriptor === INSTRUCTIONS) {
      run.cases = run.cases.map((c) => ({ ...c, metric: INSTRUCTIONS_PER_OP }));
      run.options.instructions = {
        cacheSim: options.instructions?.cacheSim ?? false,
        engineFlags: { ...Object.fromEntries(runtimeEngines().map((e) => [e.id, [...e.counting.determinismFlags, ...(preload && e.counting.fixedRandom ? ['LD_PRELOAD=fixed-random (getrandom and getentropy answer fixed bytes)'] : [])]])), ...Object.fromEntries(runtimePlugins().flatMap((p) => (p.countingEnv ? [[`${p.name} environment`, Object.entries(p.countingEnv).map(([k, v]) => `${k}=${v}`)]] : []))) },
      };
    }
  }
  const resultFor = addResults(
    run,
    suite.cases,
    variants.map((v) => (isReady(v) ? { id: v.spec.id } : { id: v.spec.id, unavailable: { kind: v.kind === 'flags' ? 'error' : 'runtime-unavailable', message: v.reason } })),
  );
  const ready = variants.filter(isReady);
  const arms: Arm[] = [];
  const bundles = new Map<string, { path: string; sha256: string }>();
  for (const v of ready) {
    // Host-timed suites bundle per measurement themselves; their arms carry no suite bundle.
    if (!hostTimed && !bundles.has(v.plugin.name)) bundles.set(v.plugin.name, await environment.bundle(v.plugin));
    arms.push({ id: v.spec.id, plugin: v.plugin, target: v.target, flags: v.flags, variantFlags: v.spec.flags, bundlePath: bundles.get(v.plugin.name)?.path ?? '' });
  }
  if (bundles.size) run.suiteCode = [...bundles].map(([runtime, b]) => ({ runtime, sha256: b.sha256 }));
  if (hostTimed) {
    const code = await environment.hostSuiteCode([...new Set(ready.map((v) => v.plugin))]);
    if (code.length) run.suiteCode = code;
  }
  return executeLoop(run, { units, arms, schedule: options.schedule, seed: options.seed, resultFor, ...(request.profiler ? { profiler: request.profiler } : {}), ...(request.settled ? { settled: request.settled } : {}) }, measurer, hooks);
}
