/**
 * The protocol's shapes, declared once as zod schemas; their TypeScript types
 * are inferred here. The host validates every message a runtime sends with
 * them (parseRuntimeMessage). In-runtime code (protocol.ts, execute.ts,
 * measure.ts, the runtimes' entries) imports only the types, with
 * `import type`, so zod never enters the bundle a runtime loads
 * (.dependency-cruiser.in-runtime.cjs fails the build if it would).
 */
import { z } from 'zod';
import { engineMetricsSchema } from './engine-metrics.ts';
import { RUNTIME_NAME_PATTERN } from './suite.ts';
import { PROTOCOL_VERSION, TOKEN_PATTERN } from './wire.ts';
import { finite } from './stats-schema.ts';

export const paramValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * A record keyed by names a user chose (parameters, variants, environment
 * variables): every own key is kept, `__proto__` too (zod's record drops it),
 * in an object without a prototype, so `constructor` or `toString` is a name
 * like any other and no name reaches Object.prototype.
 */
export function namedRecord<T extends z.ZodType>(value: T) {
  return z
    .custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), { message: 'expected an object' })
    .transform((input, ctx) => {
      const out = Object.create(null) as Record<string, z.output<T>>;
      for (const key of Object.keys(input)) {
        const parsed = value.safeParse(input[key]);
        if (parsed.success) out[key] = parsed.data;
        else for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
      }
      return out;
    });
}

/** A runtime plug-in's name: any registered plug-in's, not only the built-in ones. */
export const runtimeKind = z.string().regex(RUNTIME_NAME_PATTERN);
/** An engine's id, as its plug-in declares it (EngineDescriptor.id): "v8". */
export const engineKind = z.string().regex(RUNTIME_NAME_PATTERN);
export { finite };

// ---------------------------------------------------------------- host -> process

export const measureOptionsSchema = z.object({
  /** Warmup before sampling (includes calibration), in ms. */
  warmupMs: finite.nonnegative(),
  /** Time spent taking samples, in ms. */
  timeMs: finite.nonnegative(),
  /** Keep sampling past timeMs until there are at least this many samples. */
  minSamples: z.number().int().nonnegative(),
  /** Stop sampling at this many samples even if time remains. */
  maxSamples: z.number().int().positive(),
  /** Target duration of one sample in ms (0 = choose from the clock). */
  sampleMs: finite.nonnegative(),
  /**
   * The watched warmup's floor as the user gave it (--warmup): the measurer
   * folds it into `steady.minMs` (run's steady-rule.ts), and only a job
   * with `steady` warms adaptively. Absent, or without `steady`: warmup
   * takes exactly warmupMs.
   */
  warmupMinMs: finite.nonnegative().optional(),
  /**
   * A fixed-iteration job (instruction counts): run exactly this many
   * iterations after the first call, with no calibration, warmup or clock
   * loop, so that everything the process does depends on the count, not on
   * time. One sample: the whole loop's time per iteration, for reference.
   */
  fixedIterations: z.number().int().positive().optional(),
  /**
   * A lockstep job's memory view: force a full collection between warmup
   * and the first sample, so the resident set read at `ready` holds only
   * what the case keeps (the leak rule's starting point). Only where asked:
   * the heap the warmup left is the one a timing run should sample.
   */
  collectBeforeSampling: z.boolean().optional(),
  /**
   * Warmup that watches (steady-state.ts): warm until the batch times are
   * steady, within the engine's horizon. Present: warmupMs and warmupMinMs
   * no longer decide when the first visit's warmup ends (warmupMs still caps
   * a kept case's rewarm). The lockstep measurer builds it from the
   * engine's plug-in (steady-rule.ts).
   */
  steady: z
    .object({
      /** Batches in each of the two windows the test compares. */
      windowBatches: z.number().int().min(2),
      /** Two windows are one level when their medians differ by at most this share (or by no more than their noise says). */
      tolerance: finite.positive(),
      /** Never steady before this many ms of warmup (an optimizing compiler on a background thread may not have finished). */
      minMs: finite.nonnegative(),
      /** Never steady before this many calls of the case, where they come within tierUpWithinMs (an engine that tiers up by calls). */
      tierUpCalls: z.number().int().nonnegative(),
      tierUpWithinMs: finite.nonnegative(),
      /**
       * ns per call at which an earlier process of the same runtime ran this
       * case once past the tier-up horizon (the lockstep measurer's learned
       * rate, steady-rule.ts). A process whose batches are one level within
       * the least tier-up step of it does not wait for the tier-up calls; one
       * slower projects them with it when it is faster than its own fastest
       * call, so a process that starts in a slow state still waits for them
       * (steady-state.ts atKnownRate, pastHorizons).
       */
      tierUpCallNs: finite.positive().optional(),
      /** Sampled at this point whatever the batches do: the case found no steady state. */
      maxMs: finite.positive(),
    })
    .optional(),
  /** Grow each sample until it spans the case's own periodic costs, collections first (amortize.ts); the timing measurers send it. */
  amortize: z.literal(true).optional(),
  /** With amortize: a sample lasts at least this long, in ms (amortize.ts SAMPLE_FLOOR_MS). */
  sampleFloorMs: finite.positive().optional(),
  /** With amortize: each lockstep sample's untimed run-up lasts at least this long, in ms (--run-up; run-up.ts runUpCalls). */
  runUpMs: finite.positive().optional(),
  /**
   * The run asked for the engine's collection counts (--metrics gc). A
   * runtime that reads them only from a log its engine writes at every
   * collection (bun: JavaScriptCore's BUN_JSC_logGC) turns that log on for
   * such a run alone: its writes cost a case that collects often time a
   * program does not pay (docs/how-a-number-is-made.md, "Counting bun's
   * collections").
   */
  collectionLog: z.literal(true).optional(),
  /**
   * A smoke run's job (--fixed-warmup, its figures not read): no full
   * collection as a case opens in a warm process or after its last sample.
   * They keep one case's garbage out of the next one's samples and the
   * resident set read at the answer clean; two a case were a fifth of a
   * smoke run's CPU. A case's own gc() calls are kept.
   */
  noCollections: z.literal(true).optional(),
});
export type MeasureOptions = z.infer<typeof measureOptionsSchema>;

