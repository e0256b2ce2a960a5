/**
 * Executes one Job inside a runtime. Each runtime's entry supplies its clock,
 * its facts and a way to emit messages; everything else is shared, so every
 * runtime runs the same setup, digest, warmup and sampling code.
 *
 * A process sends a hello and then exactly one answer: for a measure job a
 * result, "unsupported" or an error (teardown runs before the answer, so a
 * failing teardown is the answer); for a list job the cases or an error.
 */
import { clockInfoOf, type Clock, type ClockInfo } from './clock.ts';
import { digestWithSight, readBodies, UNDEFINED_SUMMARY } from './digest.ts';
import { FLOOR_CASES_BELOW_NS, harnessFloor, measure, measureFixed, warmUp, type MeasureOptions, type Sampler } from './measure.ts';
import type { EngineMetrics } from './engine-metrics.ts';
import type { ErrorMessage, GcCounters, Job, RuntimeFacts, RuntimeMessage, WarmupSeries } from './protocol.ts';
import type { SampleSpan } from './protocol-schema.ts';
import type { YoungGeneration } from './amortize.ts';
import { caseOfCommand, COLLECT_COMMAND, type CaseOpening, FINISH_COMMAND, parseSampleCommand, PROTOCOL_VERSION, SAMPLE_COMMAND } from './protocol.ts';
import { round } from './primordials.ts';
import { UnsupportedError, type CaseContext, type CaseSpec, type ParamValue, type SuiteDefinition, type TimedFn } from './suite.ts';

/**
 * Engine metrics over the sampling phase: `start` runs right before the first
 * sample, `stop` right after the last. A probe whose numbers come from the
 * host (a trace on stderr) uses start/stop to mark the phase in that stream
 * and returns what it can see from inside (or nothing).
 */
export interface MetricsProbe {
  start(): void | Promise<void>;
  stop(): EngineMetrics | undefined | Promise<EngineMetrics | undefined>;
  /**
   * What the engine holds for the program now: its heap in use and the memory outside it that it was told of
   * (ArrayBuffers' backing stores). Read right after a full collection it is what the program kept; absent where the
   * engine cannot say (workerd's isolate reads zeros).
   */
  heldBytes?(): number | undefined;
  /**
   * The young generation as the engine sees it now: the bytes allocated so far and the bytes between two young
   * collections; absent where the engine cannot say (no allocation counter). The warmup reads it before and after
   * to size the samples in the case's collection cycles (amortize.ts cycleFloor).
   */
  youngGeneration?(): YoungGeneration | undefined;
}

export interface RuntimeEnvironment {
  facts: RuntimeFacts;
  clock: Clock;
  emit(message: RuntimeMessage): void;
  metrics?: MetricsProbe;
  /** The host's commands, for lockstep jobs. */
  commands?: CommandSource;
  /**
   * A full collection the runtime can force (Bun.gc(true); gc() under
   * --expose-gc). A warm process runs it before it opens each case after its
   * first, so a case starts from a collected heap whatever ran before it in the process: on
   * bun, cases read slower the more other cases had run before them in the
   * process without it (docs/measurements/lockstep.md, "What ran before").
   */
  collect?: () => void;
  /**
   * Empties the young generation (V8: two scavenges under --expose-gc, the
   * second promoting what survived the first; bun: JSC's eden collection),
   * for a fixed-iteration job's COLLECT_COMMAND. Instruction counts take one
   * before each sample of one call, outside the count: where such a sample
   * starts in the young generation's fill decides which of its own objects its
   * scavenges find alive: without it json-reviver's 500 kB context-parameter
   * reviver moved ±0.17% between processes on node, with it ±0.007%.
   */
  collectYoung?: () => void;
}

/**
 * The collections gc() forces, when the runtime exposes it (V8 under
 * --expose-gc): RuntimeEnvironment.collect (a full collection) and
 * collectYoung (the young generation); none without it. An entry takes them
 * at its top level, before the suite loads (case code may replace
 * globalThis.gc), and spreads them into its environment.
 */
