/**
 * From a plan to a saved run: the run record with the environment (git,
 * host, variants), the suite bundled once per runtime, the arms, and the
 * measurer the plan asks for; then @rtbench/run's loop does the rest.
 */
import { dirname, join } from 'node:path';
import type { RuntimeKind } from '@rtbench/core';
import type { CaseListing } from '@rtbench/core/protocol';
import { INSTRUCTIONS_PER_OP, type RunRecord } from '@rtbench/core/schema';
import { availableParallelism } from 'node:os';
import { hostSuiteCode, isHostCaseSpec, type HostCaseSpec, type HostTimedSuite } from '@rtbench/host-timed';
import { runtimePlugins } from '@rtbench/runtime-registry';
import {
  addResults,
  BALANCED_ORDER_DESCRIPTION,
  executeLoop,
  hostBudget,
  hostTimedMeasurer,
  hostUnits,
  DETERMINISM_FLAGS,
  instructionsMeasurer,
  lockstepMeasurer,
  warmLockstepMeasurer,
  processesMeasurer,
  SHUFFLED_ORDER_DESCRIPTION,
  type Arm,
  type Measurer,
  type RunHooks,
  type Schedule,
  type Unit,
} from '@rtbench/run';
import { bundleCodeHash, bundleSuite } from './bundle.ts';
import { gitState } from './git.ts';
import { hostInfo } from './host.ts';
import { cacheDir, CLI_VERSION, inCheckout, repoRoot } from './paths.ts';
import type { Shard } from './shards/shard.ts';
import { loadSuite, type SuiteLocation } from './suites.ts';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from './variants.ts';

export type { ProgressEvent, RunHooks } from '@rtbench/run';
export { addResults, computeStats, finishRun, resultKey } from '@rtbench/run';

/**
 * How in-runtime cases are measured: time, in lockstep sets of live processes
 * (default) or a fresh process per round; or instructions, counted under valgrind.
 */
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
  shard?: Shard;
  seed: number;
  mode: 'bench' | 'compare';
  schedule: Schedule;
  measurer: InRuntimeMeasurer;
  /** Warm lockstep: consecutive sets one process serves, its cases kept warm between them. */
  setsPerProcess?: number;
  /** Instruction counts: the valgrind binary, and whether to simulate the caches. */
  instructions?: { valgrind: string; cacheSim: boolean };
  command: string[];
}

type AnyVariant = ResolvedVariant | UnavailableVariant;

/**
 * Turns per lockstep set: at least this many, whatever the sampling time. A
 * set's paired ratio is an estimate over its turns, and a case of 8–16 ms per
 * operation got 5 at the defaults against ~20 for a 1 ms sample: its sets
 * spread ±5–28%. 12 brings those cases near the short ones at about twice
 * their sampling time (docs/lockstep.md, "Long operations").
 */
export const MIN_TURNS = 12;
export const MAX_TURNS = 10_000;

export function newRun(suite: SuiteLocation & { cases: CaseListing[] }, variants: AnyVariant[], options: RunOptions, startedAt: string): RunRecord {
  const { schedule } = options;
  // An installed rtbench sits in the user's repository: that checkout's commit is not rtbench's.
  const git = inCheckout ? gitState(repoRoot) : undefined;
  const hostTimed = suite.cases.length > 0 && suite.cases.every(isHostCaseSpec);
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
      measurer: hostTimed ? 'host-timed' : options.measurer === 'lockstep-per-case' ? 'lockstep' : options.measurer,
      ...(hostTimed || !options.measurer.startsWith('lockstep') ? {} : { lockstepProcesses: options.measurer === 'lockstep' ? ('warm' as const) : ('per-case' as const) }),
      ...(options.warmupMinMs !== undefined && !hostTimed ? { warmupMinMs: options.warmupMinMs } : {}),
      ...(options.setsPerProcess !== undefined && options.measurer === 'lockstep' && !hostTimed ? { setsPerProcess: options.setsPerProcess } : {}),
    },
    ...(git ? { git } : {}),
    ...(inCheckout ? {} : { rtbenchVersion: CLI_VERSION }),
    host: hostInfo(),
    variants: variants.map((v) => {
      if (!isResolved(v)) return { id: v.spec.id, runtime: v.plugin.name, spec: v.spec.runtimeSpec, flags: v.spec.flags, unavailable: v.reason };
      // A binary the user named may be their own build: record its commit.
      const binaryGit = v.record.source === 'path' && v.record.binary ? gitState(dirname(v.record.binary)) : undefined;
      return binaryGit ? { ...v.record, binaryGit } : v.record;
    }),
    cases: suite.cases.map(({ id, name, group, params }) => ({ id, name, ...(group ? { group } : {}), params: { ...params } })),
    results: [],
    digestMismatches: [],
  };
}

