/**
 * A run, from the plan the CLI made to the saved record: the record with the
 * environment the CLI found (git, host, the variants), the measurer the
 * options name (its descriptor is what the record says), the arms over the
 * suite's bundles, then the loop (loop.ts), which saves after every job and
 * ends with the profiles when they were asked for (profiles.ts). The CLI
 * parses, plans, calls executeRun and renders what comes back.
 */
import type { CaseListing } from '@rtbench/core/protocol';
import type { GitState, MeasurerFields, RunRecord, VerdictParameters } from '@rtbench/core/schema';
import { engineNamed, isResolved, type ResolvedVariant, type UnavailableVariant } from '@rtbench/runtime-registry';
import { type SuiteLocation } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import { hostInfo } from './host.ts';
import { watchMachine } from './machine-watch.ts';
import { executeLoop, type LoopPlan, type Profiler, type RunHooks } from './loop.ts';
import type { Arm, BuiltMeasurer, MeasurementNeed, MeasurerDescriptor, PreparedMeasurer } from '@rtbench/measurers';
import { addResults, resultKey } from '@rtbench/saved-runs';
import type { AbsentCases } from './case-union.ts';
import { BALANCED_ORDER_DESCRIPTION, SHUFFLED_ORDER_DESCRIPTION, type RoundPlan } from './schedule.ts';
import { nodeEnvWarning, suiteBundle, type SuiteBundle } from '@rtbench/measurers';

export interface RunOptions {
  /** Sampling time per case and variant, summed over the round plan's rounds, in ms. */
  timeMs: number;
  /** Warmup in each process, in ms (with warmupMinMs: the most it may take). */
  warmupMs: number;
  /** Adaptive warmup's floor, in ms; absent: warmup takes exactly warmupMs. */
  warmupMinMs?: number;
  /** Per-process limit, in ms. */
  timeoutMs: number;
  /** What the views asked of the measurement (--metrics memory: 'settled-memory'; --metrics gc: 'collection-counts'); the measurer maps each to its own setup. */
  needs?: readonly MeasurementNeed[];
  filter?: string;
  /** --shard i/n: the share of the cases this run measures. */
  shard?: { index: number; count: number };
  seed: number;
  mode: 'bench' | 'compare';
  /** The rounds, their order, and when to add rounds (adaptive). */
  roundPlan: RoundPlan;
  /** The factor the plan multiplied the rounds and time asked per arm by (a duet of k arms: k − 1), for a planner that sets rounds of its own; absent: 1. */
  perArm?: number;
  /** The measurer the plan chose (--schedule, --measure, or the suite's own kind of case). */
  measurer: MeasurerDescriptor;
  /** What the measurer's prepare() returned (its options, the tools it found), carried to it unopened. */
  prepared?: PreparedMeasurer;
  command: string[];
}

/** The variants of a run as the CLI resolved them: those it can run, and those it cannot (kept, failed). */
type RunVariant = ResolvedVariant | UnavailableVariant;

/** How a variant that cannot run is recorded: a refused flag or a failed app build is an error, a measurer's refusal leaves it unsupported. */
const UNAVAILABLE_AS = { 'runtime-unavailable': 'runtime-unavailable', flags: 'error', measurer: 'unsupported', build: 'error' } as const satisfies Record<UnavailableVariant['kind'], string>;

/** What the run needs of its surroundings, which the CLI knows: where it runs from, and where programs are cached. */
export interface RunEnvironment {
  /** The rtbench checkout's commit; absent when rtbench is installed (the user's repository is not rtbench's). */
  git?: GitState;
  /** The installed rtbench's version; absent in a checkout. */
  rtbenchVersion?: string;
  /** The commit of the checkout a binary the user named lives in (their own build), if any. */
  binaryGit(binary: string): GitState | undefined;
  /** The program cache's folder for host-timed programs and servers. */
  programDir: string;
}

/** The measurer's threshold for the engines of the variants it can run, and its confidence. */
function verdictParameters(measurer: MeasurerDescriptor, variants: readonly RunVariant[]): VerdictParameters {
  const { verdict } = measurer.record;
  return { threshold: verdict.threshold(variants.filter(isResolved).map((v) => engineNamed(v.target.engine))), confidence: verdict.confidence };
}