export function exposedCollections(): Pick<RuntimeEnvironment, 'collect' | 'collectYoung'> {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') return {};
  const minor = { type: 'minor' };
  return {
    collect: () => void gc(),
    collectYoung: () => {
      // A survivor is copied within the young generation at its first scavenge and promoted at its second.
      gc(minor);
      gc(minor);
    },
  };
}

/** The single GC count of older runs, from metrics by kind (all kinds, all pause time). */
function gcTotals(metrics: EngineMetrics | undefined): GcCounters | undefined {
  const gc = metrics?.gc;
  if (!gc) return undefined;
  // Plain loops: this runs after case code, which may have replaced Array.prototype's methods.
  const kinds = [gc.minor, gc.major, gc.incremental, gc.other];
  let count = 0;
  let timeMs = 0;
  let timed = true;
  for (let i = 0; i < kinds.length; i++) {
    const k = kinds[i];
    if (k === undefined) continue;
    count += k.count;
    if (k.timeMs === undefined) timed = false;
    else timeMs += k.timeMs;
  }
  const totals: GcCounters = { source: metrics.source, count };
  if (timed) totals.timeMs = timeMs;
  return totals;
}

/** Text of anything thrown; never throws itself (a case may throw null, a Proxy, an object whose toString throws). */
function describeThrown(error: unknown): string {
  try {
    return String(error);
  } catch {
    try {
      return Object.prototype.toString.call(error);
    } catch {
      return 'a thrown value that cannot be described';
    }
  }
}

