/**
 * Instruction counts, the second instrument. Per variant and round, one live
 * process under valgrind's callgrind serves every case (a serve job), with
 * instrumentation off except while a case's samples are counted. Per case the
 * host (CallgrindControl, through vgdb) warms it, turns counting on, takes
 * samples of n calls until the count stops falling, then a window of samples
 * of n and of no calls, dumping (and so zeroing) the counter after each. The
 * count per call is (smallest window sample − smallest empty sample) / n; a
 * dump sums the process's threads (host takeDump); the dumps are kept.
 * Counts repeat because each engine runs with flags that fix its work and the
 * cases keep one order per round. Method and reasons: docs/instructions.md.
 */
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '@rtbench/core/protocol';
import { INSTRUCTIONS_PER_OP, type RoundRecord } from '@rtbench/core/schema';
import { engineNamed, runtimeEngines, runtimePlugins } from '@rtbench/runtime-registry';
import type { TranslatedFlags } from '@rtbench/runtime-kit';
import { guardDir, judgeOutcome, removeGuardedDir, type JobOutcome, type LiveCase, type WarmProcess } from '@rtbench/process';
import {
  CallgrindControl,
  InterruptedCommand,
  estimatedCycles,
  findValgrind,
  fixedRandomLibrary,
  VALGRIND_SUPPORT,
  type CountSummary,
} from '@rtbench/host/tools';
import { median } from '@rtbench/stats';
import { INSTRUCTIONS_RECORD, type CountsRound, type InstructionsFields } from '@rtbench/measurer-records';
import { MeasurerRefused, type Arm, type ArmResult, type LateFailure, type Measurer, type MeasurerDescriptor, type ReplicateContext, type Unit } from '../measurer.ts';
import { armResultOf, crashAfterLastAnswer } from './judge.ts';
import { WarmPool } from './warm-pool.ts';
import { TIMING_DEFAULTS } from './timing-defaults.ts';
import { isSmoke } from './measure-options.ts';

/** A function is recorded when it executed at least this share of the counted sample's instructions itself, */
const FUNCTION_SHARE = 0.001;
/** and at most this many functions are (json-reviver's 10 kB cases on node@24 and 26: 12–120 functions, 97–99% of the sample). */
const MAX_FUNCTIONS = 150;

/**
 * The functions of the counted sample (the smallest of the window), by their own instructions per call, largest first:
 * where a count is spent, so a comparison can say which functions its change came from (report views/where.ts).
 */
function functionsPerCall(sample: Dump): [string, number][] {
  const own = sample.summary.functions;
  if (!own) return [];
  const floor = FUNCTION_SHARE * sample.summary.instructions;
  return [...own]
    .filter(([, ir]) => ir >= floor)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_FUNCTIONS)
    .map(([name, ir]) => [name, ir / sample.iterations]);
}

/** Samples of n calls in the counted window; the smallest is the count. */
const WINDOW_SAMPLES = 5;
/** The window when one call is a whole sample (json-reviver's 500 KB cases: 8–280 M instructions a call). */
const WINDOW_SAMPLES_OF_ONE_CALL = 3;
/** Samples of no calls, whose smallest is what a sample costs besides its calls (a collection can land in two in a row: deno's source-context reviver once had 0.58 M and 0.48 M where a sample's own cost is 37 k). */
const EMPTY_SAMPLES = 3;
/**
 * Instructions other threads may run in each sample of no calls before a case is refused: at rest they run next
 * to none; a collection handed to a platform thread lands in one empty sample, not in all of them; a thread the
 * case's code keeps busy runs in every one (test/instructions-stops.test.ts, fixture busy-worker).
 */
const OTHER_THREADS_IDLE_LIMIT = 100_000;
/**
 * Steady state: the last sample falls below the smallest before it by no
 * more than this. Tiering lowers the count by tens of per cent; a collection
 * landing in a sample only raises it, so alternating levels are steady.
 */
const SETTLE_TOLERANCE = 0.03;
const SETTLE_MAX_SAMPLES = 12;