/** The measurer for in-runtime cases, from the plan's options. */
function inRuntimeMeasurer(options: RunOptions): Measurer {
  if (options.measurer === 'instructions') {
    if (!options.instructions) throw new Error('instruction counts need a valgrind binary (plan.ts finds it)');
    return instructionsMeasurer({ ...options.instructions, timeoutMs: options.timeoutMs, parallel: Math.max(1, Math.min(2, availableParallelism())) });
  }
  const measure = { warmupMs: options.warmupMs, ...(options.warmupMinMs !== undefined ? { warmupMinMs: options.warmupMinMs } : {}), timeMs: options.timeMs / options.schedule.rounds, minSamples: 5, maxSamples: 100_000, sampleMs: 0 };
  if (options.measurer === 'processes') return processesMeasurer(measure, options.timeoutMs);
  const lockstep = { measure, sampleTimeMs: options.timeMs / options.schedule.rounds, minTurns: MIN_TURNS, maxTurns: MAX_TURNS, timeoutMs: options.timeoutMs, ...(options.setsPerProcess !== undefined ? { setsPerProcess: options.setsPerProcess } : {}) };
  return options.measurer === 'lockstep' ? warmLockstepMeasurer(lockstep) : lockstepMeasurer(lockstep);
}

export async function executeRun(suite: SuiteLocation & { cases: CaseListing[] }, variants: AnyVariant[], options: RunOptions, hooks: RunHooks): Promise<RunRecord> {
  const run = newRun(suite, variants, options, new Date().toISOString());
  const hostTimed = suite.cases.length > 0 && suite.cases.every(isHostCaseSpec);
  let units: Unit[];
  let measurer: Measurer;
  if (hostTimed) {
    const cases = suite.cases as HostCaseSpec[];
    // Each case's metric; and what a load round really gets (raised to the minimums). A start-up round has no sampling time.
    run.cases = cases.map(({ id, name, group, params, metric }) => ({ id, name, ...(group ? { group } : {}), params: { ...params }, metric }));
    const budget = hostBudget(options.timeMs, options.schedule.rounds, options.warmupMs, options.timeoutMs, join(cacheDir, 'programs'));
    if (cases.some((c) => c.measurement.kind === 'load')) Object.assign(run.options, { timeMs: budget.loadMs * options.schedule.rounds, warmupMs: budget.loadWarmupMs });
    // Adaptive rounds judge the in-runtime loop's precision; host-timed cases run the planned rounds.
    delete run.options.adaptive;
    units = hostUnits(cases);
    measurer = hostTimedMeasurer(budget);
  } else {
    units = suite.cases.map((c) => ({ key: c.id, cases: [c] }));
    measurer = inRuntimeMeasurer(options);
    if (options.measurer === 'instructions') {
      run.cases = run.cases.map((c) => ({ ...c, metric: INSTRUCTIONS_PER_OP }));
      run.options.instructions = { cacheSim: options.instructions?.cacheSim ?? false, engineFlags: { v8: [...DETERMINISM_FLAGS.v8], jsc: [...DETERMINISM_FLAGS.jsc], ...Object.fromEntries(runtimePlugins().flatMap((p) => (p.countingEnv ? [[`${p.name} environment`, Object.entries(p.countingEnv).map(([k, v]) => `${k}=${v}`)]] : []))) } };
    }
  }
  const resultFor = addResults(
    run,
    suite.cases,
    variants.map((v) => (isResolved(v) ? { id: v.spec.id } : { id: v.spec.id, unavailable: { kind: v.kind === 'flags' ? 'error' : 'runtime-unavailable', message: v.reason } })),
  );
  const arms: Arm[] = [];
  const bundles = new Map<string, string>();
  for (const v of variants.filter(isResolved)) {
    // Host-timed suites bundle per measurement themselves; their arms carry no suite bundle.
    if (!hostTimed && !bundles.has(v.plugin.name)) bundles.set(v.plugin.name, (await bundleSuite(suite.entry, suite.name, v.plugin.name, v.plugin.bundle)).path);
    arms.push({ id: v.spec.id, plugin: v.plugin, target: v.target, flags: v.flags, variantFlags: v.spec.flags, bundlePath: bundles.get(v.plugin.name) ?? '' });
  }
  if (bundles.size) run.suiteCode = [...bundles].map(([runtime, path]) => ({ runtime: runtime as RuntimeKind, sha256: bundleCodeHash(path) }));
  if (hostTimed) {
    // The whole suite's programs per runtime (not the filtered cases'), so shards of one run agree.
    const { measurements } = (await loadSuite(suite)).suite as HostTimedSuite;
    const code = await hostSuiteCode(suite.entry, measurements, new Map(variants.filter(isResolved).map((v) => [v.plugin.name, v.plugin.bundle])), repoRoot);
    if (code.length) run.suiteCode = code;
  }
  return executeLoop(run, { units, arms, schedule: options.schedule, seed: options.seed, resultFor }, measurer, hooks);
}