function errorFields(error: unknown): { message: string; stack?: string } {
  try {
    if (error instanceof Error) {
      const stack = error.stack;
      return { message: `${describeThrown(error.name)}: ${describeThrown(error.message)}`, ...(typeof stack === 'string' && stack ? { stack } : {}) };
    }
  } catch {
    /* a getter threw: describe it as a plain value */
  }
  return { message: describeThrown(error) };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

const GENERATOR_TAGS = new Set(['[object GeneratorFunction]', '[object AsyncGeneratorFunction]']);

/** Said once per case and process when the timed function's value is undefined. */
export const EMPTY_RESULT_WARNING =
  'returns nothing (undefined): rtbench still times it as written, but there is no value to digest, so the check that every runtime did the same work is empty, and the engine may drop work whose result is unused. Return the result from the timed function';

/** Said once per case and process when its value holds content the digest cannot see. */
export const UNSEEN_WARNING = 'its value shows no content to compare for part of it, so the check that every runtime did the same work cannot see that part';

/** What a case's promise that never settles is called, in every runtime. */
export const NEVER_SETTLES =
  'its promise never settles: the process ran out of work (no timer, no I/O, no callback pending) while the case still waited on it, so nothing could ever settle it';

/** The error a process sends for a case whose promise never settles; it then exits, as it can answer no other case. */
export function neverSettlesError(caseId: string | undefined): ErrorMessage {
  return { type: 'error', ...(caseId !== undefined ? { caseId } : {}), phase: 'run', message: NEVER_SETTLES, neverSettles: true };
}

/** The case the job is waiting on, and how many answers it has sent, for an entry that sees its event loop run empty (whenLoopRunsEmpty). */
let awaited: string | undefined;
let answers = 0;

/** An entry's own means, taken before the suite loads (case code may replace globals). */
export interface EntryMeans {
  /** Runs a function after the runtime's other listeners for the empty loop have had their turn. */
  later: (fn: () => void) => void;
  emit: (message: RuntimeMessage) => void;
  exit: (code: number) => void;
}

/**
 * The listener for the runtime's own "event loop ran empty" event before the
 * job ends: the case waits on a promise nothing is left to settle. Said as
 * such, not left to the runtime (which reads it as a crash, or idles until
 * the timeout). It looks a moment later, after the case's own listeners have
 * had their turn (a Node core benchmark's bench.end() check answers with its
 * own reason), and says nothing if an answer was sent meanwhile.
 */
export function whenLoopRunsEmpty({ later, emit, exit }: EntryMeans): () => void {
  return () => {
    const before = answers;
    later(() => {
      if (answers !== before) return;
      emit(neverSettlesError(awaited));
      exit(1);
    });
  };
}

/** Distinct warnings a case may send per process (ctx.warn); past them, one line says the rest were dropped. */
export const MAX_WARNINGS = 20;

function contextFor(spec: CaseSpec, { facts, emit, collect }: RuntimeEnvironment): CaseContext {
  const warned = new Set<string>();
  const waits = new Set<string>();
  return {
    params: spec.params,
    runtime: facts.runtime,
    ...(collect ? { collect } : {}),
    get<T extends ParamValue>(name: string): T {
      if (!(name in spec.params)) throw new Error(`case "${spec.id}" has no parameter "${name}" (declare it with .args)`);
      return spec.params[name] as T;
    },
    unsupported(reason: string): never {
      throw new UnsupportedError(reason);
    },
    warn(message: string): void {
      // Bounded: a case that warns with a new text every call sends the first few, then says it stopped.
      if (warned.has(message) || warned.size > MAX_WARNINGS) return;
      warned.add(message);
      emit({ type: 'warning', caseId: spec.id, message: warned.size > MAX_WARNINGS ? `more than ${MAX_WARNINGS} different warnings; the rest are not shown` : message });
    },
    waitingFor(what: string): void {
      if (waits.has(what) || waits.size >= MAX_WARNINGS) return;
      waits.add(what);
      emit({ type: 'waiting', caseId: spec.id, on: what });
    },
  };
}

type Setup = { fn: TimedFn; teardown: () => Promise<void> };

async function setUp(spec: CaseSpec, ctx: CaseContext): Promise<Setup> {
  const body = spec.body;
  if (!GENERATOR_TAGS.has(Object.prototype.toString.call(body))) {
    return { fn: body as TimedFn, teardown: async () => {} };
  }
  const iterator = (body as (ctx: CaseContext) => Generator<TimedFn> | AsyncGenerator<TimedFn>)(ctx);
  const first = await iterator.next();
  if (first.done || typeof first.value !== 'function') {
    throw new Error(`case "${spec.id}": the generator must yield the function to time`);
  }
  return {
    fn: first.value,
    teardown: async () => {
      await iterator.next();
    },
  };
}

/** The probe's young-generation reading, where it has one; a probe that throws reads as one that cannot say. */
function youngOf(probe: MetricsProbe | undefined): (() => YoungGeneration | undefined) | undefined {
  if (!probe?.youngGeneration) return undefined;
  return () => {
    try {
      return probe.youngGeneration?.();
    } catch {
      return undefined;
    }
  };
}

/** What the engine holds for the program, or undefined where it cannot say or the probe failed. */
function heldBytes(probe: MetricsProbe | undefined): number | undefined {
  try {
    const bytes = probe?.heldBytes?.();
    // Comparisons only: a case may replace the globals (NaN fails both).
    return typeof bytes === 'number' && bytes >= 0 && bytes < Infinity ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** The metrics with what the engine held after the collections at both ends of the samples, where both were read. */
function withHeld(metrics: EngineMetrics | undefined, readyBytes: number | undefined, endBytes: number | undefined): EngineMetrics | undefined {
  if (!metrics || readyBytes === undefined || endBytes === undefined) return metrics;
  return { ...metrics, heap: { ...metrics.heap, heldReadyBytes: readyBytes, heldEndBytes: endBytes } };
}

async function stopMetrics(probe: MetricsProbe | undefined): Promise<EngineMetrics | undefined> {
  if (!probe) return undefined;
  try {
    return await probe.stop();
  } catch (error) {
    return { source: 'probe', unavailable: { gc: `the metrics probe failed: ${errorFields(error).message}` } };
  }
}

/**
 * Where a lockstep job's commands come from (stdin for node, deno and bun;
 * the request body for workerd). Resolves to the next command line, or
 * undefined when the host closed the channel.
 */
export type CommandSource = () => Promise<string | undefined>;

/** The case's first call, its digest and the clock, once per process. */
interface Prepared {
  isAsync: boolean;
  caseDigest: { hash: string; summary: string };
  clockInfo: ClockInfo;
  /** Its samples' calls also run untimed work (TimedFnHooks): the host's wait is not theirs to explain. */
  untimedWork: boolean;
}

/** The harness's own cost per call (measure.ts harnessFloor), taken once per process, when it first warms a case short enough to be near it. */
let processFloor: Promise<number> | undefined;

/**
 * The floor a case's result carries, taken after its last sample: for a case
 * whose fastest sample is under FLOOR_CASES_BELOW_NS per call; none for a
 * longer one. A plain loop: case code may have replaced Array.prototype's methods.
 */
function floorFor(samples: readonly number[], clock: Clock, clockInfo: Prepared['clockInfo']): Promise<number> | undefined {
  let fastest = Infinity;
  for (let i = 0; i < samples.length; i++) if (samples[i]! < fastest) fastest = samples[i]!;
  if (!(fastest < FLOOR_CASES_BELOW_NS)) return undefined;
  processFloor ??= harnessFloor(clock, clockInfo);
  return processFloor;
}

async function prepare(spec: CaseSpec, ctx: CaseContext, setup: Setup, env: RuntimeEnvironment, probe: boolean): Promise<Prepared> {
  // The first call proves the case runs and gives the value whose digest
  // shows what work was done; its result decides sync vs async timing.
  spec.beforeDigestCall?.();
  let first = setup.fn();
  const isAsync = isThenable(first);
  if (isAsync) first = await first;
  const value = spec.digestValue ? spec.digestValue(first) : first;
  // Said for cases brought over from other harnesses (they carry advice); a suite's own
  // case that returns nothing does so on purpose (e.g. the harness's noop).
  if (value === undefined && spec.emptyResultAdvice) ctx.warn(`${EMPTY_RESULT_WARNING}, ${spec.emptyResultAdvice}`);
  // A fixed-iteration job does not probe: the probe reads the clock until it has seen enough steps, so its work depends on time.
  const clockInfo = probe ? clockInfoOf(env.clock) : { name: `${env.clock.name} (not probed: fixed-iteration job)`, resolutionNs: 1, readCostNs: 0, edgeAligned: false };
  // A returned Response's or Request's body is read once from a clone, here, outside the timing, so the digest covers it.
  const { digest: caseDigest, unseen } = digestWithSight(value, await readBodies(value));
  if (unseen.length) ctx.warn(`${UNSEEN_WARNING}: ${unseen.join('; ')}`);
  // A harness whose functions return nothing by design says so in the summary: the host does not take it for a case without work.
  if (value === undefined && spec.returnsNothing) caseDigest.summary = `${UNDEFINED_SUMMARY} (${spec.returnsNothing})`;
  const fn = setup.fn;
  const untimedWork = typeof fn.timeBatch === 'function' || typeof fn.beforeBatch === 'function' || typeof fn.betweenSamples === 'function';
  return { isAsync, caseDigest, clockInfo, untimedWork };
}

function resultMessage(
  spec: CaseSpec,
  prepared: Prepared,
  m: { samples: number[]; sampleStartMs: number[]; iterationsPerSample: number; warmupIterations: number; warmup?: WarmupSeries | undefined; floorNs?: number | undefined; span?: SampleSpan | undefined },
  metrics: EngineMetrics | undefined,
  clock: Clock,
): RuntimeMessage {
  const gc = gcTotals(metrics);
  return {
    type: 'result',
    caseId: spec.id,
    digest: prepared.caseDigest,
    clock: prepared.clockInfo,
    samples: m.samples,
    sampleStartMs: m.sampleStartMs,
    elapsedMs: round(clock.now() / 1e3) / 1e3,
    iterationsPerSample: m.iterationsPerSample,
    warmupIterations: m.warmupIterations,
    ...(m.warmup ? { warmup: m.warmup } : {}),
    async: prepared.isAsync,
    ...(prepared.untimedWork ? { untimedWork: true as const } : {}),
    ...(m.floorNs !== undefined ? { floorNs: m.floorNs } : {}),
    ...(m.span ? { span: m.span } : {}),
    ...(gc ? { gc } : {}),
    ...(metrics ? { metrics } : {}),
  };
}

/** Samples back to back in this process. */
async function measureAnswer(spec: CaseSpec, setup: Setup, prepared: Prepared, options: MeasureOptions, env: RuntimeEnvironment): Promise<RuntimeMessage> {
  if (options.fixedIterations !== undefined) return resultMessage(spec, prepared, await measureFixed(setup.fn, prepared.isAsync, env.clock, options.fixedIterations), undefined, env.clock);
  // Engine metrics cover sampling only, not warmup (where the JIT's own garbage lands).
  const m = await measure(
    setup.fn,
    prepared.isAsync,
    env.clock,
    prepared.clockInfo,
    options,
    async () => {
      await env.metrics?.start();
    },
    youngOf(env.metrics),
  );
  const metrics = await stopMetrics(env.metrics);
  return resultMessage(spec, prepared, { ...m, floorNs: await floorFor(m.samples, env.clock, prepared.clockInfo) }, metrics, env.clock);
}

/**
 * A lockstep conversation: warm up, say ready, then one sample per
 * SAMPLE_COMMAND until FINISH_COMMAND (or the channel closes). Each sample
 * starts with an untimed pre-batch (Sampler.sample), because this
 * process sat idle while the others took theirs.
 */
async function lockstepAnswer(spec: CaseSpec, setup: Setup, prepared: Prepared, options: MeasureOptions, env: RuntimeEnvironment, held?: KeptCase): Promise<RuntimeMessage> {
  const next = env.commands;
  if (!next) throw new Error('rtbench entry: a lockstep job needs a command channel');
  if (options.fixedIterations !== undefined) return fixedLockstepAnswer(spec, setup, prepared, options.fixedIterations, env, next);
  // A kept case opened again is only rewarmed; otherwise the full warmup and calibration.
  let sampler: Sampler;
  let warmupIterations: number;
  // The first visit's warmup series goes with its result; a rewarm is not watched.
  let warmup: WarmupSeries | undefined;
  if (held?.sampler) {
    sampler = held.sampler;
    warmupIterations = await sampler.rewarm();
  } else {
    sampler = await warmUp(setup.fn, prepared.isAsync, env.clock, prepared.clockInfo, options, youngOf(env.metrics));
    warmupIterations = sampler.warmupIterations;
    warmup = sampler.warmup;
    if (held) held.sampler = sampler;
  }
  // Asked for the memory view: a full collection where the runtime can force one, before the metrics' phase and outside
  // every timed batch; the host reads the resident set as `ready` arrives, and the warmup's garbage then does not count
  // in the case's growth. Not otherwise: the heap would grow back while the samples are taken.
  const collected = options.collectBeforeSampling === true && env.collect !== undefined;
  if (collected) env.collect!();
  const heldReadyBytes = collected ? heldBytes(env.metrics) : undefined;
  await env.metrics?.start();
  env.emit({ type: 'ready', caseId: spec.id, iterationsPerSample: sampler.iterationsPerSample, warmupIterations, batchNs: sampler.batchNs, ...(collected ? { collected: true } : {}), ...(sampler.span ? { span: sampler.span } : {}) });
  const samples: number[] = [];
  const sampleStartMs: number[] = [];
  for (;;) {
    const command = await next();
    if (command !== SAMPLE_COMMAND) break;
    const asked = env.clock.now();
    const { ns, startMs } = await sampler.sample(true);
    const index = samples.length;
    samples[index] = ns;
    sampleStartMs[index] = startMs;
    env.emit({ type: 'sample', caseId: spec.id, index, ns, spanNs: env.clock.now() - asked });
  }
  if (!samples.length) throw new Error('the host finished the lockstep job before asking for a sample');
  const stopped = await stopMetrics(env.metrics);
  // A full collection where the runtime can force one, after the metrics' phase: the host reads the resident set as
  // the answer arrives, and memory a collection gives back was not kept by the case (@rtbench/verdicts memory-growth.ts).
  if (options.noCollections !== true) env.collect?.();
  const metrics = withHeld(stopped, heldReadyBytes, heldReadyBytes !== undefined ? heldBytes(env.metrics) : undefined);
  const floorNs = await floorFor(samples, env.clock, prepared.clockInfo);
  return resultMessage(spec, prepared, { samples, sampleStartMs, iterationsPerSample: sampler.iterationsPerSample, warmupIterations, warmup, floorNs, span: sampler.span }, metrics, env.clock);
}

/** Batches of a fixed-iteration lockstep job's warmup. */
const FIXED_WARMUP_BATCHES = 32;

/**
 * The clock of a fixed-iteration job's calls: none is read. Its samples are
 * counted, not timed (they answer 0 ns), and a clock's values would vary what
 * each process allocates (the digits of every answer), and with it where the
 * young generation fills.
 */
const NO_CLOCK: Clock = { name: 'none (a fixed-iteration job is counted, not timed)', now: () => 0 };

/**
 * A fixed-iteration lockstep job (instruction counts: the host reads a
 * counter around each sample): exactly `warmup` calls, ready, then each
 * `sample <n>` is exactly n calls (a bare `sample`: `warmup` calls). No clock
 * is read around the calls (NO_CLOCK) and no metrics probe runs, so the work
 * of a sample depends on n alone.
 */
async function fixedLockstepAnswer(spec: CaseSpec, setup: Setup, prepared: Prepared, warmup: number, env: RuntimeEnvironment, next: CommandSource): Promise<RuntimeMessage> {
  // Warmup in batches like the samples that follow: the harness's own loop is then called often enough to be compiled
  // like the case (one long batch leaves it on-stack-replaced, tiering up again at the first samples).
  for (let batch = 0, done = 0; batch < FIXED_WARMUP_BATCHES; batch++) {
    const calls = batch === FIXED_WARMUP_BATCHES - 1 ? warmup - done : (warmup / FIXED_WARMUP_BATCHES) | 0;
    if (calls <= 0) continue;
    await measureFixed(setup.fn, prepared.isAsync, NO_CLOCK, calls);
    done += calls;
  }
  // No clock is read, so a batch's time is not known: 0, as every sample's.
  env.emit({ type: 'ready', caseId: spec.id, iterationsPerSample: warmup, warmupIterations: warmup, batchNs: 0 });
  const samples: number[] = [];
  const sampleStartMs: number[] = [];
  let iterationsPerSample = warmup;
  /** Sample messages sent: the samples and the collections' answers. */
  let answered = 0;
  for (;;) {
    const command = await next();
    const asked = command === undefined ? null : parseSampleCommand(command);
    if (command === COLLECT_COMMAND) {
      // Answered as a sample of no calls (numbered with the samples) that the result does not hold: the host counts without it (wire.ts COLLECT_COMMAND).
      env.collectYoung?.();
      env.emit({ type: 'sample', caseId: spec.id, index: answered++, ns: 0 });
      continue;
    }
    if (asked === null) break;
    const m = await measureFixed(setup.fn, prepared.isAsync, NO_CLOCK, asked ?? warmup);
    const index = samples.length;
    samples[index] = m.samples[0]!;
    sampleStartMs[index] = m.sampleStartMs[0]!;
    iterationsPerSample = m.iterationsPerSample;
    env.emit({ type: 'sample', caseId: spec.id, index: answered++, ns: m.samples[0]! });
  }
  if (!samples.length) throw new Error('the host finished the lockstep job before asking for a sample');
  return resultMessage(spec, prepared, { samples, sampleStartMs, iterationsPerSample, warmupIterations: warmup }, undefined, env.clock);
}

export async function executeJob(suite: SuiteDefinition, job: Job, env: RuntimeEnvironment): Promise<void> {
  const { emit } = env;
  emit({ type: 'hello', protocol: PROTOCOL_VERSION, facts: env.facts });
  let cases: CaseSpec[];
  try {
    cases = suite.cases();
  } catch (error) {
    // A suite that cannot load in this runtime for a stated reason (e.g. a brought-over file that reads files at load time on workerd).
    const failure = (caseId: string | undefined): RuntimeMessage =>
      error instanceof UnsupportedError && caseId !== undefined ? { type: 'unsupported', caseId, reason: error.message } : { type: 'error', ...(caseId !== undefined ? { caseId } : {}), phase: 'load', ...errorFields(error) };
    // A warm process answers every case it is asked for with the suite's failure.
    if (job.kind === 'serve') await serveCases(env, (opened) => Promise.resolve(failure(opened.caseId)));
    else emit(failure(job.kind === 'list' ? undefined : job.caseId));
    return;
  }
  if (job.kind === 'list') {
    const notes = (suite as { notes?: unknown }).notes;
    emit({ type: 'cases', cases: cases.map(({ id, name, group, params }) => ({ id, name, group, params })), ...(Array.isArray(notes) && notes.length ? { notes: notes.map(String) } : {}) });
    return;
  }
  if (job.kind === 'serve') {
    // Syntax, not Object.create: case code may have replaced it by the time a case is kept.
    const kept: KeptCases = { __proto__: null } as unknown as KeptCases;
    try {
      await serveCases(env, (opened) => caseAnswer(suite, cases, opened.caseId, 'paced', opened.tierUpCallNs !== undefined ? withTierUpRate(job.options, opened.tierUpCallNs) : job.options, env, { kept, keep: opened.keep }), job.options.noCollections !== true);
    } finally {
      // The channel closed: kept cases end here, after every answer. A teardown that fails says so in a late error
      // message, which the host takes after closing the input (@rtbench/process protocol-reader.ts closeInput): it fails
      // that case's last set in this process, as a failing teardown fails the set in which it runs.
      for (const id in kept) {
        awaited = id;
        try {
          await kept[id]!.setup.teardown();
        } catch (error) {
          env.emit({ type: 'error', caseId: id, phase: 'teardown', ...errorFields(error) });
        }
      }
    }
    return;
  }
  awaited = job.caseId;
  emit(await caseAnswer(suite, cases, job.caseId, job.kind, job.options, env));
  answers++;
}

/**
 * A warm process: one case after another, each opened by a CASE_COMMAND and
 * answered as a lockstep job would be, until the host closes the channel;
 * each after the first opened on a collected heap unless the job is a smoke
 * run's (MeasureOptions.noCollections).
 */
async function serveCases(env: RuntimeEnvironment, answer: (opened: CaseOpening) => Promise<RuntimeMessage>, collectBetween = true): Promise<void> {
  const next = env.commands;
  if (!next) throw new Error('rtbench entry: a serve job needs a command channel');
  // The first case finds only the runner's and the suite's loading in the heap, the same for every case. A full
  // collection of that fresh heap can set V8's allocation-site pretenuring the other way for the rest of the process: a
  // retained set's processes then read twice a long loop's time (docs/measurements/independence.md, "A case's
  // process and V8's pretenuring").
  let first = true;
  for (;;) {
    const line = await next();
    if (line === undefined) return;
    // A finish that crossed a case's own early answer (it failed before its first sample) has nothing left to end.
    if (line === FINISH_COMMAND) continue;
    const opened = caseOfCommand(line);
    if (opened === undefined) throw new Error(`rtbench entry: expected a case command, got "${line.slice(0, 100)}"`);
    if (collectBetween && !first) env.collect?.();
    first = false;
    awaited = opened.caseId;
    env.emit(await answer(opened));
    answers++;
  }
}

/** The job's options for a case opened with the rate an earlier process ran it at past the tier-up horizon. */
function withTierUpRate(options: MeasureOptions, tierUpCallNs: number): MeasureOptions {
  return options.steady ? { ...options, steady: { ...options.steady, tierUpCallNs } } : options;
}

/** A case a warm process keeps set up and warm between its opens (protocol.ts KEEP_COMMAND). */
interface KeptCase {
  setup: Setup;
  prepared: Prepared;
  /** Set once the case has warmed up. */
  sampler?: Sampler;
}

/** Kept cases by id (a null-prototype object: case ids are the suite's names, and case code may replace Map's methods). */
type KeptCases = Record<string, KeptCase | undefined>;

/** One case from setup to teardown: its answer (result, unsupported or an error). A kept case skips setup and stays set up after a result. */
async function caseAnswer(
  suite: SuiteDefinition,
  cases: readonly CaseSpec[],
  caseId: string,
  kind: 'measure' | 'paced',
  options: MeasureOptions,
  env: RuntimeEnvironment,
  keeping?: { kept: KeptCases; keep: boolean },
): Promise<RuntimeMessage> {
  let spec: CaseSpec | undefined;
  for (let i = 0; i < cases.length; i++) if (cases[i]!.id === caseId) spec = cases[i];
  if (!spec) return { type: 'error', caseId, phase: 'load', message: `no case "${caseId}" in suite "${suite.name}"` };

  const kept = keeping?.kept;
  let held = kept?.[caseId];
  if (kept) delete kept[caseId];
  let setup: Setup;
  if (held) setup = held.setup;
  else {
    const ctx = contextFor(spec, env);
    try {
      setup = await setUp(spec, ctx);
    } catch (error) {
      if (error instanceof UnsupportedError) return { type: 'unsupported', caseId: spec.id, reason: error.message };
      return { type: 'error', caseId: spec.id, phase: 'setup', ...errorFields(error) };
    }
    try {
      const prepared = await prepare(spec, ctx, setup, env, options.fixedIterations === undefined);
      if (kept && options.fixedIterations === undefined) held = { setup, prepared };
      else held = undefined;
      if (!held) return await tornDown(spec, setup, await lockstepOrMeasure(spec, setup, prepared, kind, options, env));
    } catch (error) {
      return tornDown(spec, setup, failureAnswer(spec, error));
    }
  }

  let answer: RuntimeMessage;
  try {
    answer = await lockstepAnswer(spec, setup, held.prepared, options, env, held);
  } catch (error) {
    answer = failureAnswer(spec, error);
  }
  // Kept for the next open only after a result: a case that failed or was unsupported is not asked again.
  if (keeping?.keep && answer.type === 'result') {
    keeping.kept[caseId] = held;
    return answer;
  }
  return tornDown(spec, setup, answer);
}

function lockstepOrMeasure(spec: CaseSpec, setup: Setup, prepared: Prepared, kind: 'measure' | 'paced', options: MeasureOptions, env: RuntimeEnvironment): Promise<RuntimeMessage> {
  return kind === 'measure' ? measureAnswer(spec, setup, prepared, options, env) : lockstepAnswer(spec, setup, prepared, options, env);
}

function failureAnswer(spec: CaseSpec, error: unknown): RuntimeMessage {
  if (error instanceof UnsupportedError) return { type: 'unsupported', caseId: spec.id, reason: error.message };
  return { type: 'error', caseId: spec.id, phase: 'run', ...errorFields(error) };
}

/** Teardown before the answer: a teardown that fails makes the job fail, and nothing follows the answer. */
async function tornDown(spec: CaseSpec, setup: Setup, answer: RuntimeMessage): Promise<RuntimeMessage> {
  try {
    await setup.teardown();
  } catch (error) {
    if (answer.type !== 'error') return { type: 'error', caseId: spec.id, phase: 'teardown', ...errorFields(error) };
  }
  return answer;
}