/** Whether a case's counts (instructions per sample, in order) are steady: the last no longer falls. */
function settled(samples: readonly number[]): boolean {
  if (samples.length < 2) return false;
  return samples.at(-1)! >= Math.min(...samples.slice(0, -1)) * (1 - SETTLE_TOLERANCE);
}

/** Instructions per ns of native time, to size the first sample from a timing (a rough guess, off by up to ~5×: that sample measures the real figure). */
const INSTRUCTIONS_PER_NS = 3;
/**
 * How much each case does under valgrind: the native time the W warm-up calls take (W is chosen from the timing; they
 * run uninstrumented), the instructions the first counted sample should hold by the native timing's guess (it measures
 * what n must be), and those a sample of n calls should hold (n × instructions per op).
 */
export interface CountSizes {
  warmNs: number;
  sizingInstructions: number;
  sampleInstructions: number;
}

/**
 * A measuring run's sizes, and a smoke run's (--fixed-warmup: its counts are not read as measurements) a tenth of them:
 * the count per call is the same arithmetic on smaller samples, and a case costs valgrind less (docs/instructions.md).
 */
export function countSizes(smoke: boolean): CountSizes {
  const scale = smoke ? 0.1 : 1;
  return { warmNs: 20e6 * scale, sizingInstructions: 4e6 * scale, sampleInstructions: 10e6 * scale };
}
/** The warm-up's calls go in at most this many samples: the harness's loop is then called often enough to be compiled like the case. */
const WARM_BATCHES = 32;
/** At least this many warm-up calls (a 500 kB parse calls its reviver ~50 000 times: its first call tiers it up). */
const MIN_WARM_CALLS = 4;
/** A warm process's whole life is bounded by this many case timeouts; each case has its own. */
const WARM_PROCESS_TIMEOUTS = 1_000;

/** What prepare() found and was asked: the valgrind binary, whether to simulate the caches, where native helpers are built. */
interface ValgrindSetup {
  valgrind: string;
  cacheSim: boolean;
  libraryDir: string;
}

const CACHE_SIM = 'cache-sim';

/**
 * Processes under valgrind at once, per core: each spends about half its round waiting (vgdb's commands, the host reading
 * dumps), so two a core fill the cores; a count does not depend on what runs beside it (docs/measurements/tests.md).
 */
const PROCESSES_PER_CORE = 2;
/** At most this many at once (a round of the four runtimes). */
const MAX_PARALLEL = 4;

interface InstructionOptions {
  valgrind: string;
  cacheSim: boolean;
  timeoutMs: number;
  /** Processes under valgrind at once (PROCESSES_PER_CORE per core, at most MAX_PARALLEL). */
  parallel: number;
  /** The fixed-random library some engines' processes preload (fixedRandomPreload); without it, they count without it. */
  preload?: string;
  sizes: CountSizes;
}