/** The run record before any job: the options as run, the environment, the variants and the cases. */
function newRun(suite: SuiteLocation & { cases: readonly CaseListing[] }, variants: readonly RunVariant[], options: RunOptions, environment: RunEnvironment, startedAt: string): RunRecord {
  const { roundPlan, measurer: descriptor } = options;
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
      rounds: roundPlan.rounds,
      timeoutMs: options.timeoutMs,
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      order: roundPlan.order === 'balanced' ? BALANCED_ORDER_DESCRIPTION : SHUFFLED_ORDER_DESCRIPTION,
      seed: options.seed,
      ...(roundPlan.adaptive
        ? { adaptive: { target: roundPlan.adaptive.target, minRounds: roundPlan.rounds, maxRounds: roundPlan.adaptive.maxRounds, ...(roundPlan.adaptive.budgetMs ? { budgetMs: roundPlan.adaptive.budgetMs } : {}), ...(roundPlan.adaptive.rule ? { rule: roundPlan.adaptive.rule } : {}) } }
        : {}),
      // The measurer block: its kind (the two lockstep schedules are one) and its own fields (lockstep: how its processes were held, sets per process).
      measurer: descriptor.record.kind,
      ...measurerFields(descriptor.record.fields, options.prepared?.fields),
      ...(options.warmupMinMs !== undefined && descriptor.warmsInRuntime ? { warmupMinMs: options.warmupMinMs } : {}),
      // The verdict's parameters for these variants: a report of the saved run needs no measurer.
      verdict: verdictParameters(descriptor, variants),
    },
    ...(environment.git ? { git: environment.git } : {}),
    ...(environment.rtbenchVersion ? { rtbenchVersion: environment.rtbenchVersion } : {}),
    host: hostInfo(),
    variants: variants.map((v) => {
      if (!isResolved(v)) return { id: v.spec.id, runtime: v.plugin.name, spec: v.spec.runtimeSpec, flags: v.spec.flags, unavailable: v.reason };
      // A binary the user named may be their own build: record its commit.
      const binaryGit = v.record.source === 'path' && v.record.binary ? environment.binaryGit(v.record.binary) : undefined;
      return binaryGit ? { ...v.record, binaryGit } : v.record;
    }),
    cases: suite.cases.map(({ id, name, group, params }) => ({ id, name, ...(group ? { group } : {}), params: { ...params } })),
    results: [],
    digestMismatches: [],
  };
}

/** The measurer block's fields, when any part gives some. */
function measurerFields(...parts: (MeasurerFields | undefined)[]): { measurerFields?: MeasurerFields } {
  const fields = Object.assign({}, ...parts.filter((p) => p !== undefined)) as MeasurerFields;
  return Object.keys(fields).length ? { measurerFields: fields } : {};
}

/** The measurer the options name, built for the run's variants and cases. */
function builtMeasurer(suite: RunRequest['suite'], options: RunOptions, variants: readonly RunVariant[], environment: RunEnvironment): BuiltMeasurer {
  return options.measurer.build({
    sampleTimeMs: options.timeMs / options.roundPlan.rounds,
    warmupMs: options.warmupMs,
    ...(options.warmupMinMs !== undefined ? { warmupMinMs: options.warmupMinMs } : {}),
    timeoutMs: options.timeoutMs,
    ...(options.needs?.length ? { needs: options.needs } : {}),
    mode: options.mode,
    ...(options.prepared?.setup !== undefined ? { own: options.prepared.setup } : {}),
    engines: variants.filter(isResolved).map((v) => v.target.engine),
    cases: suite.cases,
    rounds: options.roundPlan.rounds,
    timeMs: options.timeMs,
    programDir: environment.programDir,
    suite,
    warn: (line) => process.stderr.write(`! ${line}\n`),
  });
}