const protocol = z.literal(PROTOCOL_VERSION);

/**
 * A warm process that serves many lockstep cases, one after another: it loads
 * the suite once, then per CASE_COMMAND sets the case up, warms it, says
 * `ready`, answers SAMPLE_COMMANDs, and on FINISH_COMMAND tears it down and
 * answers as a lockstep job would; it exits when the host closes the channel.
 * A KEEP_COMMAND opens a case the same way but keeps it warm after its answer:
 * opened again in the same process (a later set), it is only rewarmed
 * (measure.ts REWARM_MS). Kept cases are torn down when the channel closes.
 */
export const serveJobSchema = z.object({ protocol, kind: z.literal('serve'), options: measureOptionsSchema });
export type ServeJob = z.infer<typeof serveJobSchema>;

/**
 * What one process is asked to do. `measure`: warm up, sample back to back,
 * answer. `paced`: warm up, say `ready`, then take one sample each time the
 * host sends SAMPLE_COMMAND (answering with a `sample` message) until it sends
 * FINISH_COMMAND, then answer with the result of all samples; the host asks
 * several live processes in turn, so their samples interleave a few ms apart.
 */
export const jobSchema = z.discriminatedUnion('kind', [
  z.object({ protocol, kind: z.literal('list') }),
  z.object({ protocol, kind: z.literal('measure'), caseId: z.string(), options: measureOptionsSchema }),
  z.object({ protocol, kind: z.literal('paced'), caseId: z.string(), options: measureOptionsSchema }),
  serveJobSchema,
]);
export type Job = z.infer<typeof jobSchema>;

/**
 * A Job as it travels to one process: with that process's token, and the
 * names of the environment variables the variant set. The entry removes every
 * other variable before case code loads, so a case sees the same environment
 * on every runtime (whatever the runtime needed to start, or adds itself).
 */
export const wireJobSchema = z.intersection(jobSchema, z.object({ token: z.string().regex(TOKEN_PATTERN), env: z.array(z.string()) }));
export type WireJob = z.infer<typeof wireJobSchema>;

// ---------------------------------------------------------------- process -> host

/** What a runtime reports about itself, from inside. */
export const runtimeFactsSchema = z.object({
  runtime: runtimeKind,
  version: z.string(),
  engine: engineKind,
  engineVersion: z.string(),
  /** Whether the case can force a GC (gc() / Bun.gc), e.g. under --expose-gc. */
  gcExposed: z.boolean(),
});
export type RuntimeFacts = z.infer<typeof runtimeFactsSchema>;

export const clockInfoSchema = z.object({
  name: z.string(),
  /** Smallest step the clock was seen to take, in ns. */
  resolutionNs: finite.positive(),
  /** Cost of one clock read in ns (fine clocks) or of one spin-loop read (coarse clocks). */
  readCostNs: finite.nonnegative(),
  /** True when samples are timed between clock edges with spin interpolation. */
  edgeAligned: z.boolean(),
});
export type ClockInfo = z.infer<typeof clockInfoSchema>;