// Per variant and round, one process under valgrind (callgrind) serves every case in a fixed order, instrumentation off through
// start-up and each case's W warm-up calls; the host dumps the counter (vgdb) after each sample, and once the count of n calls
// stops falling, the count per call is the smallest of the last two samples and WINDOW_SAMPLES - 2 more (WINDOW_SAMPLES_OF_ONE_CALL
// - 2 when n = 1) less the smallest of EMPTY_SAMPLES samples of no calls, over n.
export const INSTRUCTIONS: MeasurerDescriptor = {
  name: 'instructions',
  chosenBy: 'measure',
  record: INSTRUCTIONS_RECORD,
  platforms: VALGRIND_SUPPORT,
  measures: 'instructions per operation',
  metric: INSTRUCTIONS_PER_OP,
  needs: 'valgrind',
  warmsInRuntime: true,
  help: `counted under valgrind (callgrind): per runtime and round one process serves every case, its counter read around samples of n calls, the count per call the smallest of ${WINDOW_SAMPLES} samples less the smallest of ${EMPTY_SAMPLES} empty ones`,
  // 3 rounds, fixed unless --target is given: 3 independent units, the fewest a t interval takes; the counts of a round
  // barely move (docs/instructions.md).
  defaults: {
    bench: { ...TIMING_DEFAULTS.bench, rounds: 3, adaptive: 'when-asked', timeout: '10m' },
    compare: { ...TIMING_DEFAULTS.compare, rounds: 3, adaptive: 'when-asked', timeout: '10m' },
  },
  refuses(variant) {
    const engine = variant.plugin.engine;
    return engine.counting ? undefined : `${engine.displayName} declares no way to make its work repeatable under valgrind, so ${variant.plugin.displayName} cannot be counted (--measure instructions)`;
  },
  options: [{ name: CACHE_SIM, kind: 'flag', help: 'With --measure instructions: simulate the caches too, and report misses and estimated cycles per operation' }],
  prepare(context) {
    let valgrind: string;
    try {
      valgrind = findValgrind();
    } catch (error) {
      throw new MeasurerRefused((error as Error).message);
    }
    const setup: ValgrindSetup = { valgrind, cacheSim: context.given[CACHE_SIM] === true, libraryDir: join(context.cacheDir, 'native') };
    return { setup };
  },
  build(setup) {
    if (!setup.own) throw new Error('instruction counts need a valgrind binary (their prepare() finds it)');
    const { valgrind, cacheSim, libraryDir } = setup.own as ValgrindSetup;
    // Built before the run is recorded, so the record names it only when some engine's processes preload it.
    const preload = fixedRandomPreload(libraryDir, setup.engines, setup.warn);
    // A smoke run: smaller samples, recorded as such.
    const smoke = isSmoke(setup);
    const sizes = countSizes(smoke);
    const measurer = instructionsMeasurer({ valgrind, cacheSim, ...(preload ? { preload } : {}), sizes, timeoutMs: setup.timeoutMs, parallel: Math.min(MAX_PARALLEL, PROCESSES_PER_CORE * availableParallelism()) });
    const engineFlags = {
      ...Object.fromEntries(runtimeEngines().flatMap((e) => (e.counting ? [[e.id, [...e.counting.determinismFlags, ...(preload && e.counting.fixedRandom ? ['LD_PRELOAD=fixed-random (getrandom and getentropy answer fixed bytes)'] : [])]]] : []))),
      ...Object.fromEntries(runtimePlugins().flatMap((p) => (p.countingEnv ? [[`${p.name} environment`, Object.entries(p.countingEnv).map(([k, v]) => `${k}=${v}`)]] : []))),
    };
    return { measurer, fields: { cacheSim, engineFlags, ...(smoke ? { smoke: true as const } : {}) } satisfies InstructionsFields };
  },
};

/**
 * The fixed-random library (host fixed-random.ts) the processes of an engine that declares it
 * (EngineCounting.fixedRandom) preload. Built (or found in the cache) before the run starts when one of `engines` (by
 * the ids runs record) needs it, so the run records it only when it is used; undefined without such a variant, or when
 * it cannot be built (then said in one line).
 */
export function fixedRandomPreload(libraryDir: string | undefined, engines: readonly string[], warn: (line: string) => void): string | undefined {
  const needing = [...new Set(engines.map((id) => engineNamed(id)).filter((e) => e?.counting?.fixedRandom).map((e) => e!.displayName))];
  if (!libraryDir || needing.length === 0) return undefined;
  const library = fixedRandomLibrary(libraryDir);
  if ('path' in library) return library.path;
  warn(`${needing.join(', ')} counted without fixed OS randomness (${library.reason}): its counts may differ between processes`);
  return undefined;
}

/** The variant's flags plus the determinism flags of its engine, translated by its plug-in, and the environment its plug-in counts with (countingEnv). */
function deterministicFlags(arm: Arm, preload?: string): TranslatedFlags {
  const translated = arm.plugin.translateFlags([...arm.variantFlags, ...(arm.plugin.engine.counting?.determinismFlags ?? [])]);
  // The variant's own environment (NODE_ENV=…) stays and wins; the engine's flags are translated afresh with the additions.
  return { args: translated.args, env: { ...arm.plugin.countingEnv, ...(preload ? { LD_PRELOAD: preload } : {}), ...translated.env, ...arm.flags.env } };
}