export interface RunRequest {
  /** `absent`: the cases a brought file does not define on some runtimes (case-union.ts), unsupported there. */
  suite: SuiteLocation & { cases: readonly CaseListing[]; absent?: AbsentCases };
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
  const built = builtMeasurer(suite, options, variants, environment);
  const { metric } = options.measurer;
  run.cases = built.cases ?? (metric ? run.cases.map((c) => ({ ...c, metric })) : run.cases);
  if (built.recordOptions) Object.assign(run.options, built.recordOptions);
  Object.assign(run.options, measurerFields(run.options.measurerFields, built.fields));
  // How it measured, in its words, as it ran: a report prints it with no measurer code.
  run.options.measuredBy = options.measurer.record.describe(run.options);
  const units = built.units ?? suite.cases.map((c) => ({ key: c.id, cases: [c] }));
  const resultFor = addResults(
    run,
    suite.cases,
    variants.map((v) => (isResolved(v) ? { id: v.spec.id } : { id: v.spec.id, unavailable: { kind: UNAVAILABLE_AS[v.kind], message: v.reason } })),
  );
  for (const [caseId, variantIds] of Object.entries(suite.absent ?? {})) {
    for (const variantId of variantIds) {
      const result = resultFor.get(resultKey(caseId, variantId));
      if (result?.status !== 'ok') continue;
      result.status = 'unsupported';
      result.failures.push({ kind: 'unsupported', message: `the file does not define this case on ${variantId}` });
    }
  }
  const ready = variants.filter(isResolved);
  // Pins are resolved by the plan (pinPackages); an arm that reaches here without them would run the suite's own versions.
  const unpinned = ready.find((v) => v.spec.packages?.length && !v.record.packages);
  if (unpinned) throw new UsageError(`${unpinned.spec.id}: this command does not take pinned packages; pin them with bench or run (--runtime or --compare)`);
  const arms: Arm[] = [];
  // One bundle per runtime and arm build (the NODE_ENV a variant sets, the packages it pins): arms that agree share it.
  // Bundled at once: esbuild's work for one overlaps the plug-in calls and file reads of another.
  const bundles = new Map<string, { runtime: string; bundle: Promise<SuiteBundle>; variants: string[] }>();
  for (const v of built.ownCode ? [] : ready) {
    const nodeEnv = v.spec.env.NODE_ENV;
    const packages = (v.record.packages ?? []).map((p) => ({ name: p.name, dir: p.dir }));
    const key = JSON.stringify([v.plugin.name, nodeEnv ?? null, packages]);
    if (!bundles.has(key)) bundles.set(key, { runtime: v.plugin.name, bundle: suiteBundle(suite, v.plugin, { nodeEnv, packages }), variants: [] });
    bundles.get(key)!.variants.push(v.spec.id);
  }
  const bundled = await Promise.all([...bundles.values()].map(async (b) => ({ ...b, bundle: await b.bundle })));
  for (const v of ready) {
    // A measurer that prepares its own programs runs no suite bundle; its arms carry none.
    const path = built.ownCode ? '' : bundled.find((b) => b.variants.includes(v.spec.id))!.bundle.path;
    const packages = v.record.packages?.length ? { packages: Object.fromEntries(v.record.packages.map((p) => [p.name, p.version])) } : {};
    arms.push({ id: v.spec.id, plugin: v.plugin, target: v.target, flags: v.flags, variantFlags: v.spec.flags, bundlePath: path, ...packages });
  }
  const warning = nodeEnvWarning(suite.name, bundled.flatMap((b) => b.variants.map((variantId) => ({ variantId, nodeEnv: b.bundle.nodeEnv }))));
  if (warning) process.stderr.write(`! ${warning}\n`);
  if (bundled.length) {
    const perRuntime = (runtime: string) => bundled.filter((b) => b.runtime === runtime).length;
    // A runtime bundled once is recorded as before; bundled per arm, each bundle names the arms it served.
    run.suiteCode = bundled.map((b) => ({ runtime: b.runtime, sha256: b.bundle.sha256, ...(perRuntime(b.runtime) > 1 ? { variants: b.variants } : {}) }));
  }
  if (built.ownCode) {
    const code = await built.ownCode(arms);
    if (code.length) run.suiteCode = code;
  }
  // The machine's state goes with every save, so an interrupted run keeps what it saw too.
  const watch = watchMachine();
  const watched: RunHooks = { ...hooks, save: (r) => hooks.save(Object.assign(r, { host: { ...r.host, machine: watch.state() } })) };
  try {
    return await executeLoop(run, { units, arms, roundPlan: options.roundPlan, seed: options.seed, resultFor, ...(request.profiler ? { profiler: request.profiler } : {}), ...(request.settled ? { settled: request.settled } : {}) }, built.measurer, watched);
  } finally {
    watch.stop();
  }
}