const hex16 = z.string().regex(/^[0-9a-f]{16}$/);
export const digestSchema = z.object({
  /** 16 hex digits. */
  hash: hex16,
  /** Human-readable shape, e.g. "Array(1200)" or "number 41.5". */
  summary: z.string(),
  /**
   * The same digest with every non-integer number rounded to
   * DIGEST_SIGNIFICANT_DIGITS; present only when the value holds one. Engines
   * may differ in the last bit of Math.sin and friends: where the exact
   * hashes differ and these agree, the work is the same within that tolerance.
   */
  rounded: hex16.optional(),
});
export type Digest = z.infer<typeof digestSchema>;

export const caseListingSchema = z.object({ id: z.string(), name: z.string(), group: z.string().optional(), params: namedRecord(paramValue) });
export type CaseListing = z.infer<typeof caseListingSchema>;

export const gcCountersSchema = z.object({
  /** Collections during sampling (all kinds the runtime reports). */
  count: finite,
  /** Time spent in GC during sampling, in ms, where the runtime reports it. */
  timeMs: finite.optional(),
  /** Where the numbers come from, e.g. "PerformanceObserver(gc)". */
  source: z.string(),
});
export type GcCounters = z.infer<typeof gcCountersSchema>;

/**
 * A process's warmup of one case, as the in-runtime loop watched it
 * (steady-state.ts): one point per batch (calibration included), merged
 * pairwise past WARMUP_SERIES_POINTS so a long warmup stays short: at each
 * point the calls made so far, the ms since the warmup began, and the batch's
 * ns per call (a merged point: the mean over its batches).
 */
export const warmupSeriesSchema = z.object({
  /** The samples' batches hold this many times the series' last one (grown to span the case's collections: amortize.ts); absent: the same size. */
  samplesGrown: finite.positive().optional(),
  calls: z.array(finite.nonnegative()),
  ms: z.array(finite.nonnegative()),
  ns: z.array(finite.nonnegative()),
  /** Calls made while calibrating the batch size (points up to there are calibration). */
  calibrationCalls: finite.nonnegative(),
  /** Where the test found the batches steady (absent: it never did, and sampling began at maxMs). */
  steadyAt: z.object({ calls: finite.nonnegative(), ms: finite.nonnegative() }).optional(),
  /** The rule's maximum, in ms. */
  maxMs: finite.nonnegative(),
  /**
   * The engine's tier-up horizon in this warmup (absent: it held nothing).
   * `crossed`: one level at `flatAt` before the horizon let the warmup end;
   * `ratio` is the steady window's fastest batch over the flat window's,
   * `stepped` whether they differ by more than a tier-up's least step
   * (steady-state.ts TIER_UP_STEP; older runs compared medians within 2%).
   * `waived`: not waited for, being one level within that step of the rate
   * an earlier process of the arm reached past the horizon (`ratio`: this
   * process's over it; steady-state.ts atKnownRate). Older runs, which
   * waived per arm, have no ratio (docs/warmup.md, "The learned horizon").
   */
  tierUp: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('crossed'), flatAt: z.object({ calls: finite.nonnegative(), ms: finite.nonnegative() }), ratio: finite.positive(), stepped: z.boolean() }),
      z.object({ kind: z.literal('waived'), ratio: finite.positive().optional() }),
    ])
    .optional(),
});
export type WarmupSeries = z.infer<typeof warmupSeriesSchema>;

/**
 * How long a process's samples were made to span the case's periodic costs
 * (amortize.ts): the median ns per call of batches of the calibrated size (the
 * cost between collections), how many times that size a sample holds, and
 * whether the sample hit its cap with its mean still above its median (then
 * the process is read by the mean of its samples); the case's young-generation
 * cycle where the engine said, and the untimed run-up each lockstep sample had.
 */
export const sampleSpanSchema = z.object({
  quietCallNs: finite.nonnegative(),
  grownBy: finite.positive(),
  capped: z.literal(true).optional(),
  /** The case's calls per young-generation cycle, where the engine said and the case allocates (amortize.ts cycleCallsOf); absent otherwise and in older runs. */
  cycleCalls: finite.positive().optional(),
  /** The samples hold this many times the span's batch, raised to the sample floor (amortize.ts SAMPLE_FLOOR_MS); absent: not raised, or an older run. */
  flooredBy: finite.positive().optional(),
  /** Untimed calls before each lockstep sample (run-up.ts runUpCalls); absent in older runs, whose run-up lockstepPreBatch derives. */
  runUpCalls: z.number().int().nonnegative().optional(),
});
export type SampleSpan = z.infer<typeof sampleSpanSchema>;