/** Runs `jobs` with at most `parallel` at once, in order of start. */
async function pool<T>(jobs: (() => Promise<T>)[], parallel: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return out;
}

/** How one arm's process runs a case: W warm-up calls, a first sample that sizes n, then samples of n. */
interface Plan {
  key: string;
  warm: number;
  first: number;
  /** Set once the first sample is counted (or from an earlier round). */
  n: number;
}

/** One dump: the calls of the sample and what the counter read. */
interface Dump {
  iterations: number;
  summary: CountSummary;
}

/** A case of one arm in a round: the outcome of its case and its dumps (the window's samples, then the empty ones), or why there are none. */
interface Counted {
  outcome: JobOutcome;
  dumps: Dump[];
  settle?: number[];
  error?: string;
  /** Cases the process had served before this one. */
  servedBefore: number;
}

/** A process under callgrind and the case ids it served. */
interface CountingProcess {
  process: WarmProcess;
  control: CallgrindControl;
  dir: string;
  arm: Arm;
  served: { unitKey: string; round: number }[];
}

/** What the measurer keeps between replicates: native timings, sample sizes, and the round's warm processes. */
interface CountingState {
  options: InstructionOptions;
  /** ns per operation from a short native run, per case × variant. */
  timings: Map<string, Promise<number | ArmResult>>;
  /** n per case × variant, fixed by its first round (the same work in every round). */
  sampleSizes: Map<string, number>;
  /** The warm processes of the current round, per arm; a crash after its last case's answer fails that case. */
  processes: WarmPool<CountingProcess>;
}

function instructionsMeasurer(options: InstructionOptions): Measurer {
  const processes = new WarmPool<CountingProcess>(
    (held, outcome) => {
      removeGuardedDir(held.dir);
      const last = held.served.at(-1);
      const crash = last && crashAfterLastAnswer(outcome, `the ${held.arm.plugin.name} process under callgrind`, held.served.length, { unitKey: last.unitKey, armId: held.arm.id, round: last.round });
      return crash ? [crash] : [];
    },
    (held) => removeGuardedDir(held.dir),
  );
  const s: CountingState = { options, timings: new Map(), sampleSizes: new Map(), processes };
  return {
    descriptor: INSTRUCTIONS,
    setOrder: 'fixed',
    replicate: (unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> => replicateCounts(s, unit, arms, context),
    async endSet(): Promise<LateFailure[]> {
      for (const [armId] of processes.entries()) processes.retire(armId);
      return processes.drain();
    },
    dispose: () => processes.dispose(),
  };
}

/** ns per operation from a short native run, per case × variant (sizes W and n once). */
function nativeTiming(s: CountingState, arm: Arm, caseId: string, context: ReplicateContext): Promise<number | ArmResult> {
  const { options, timings } = s;
  const key = `${caseId}\u0000${arm.id}`;
  let t = timings.get(key);
  if (!t) {
    const job: Job = { protocol: 1, kind: 'measure', caseId, options: { warmupMs: 30, timeMs: 20, minSamples: 5, maxSamples: 1000, sampleMs: 0 } };
    t = arm.plugin.runJob({ target: arm.target, flags: arm.flags, bundlePath: arm.bundlePath, job, timeoutMs: options.timeoutMs, ...(context.signal ? { signal: context.signal } : {}) }).then((outcome) => {
      const verdict = judgeOutcome(outcome, arm.plugin.name, options.timeoutMs);
      return verdict.kind === 'result' ? Math.max(1, median(verdict.message.samples)) : armResultOf(arm, outcome, options.timeoutMs, context.round, 0);
    });
    timings.set(key, t);
  }
  return t;
}

/** The processes of an engine that declares it run with OS randomness fixed (fixedRandomPreload); others fix their seeds by flags. */
const preloadFor = (options: InstructionOptions, arm: Arm): string | undefined => (arm.plugin.engine.counting?.fixedRandom ? options.preload : undefined);

/** The arm's process for this round (a fresh one when it has none or the last one broke). */
function heldFor(s: CountingState, arm: Arm, flags: TranslatedFlags, context: ReplicateContext): CountingProcess {
  const { options } = s;
  return s.processes.take(arm.id, () => {
    const dir = mkdtempSync(join(tmpdir(), `rtbench-callgrind-${process.pid}-`));
    guardDir(dir);
    const control = new CallgrindControl(options.valgrind, dir, options.cacheSim, undefined, context.signal);
    // The serve job's one warm-up call per case; the host gives the case its W calls in samples (W differs per case).
    const job: Job = { protocol: 1, kind: 'serve', options: { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: 1 } };
    const warm = arm.plugin.startWarm!({ target: arm.target, flags, bundlePath: arm.bundlePath, job, timeoutMs: options.timeoutMs * WARM_PROCESS_TIMEOUTS, wrap: control.wrap, ...(context.signal ? { signal: context.signal } : {}) });
    return { process: warm, control, dir, arm, served: [] };
  });
}

/** A unit's replicate: every arm sized natively (one at a time), then counted on both cores. */
async function replicateCounts(s: CountingState, unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
  const { options } = s;
  const caseId = unit.cases[0]!.id;
  // Size every arm first (native, one at a time), then count on both cores.
  const sizes: (number | ArmResult)[] = [];
  for (const arm of arms) {
    context.onArmStart?.(arm);
    sizes.push(await nativeTiming(s, arm, caseId, context));
  }
  const plans = arms.map((arm, i) => {
    const ns = sizes[i]!;
    if (typeof ns !== 'number') return undefined;
    if (!arm.plugin.startWarm) {
      sizes[i] = { armId: arm.id, warnings: [], outcomes: [{ kind: 'failure', failure: { kind: 'error', message: `${arm.plugin.name} cannot serve many cases in one process (its plug-in has no startWarm), which instruction counts need` } }] };
      return undefined;
    }
    const plan: Plan = {
      key: `${caseId}\u0000${arm.id}`,
      warm: Math.min(1e6, Math.max(MIN_WARM_CALLS, Math.round(options.sizes.warmNs / ns))),
      first: Math.min(1e6, Math.max(1, Math.round(options.sizes.sizingInstructions / (INSTRUCTIONS_PER_NS * ns)))),
      n: 0,
    };
    return { arm, plan };
  });
  const jobs = plans.flatMap((p) => (p ? [() => counted(s, heldFor(s, p.arm, deterministicFlags(p.arm, preloadFor(options, p.arm)), context), unit.key, caseId, p.plan, context)] : []));
  const results = await pool(jobs, options.parallel);
  let k = 0;
  return arms.map((arm, position): ArmResult => {
    const plan = plans[position];
    if (!plan) return sizes[position] as ArmResult;
    return roundOf(options, arm, plan.plan, results[k++]!, position, context.round);
  });
}

/** One case in the arm's process: warm W calls uninstrumented, a sample to retranslate (and size n), steady state, the window, the empty samples. */
async function counted(s: CountingState, held: CountingProcess, unitKey: string, caseId: string, plan: Plan, context: ReplicateContext): Promise<Counted> {
  const { options, sampleSizes } = s;
  const { control } = held;
  const servedBefore = held.served.length;
  held.served.push({ unitKey, round: context.round });
  const live: LiveCase = held.process.open(caseId, options.timeoutMs);
  const dumps: Dump[] = [];
  /** Instructions per call of the samples that checked for steady state (raw, for the record). */
  const settle: number[] = [];
  const ended = async (): Promise<Counted> => ({ outcome: await live.finish(), dumps, servedBefore });
  if (!(await live.ready)) return ended();
  const sample = async (iterations: number): Promise<boolean> => (await live.sample(iterations)) !== undefined;
  /**
   * A counted sample. When one call is a sample (json-reviver's 500 kB cases), the process first empties its young
   * generation and the counter is zeroed after it: the sample then starts from the same young generation in every
   * process and round, and its count holds its own calls, not that collection (core wire.ts COLLECT_COMMAND).
   */
  // The first round records the functions of its counted sample (functionsPerCall), which is one of the window's: the
  // samples of calls that may end in the window are read by function, in that round only.
  const byFunction = context.round === 0;
  const countedSample = async (iterations: number): Promise<boolean> => {
    if ((plan.n || plan.first) === 1) {
      if (!(await live.collect())) return false;
      await control.command('zero');
    }
    return sample(iterations);
  };
  try {
    const batches = Math.min(WARM_BATCHES, plan.warm);
    for (let done = 0, batch = 0; batch < batches; batch++) {
      const calls = Math.round((plan.warm * (batch + 1)) / batches) - done;
      if (calls > 0 && !(await sample(calls))) return ended();
      done += calls;
    }
    await control.command('instrumentation on');
    // Turning instrumentation on throws away every translation: this sample pays for translating the hot code again
    // (valgrind's time, not the count), and its count sizes n.
    if (!(await countedSample(plan.first))) return ended();
    const sizing: Dump = { iterations: plan.first, summary: await control.dump(byFunction) };
    const n = sampleSizes.get(plan.key) ?? Math.min(1e7, Math.max(1, Math.round(options.sizes.sampleInstructions / Math.max(1, sizing.summary.instructions / plan.first))));
    sampleSizes.set(plan.key, n);
    plan.n = n;
    // Steady state, checked on the counter: samples of n until the count stops falling (settled; JIT tiering
    // under valgrind and the engine flags can come later than the native timing suggests; counts show it). When one
    // call is a whole sample (n = 1, as the sizing sample was), the sizing sample is the first of them.
    const steady: Dump[] = sizing.iterations === n ? [sizing] : [];
    settle.push(...steady.map((d) => d.summary.instructions / n));
    while (!settled(steady.map((d) => d.summary.instructions))) {
      if (settle.length === SETTLE_MAX_SAMPLES) {
        return { ...(await ended()), error: `the count per call did not settle within ${SETTLE_MAX_SAMPLES} samples of ${n} calls (last two: ${settle.slice(-2).map((x) => x.toFixed(0)).join(', ')} instructions per call): the count was still falling: the engine is still tiering up` };
      }
      if (!(await countedSample(n))) return ended();
      steady.push({ iterations: n, summary: await control.dump(byFunction) });
      settle.push(steady.at(-1)!.summary.instructions / n);
    }
    // The window: the last two steady samples and more after them (each dump holds one sample and the wait before it),
    // fewer when one call is a sample (each costs 8–280 M instructions on json-reviver); then the empty samples.
    dumps.push(...steady.slice(-2));
    const more = n === 1 ? WINDOW_SAMPLES_OF_ONE_CALL - 2 : WINDOW_SAMPLES - 2;
    for (const iterations of [...Array<number>(more).fill(n), ...Array<number>(EMPTY_SAMPLES).fill(0)]) {
      if (context.signal?.aborted) break;
      if (!(await countedSample(iterations))) return ended();
      dumps.push({ iterations, summary: await control.dump(byFunction && iterations > 0) });
    }
    // The next case's set-up and warm-up run uninstrumented.
    await control.command('instrumentation off');
  } catch (error) {
    held.process.kill();
    // Stopped (Ctrl-C, SIGTERM): the process's outcome says interrupted; no valgrind or ptrace advice.
    if (error instanceof InterruptedCommand) return ended();
    const log = control.logTail();
    return { ...(await ended()), error: `${(error as Error).message}${log ? ` (valgrind: ${log})` : ''}` };
  }
  return { ...(await ended()), settle };
}

/** The arm's round: the digest and outcome from the case's answer, the count from its dumps. */
function roundOf(options: InstructionOptions, arm: Arm, plan: Plan, run: Counted, position: number, round: number): ArmResult {
  const judged = armResultOf(arm, run.outcome, options.timeoutMs, round, position);
  const fail = (message: string): ArmResult => ({ armId: arm.id, warnings: judged.warnings, outcomes: [{ kind: 'failure', failure: { kind: 'error', message } }] });
  if (run.error) return fail(`${arm.plugin.name} under callgrind: ${run.error}${run.servedBefore ? ` (in a process that had served ${run.servedBefore} other cases before)` : ''}`);
  if (judged.outcomes[0]!.kind !== 'round') return judged;
  const window = run.dumps.filter((d) => d.iterations > 0);
  const empty = run.dumps.filter((d) => d.iterations === 0);
  if (window.length < (plan.n === 1 ? WINDOW_SAMPLES_OF_ONE_CALL : WINDOW_SAMPLES) || empty.length < EMPTY_SAMPLES) return fail(`callgrind counted ${window.length} samples of the window and ${empty.length} of ${EMPTY_SAMPLES} empty ones of ${arm.plugin.name}`);
  const n = window[0]!.iterations;
  /**
   * Per call: the smallest window sample less a sample's own cost, the smallest empty sample's (a collection can land in
   * an empty sample too, and only ever adds: node's no-reviver case had 0.64 M and 1.33 M in two of three once,
   * against 45 k); undefined when a dump lacks the figure.
   */
  const perOpOf = (f: (s: CountSummary) => number | undefined): number | undefined => {
    const w = window.map((d) => f(d.summary));
    const e = empty.map((d) => f(d.summary));
    if (w.some((x) => x === undefined) || e.some((x) => x === undefined)) return undefined;
    return (Math.min(...(w as number[])) - Math.min(...(e as number[]))) / n;
  };
  // Work on other threads while no call runs is not the case's: a thread its code started (a Worker) whose
  // instructions would fall into samples at random. Refused, as no count can be attributed.
  const idleElsewhere = Math.min(...empty.map((d) => d.summary.otherThreads ?? 0));
  if (idleElsewhere > OTHER_THREADS_IDLE_LIMIT) {
    return fail(
      `other threads than the case's ran ${idleElsewhere.toLocaleString('en-US')} instructions or more in every sample of no calls: something the case's code started (a Worker?) runs beside it, and its work would fall into the samples at random; instruction counts need the case's work on its own thread`,
    );
  }
  const perOp = perOpOf((s) => s.instructions)!;
  if (!(perOp > 0)) return fail(`${n} calls counted ${perOp * n} instructions beyond what a sample costs without calls: too little work to tell apart from a sample's own cost`);
  const own = Math.min(...empty.map((d) => d.summary.instructions));
  const l1 = perOpOf((s) => s.l1Misses);
  const ll = perOpOf((s) => s.llMisses);
  const cycles = perOpOf(estimatedCycles);
  // The first round's functions stand for the case and variant (counts repeat between rounds; a run of every round's
  // would be ~20 KB a round).
  const functions = round === 0 ? functionsPerCall(window.reduce((least, d) => (d.summary.instructions < least.summary.instructions ? d : least))) : [];
  const counts: CountsRound = {
    tool: `valgrind callgrind${options.cacheSim ? ' --cache-sim=yes' : ''}, counter dumped around the samples of a process serving the round's cases`,
    iterations: [0, n],
    instructions: [own, own + perOp * n],
    dumps: run.dumps.map((d) => [d.iterations, d.summary.instructions]),
    servedBefore: run.servedBefore,
    ...(run.settle ? { settle: run.settle } : {}),
    ...(l1 !== undefined ? { l1MissesPerOp: l1 } : {}),
    ...(ll !== undefined ? { llMissesPerOp: ll } : {}),
    ...(cycles !== undefined ? { estimatedCyclesPerOp: cycles } : {}),
    ...(functions.length ? { functions } : {}),
  };
  const record: RoundRecord = {
    ...(judged.outcomes[0] as { kind: 'round'; record: RoundRecord }).record,
    samples: [perOp],
    iterationsPerSample: plan.n,
    warmupIterations: plan.warm,
    wallMs: run.outcome.wallMs,
    counts,
  };
  delete record.sampleStartMs;
  return { armId: arm.id, warnings: judged.warnings, outcomes: [{ kind: 'round', record }] };
}