export const caseResultMessageSchema = z.object({
  type: z.literal('result'),
  caseId: z.string(),
  digest: digestSchema,
  clock: clockInfoSchema,
  samples: z.array(finite.nonnegative()).min(1),
  /** Start of each sample in ms since the process's clock origin (absent from older runners). */
  sampleStartMs: z.array(finite.nonnegative()).optional(),
  /**
   * ms on the process's clock from its hello to this answer (absent from older
   * runners): the host corroborates it with the time it saw pass between the two.
   */
  elapsedMs: finite.nonnegative().optional(),
  iterationsPerSample: z.number().int().positive(),
  warmupIterations: z.number().int().nonnegative(),
  /** The first visit's warmup under a steady rule (absent otherwise, and for a kept case's rewarm). */
  warmup: warmupSeriesSchema.optional(),
  async: z.boolean(),
  /** Each sample's calls also run work outside the timing (hooks before or between batches, a case that times its own regions): the host cannot ask the samples to explain its wait. */
  untimedWork: z.literal(true).optional(),
  /** The harness's own cost per call in this process, ns: an empty case timed by the same loop (measure.ts harnessFloor); absent from fixed-iteration jobs and older runners. */
  floorNs: finite.nonnegative().optional(),
  /** The samples' span of the case's periodic costs (absent: not asked, a fixed-iteration job, or an older runner). */
  span: sampleSpanSchema.optional(),
  gc: gcCountersSchema.optional(),
  /** GC by kind, allocation and heap state over sampling (engine-metrics.ts). */
  metrics: engineMetricsSchema.optional(),
});
export type CaseResultMessage = z.infer<typeof caseResultMessageSchema>;

/** A lockstep process is warmed up and waits for SAMPLE_COMMAND. */
export const readyMessageSchema = z.object({
  type: z.literal('ready'),
  caseId: z.string(),
  iterationsPerSample: z.number().int().positive(),
  warmupIterations: z.number().int().nonnegative(),
  /** ns the last warmup batch took: about how long one sample will take. */
  batchNs: finite.nonnegative(),
  /** The runtime forced a full collection just before, and forces one after the last sample: the host's readings there hold no garbage. */
  collected: z.boolean().optional(),
  /** The sample's span, as the result will say it: with the batch, the run-up each sample has (run-up.ts runUpCalls; protocol.ts lockstepPreBatch). */
  span: sampleSpanSchema.optional(),
});
export type ReadyMessage = z.infer<typeof readyMessageSchema>;

/** One lockstep sample, sent as soon as it is taken (the result repeats every sample). */
export const sampleMessageSchema = z.object({
  type: z.literal('sample'),
  caseId: z.string(),
  /** 0, 1, 2, …: the host's turn. */
  index: z.number().int().nonnegative(),
  /** ns per iteration. */
  ns: finite.nonnegative(),
  /**
   * ns on the process's clock from the host's command to this message: the
   * untimed pre-batch, the timed batch and the harness's work around them.
   * The host corroborates it with the time it waited (absent from older runners).
   */
  spanNs: finite.nonnegative().optional(),
});
export type SampleMessage = z.infer<typeof sampleMessageSchema>;

export const runtimeMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), protocol, facts: runtimeFactsSchema }),
  readyMessageSchema,
  sampleMessageSchema,
  /** `notes`: how a brought file's pieces map onto rtbench (e.g. a chart it asked for is not drawn). */
  z.object({ type: z.literal('cases'), cases: z.array(caseListingSchema), notes: z.array(z.string()).optional() }),
  caseResultMessageSchema,
  z.object({ type: z.literal('unsupported'), caseId: z.string(), reason: z.string() }),
  /** Something the report should say about a case that still ran (e.g. it returns nothing). */
  z.object({ type: z.literal('warning'), caseId: z.string(), message: z.string() }),
  /** What a case that returned before its work ended waits for (ctx.waitingFor): named if the process then ends or times out without the answer. */
  z.object({ type: z.literal('waiting'), caseId: z.string(), on: z.string() }),
  /** `neverSettles`: the case's promise can never settle (the process ran out of work); the process exits, answering no other case. */
  z.object({
    type: z.literal('error'),
    caseId: z.string().optional(),
    phase: z.enum(['load', 'setup', 'run', 'teardown']),
    message: z.string(),
    stack: z.string().optional(),
    neverSettles: z.literal(true).optional(),
  }),
]);
export type RuntimeMessage = z.infer<typeof runtimeMessageSchema>;
/** An error the process reports (a case's setup, run or teardown, or loading the suite). */
export type ErrorMessage = Extract<RuntimeMessage, { type: 'error' }>;

/** Parses one protocol message; throws a readable error for anything malformed. */
export function parseRuntimeMessage(json: unknown): RuntimeMessage {
  const result = runtimeMessageSchema.safeParse(json);
  if (!result.success) throw new Error(`malformed protocol message: ${z.prettifyError(result.error)}`);
  return result.data;
}
