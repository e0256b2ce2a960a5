/**
 * The results file, declared once as zod schemas with its types inferred:
 * every run read back from disk is validated (the messages a runtime sends:
 * protocol-schema.ts). A number that fails validation is never shown.
 * Host-only: runtime bundles do not import this module.
 */
import { z } from 'zod';
import { statsSchema } from './stats-schema.ts';
import { clockInfoSchema, engineKind, finite, gcCountersSchema, namedRecord, paramValue, runtimeKind, sampleSpanSchema, warmupSeriesSchema } from './protocol-schema.ts';
import { engineMetricsSchema } from './engine-metrics.ts';
import { claimsBlockSchema } from './claims-schema.ts';
import { METRIC_DIRECTIONS, METRIC_UNITS, type Metric } from './metric.ts';
import { grouped } from './words.ts';

// ---------------------------------------------------------------- results file

export const RUN_SCHEMA = 'rtbench.run';
export const RUN_SCHEMA_VERSION = 1;

export const gitStateSchema = z.object({
  commit: z.string(),
  /** Uncommitted changes to tracked files when the run started. */
  dirty: z.boolean(),
});

/** A package an arm pinned, as its bundle took it: from npm (version and integrity) or a local folder (path, git commit). */
function pinnedPackageSchema() {
  return z.object({
    name: z.string(),
    version: z.string(),
    /** The folder bundled. */
    dir: z.string(),
    /** sha256 over the package's files as bundled. */
    sha256: z.string(),
    /** npm's integrity of the tarball it was installed from. */
    integrity: z.string().optional(),
    /** The local folder the arm named. */
    path: z.string().optional(),
    /** The checkout the local folder is in. */
    git: gitStateSchema.optional(),
    /** Pinned because it moves with another package the arm pinned (react-dom with react). */
    follows: z.string().optional(),
    /** Installed by the suite itself for the arm, as one set with the other packages of its label (a framework, its adapter); sha256 is the set's. */
    set: z.string().optional(),
  });
}

/**
 * The longest text a saved run's facts of its machine and runtimes may hold (a CPU model, a kernel, an
 * environment value, a runtime's version or binary path): a report copies them whole, and a real one is far shorter.
 */
export const MAX_HOST_TEXT = 16_384;
const hostText = z.string().max(MAX_HOST_TEXT);

export const variantSchema = z.object({
  /** Short unique id within the run, e.g. "node@24" or "node@26 --max-semi-space-size=64". */
  id: z.string(),
  runtime: runtimeKind,
  /** The runtime spec as the user wrote it (node@24, node=/path/to/node, deno). */
  spec: z.string(),
  /** Engine flags in rtbench's one syntax (--name=value), before translation. */
  flags: z.array(z.string()),
  /** The arguments / env actually given to the runtime for those flags. */
  translatedFlags: z.object({ args: z.array(z.string()), env: namedRecord(z.string()) }).optional(),
  /** Absent when the runtime could not be found (see `unavailable`). */
  binary: hostText.optional(),
  binarySha256: hostText.optional(),
  source: z.enum(['npm', 'system', 'path']).optional(),
  /** Why this variant did not run (not installed, flag rejected). */
  unavailable: z.string().optional(),
  version: hostText.optional(),
  engine: engineKind.optional(),
  engineVersion: hostText.optional(),
  /**
   * How reports name the runtime and its engine, as their plug-in declared
   * them when the run was recorded: a report needs no plug-in to read a run.
   * Absent in older runs (the CLI fills it in from the registry when it
   * reads one; a runtime no plug-in knows is shown by its recorded name).
   */
  displayNames: z.object({ runtime: hostText, engine: hostText.optional(), engineShort: hostText.optional() }).optional(),
  /** The git commit of the checkout the binary lives in (a user's own build), when it is inside one. */
  binaryGit: gitStateSchema.optional(),
  /** Packages the suite imports that this arm pinned (`react@18.3.1`, `react=/path`), as bundled; and those its suite installed for it (`set`). */
  packages: z.array(pinnedPackageSchema()).optional(),
});

/**
 * What a process's warmup series and the samples after it say about its case
 * (stats steady-state.ts classifyProcess): `flat` (one level from the first
 * watched batch), `warmed` (faster once steady; where: calls and ms),
 * `warmed-late` (its samples stepped down, or an arm's first process was
 * sampled before the horizon its later ones taught: still warming as sampling began),
 * `slowdown` (slower once steady, or its samples stepped up), `no-steady-state`
 * (the watch never found two windows of one level within the maximum).
 */
export const steadyStateSchema = z.object({
  class: z.enum(['flat', 'warmed', 'warmed-late', 'slowdown', 'no-steady-state']),
  /** Where the warmup settled (warmed): calls of the case and ms since warmup began. */
  calls: finite.nonnegative().optional(),
  ms: finite.nonnegative().optional(),
});
export type SteadyState = z.infer<typeof steadyStateSchema>;

/**
 * A process's resident memory while it served one case, read by the host from
 * /proc (VmRSS, VmHWM of the process and what it started), so every runtime is
 * read alike, workerd included. The peak is reset when the case opens
 * (clear_refs), so it is this case's. Absent in older runs and where /proc
 * cannot say. A request round's is its server's: opened as it began to
 * listen, its ready the reading after the warm-up requests, its samples
 * after each steady request (one call each).
 */
export const hostMemorySchema = z.object({
  /** How the figures were read, e.g. "/proc VmRSS and VmHWM (peak reset per case)". */
  source: z.string(),
  /** Resident bytes when the case opened, before its setup (the peak starts here). */
  openBytes: finite.nonnegative(),
  /** Resident bytes once the case was warm (its ready), when the host read it. */
  readyBytes: finite.nonnegative().optional(),
  /** Resident bytes after each sample, in sample order. */
  sampleBytes: z.array(finite.nonnegative()),
  /** Calls of the case in each sample (its timed batch and the untimed pre-batch): the growth per call divides by them. */
  callsPerSample: z.number().int().nonnegative(),
  /** Resident bytes as the case answered, after a full collection where the runtime can force one (bun; V8 under --expose-gc). */
  endBytes: finite.nonnegative().optional(),
  /** readyBytes and endBytes were read after full collections the runtime forced (absent in older runs): they hold no garbage. */
  collected: z.boolean().optional(),
  /** The most resident bytes since the case opened (the kernel's high-water mark). */
  peakBytes: finite.nonnegative(),
  /** Processes the figures add up (the runtime and what it started). */
  processes: z.number().int().positive(),
});
export type HostMemory = z.infer<typeof hostMemorySchema>;

/**
 * One kind of answer a request round's process gave (same-work/answers.ts):
 * a request (method and path), the status and content type it was answered
 * with, and the masked template of its bodies: the text every response
 * shared, with a hole where responses to that request differed.
 */
export const maskedAnswerSchema = z.object({
  /** "GET /bench". */
  request: z.string(),
  status: z.number().int(),
  contentType: z.string().optional(),
  /** Responses of this kind in the round (with `rounds`: in the variant's rounds so far). */
  count: z.number().int().positive(),
  /** The last response's body, bytes. */
  bytes: z.number().int().nonnegative(),
  /** Holes in the template: the spans that changed. */
  spans: z.number().int().nonnegative(),
  /** Characters of the body the holes stood for in the last response. */
  maskedChars: z.number().int().nonnegative(),
  /** The literal text between holes (holes: segments.length - 1), as far as saved. */
  segments: z.array(z.string()),
  /** The saved segments stop short of the template (kept within a bound): `hash` covers all of it. */
  truncated: z.literal(true).optional(),
  /** A truncated template's segments whole (JSON), packed by the host (gzip, base64): saved in the round its template last changed in. */
  packed: z.string().optional(),
  /** The round (counted as `rounds` counts) whose answers hold this template packed. */
  packedRound: z.number().int().positive().optional(),
  /** Headers compared besides the content type (location, and any a suite declares), by lowercase name; absent: none. */
  headers: namedRecord(z.string()).optional(),
  /** Past the characters learned (same-work's MOST_LEARNED_CHARS): the rest's length in characters and sha256, the same in every response. Absent: a body learned whole, or a run saved before. */
  tail: z.object({ chars: z.number().int().positive(), hash: z.string() }).optional(),
  /** Responses too unlike the template to learn from (two pages, not one with changing values): each counted, the first few bodies hashed into `hash`. */
  unmasked: z.number().int().positive().optional(),
  /** The first response unlike the template: why (a bound hit is named, with the way on), and the line where they differ, each side's. Absent in runs saved before it. */
  unlike: z
    .object({
      responses: z.number().int().positive(),
      why: z.string(),
      line: z.number().int().positive().optional(),
      template: z.string().optional(),
      response: z.string().optional(),
    })
    .optional(),
  /** Holes (0-based) whose value came back within one process to a value it had left (41, 42, 41): an answer that alternates, not a time or an id; facing a value another variant held still, it is different work. */
  returning: z.array(z.number().int().nonnegative()).optional(),
  /** Holes (0-based) that took at most same-work's FEW_VALUES values over every request of every round so far, each with those values (sorted), while their text stays within a bound: a hole facing a value another variant held still, that is one of these, is different work (an answer wrong once warm, or in one process). Absent: runs saved before, or a kind past the kinds learned. */
  fewValues: z.array(z.tuple([z.number().int().nonnegative(), z.array(z.string())])).optional(),
  /** Rounds (processes) of the variant the answers were learned from, this one and every one before it: the last round's answers then stand for the variant. Absent: runs saved before. */
  rounds: z.number().int().positive().optional(),
  /** sha256 of the whole template (and of any unmasked response). */
  hash: z.string(),
});
export type MaskedAnswer = z.infer<typeof maskedAnswerSchema>;

/** Which differing line proves two variants did different work (same-work/compare.ts). */
export const workDifferenceSchema = z.object({
  /** The request whose answers differ ("GET /"), with status and content type. */
  answer: z.string(),
  /** 1-based line of the masked bodies where they first differ (absent: they differ in status, content type or count). */
  line: z.number().int().positive().optional(),
  /** Per variant: that line (clipped), or what differs; and the body's length in bytes. */
  variants: namedRecord(z.object({ text: z.string(), bytes: z.number().int().nonnegative().optional() })),
});
export type WorkDifference = z.infer<typeof workDifferenceSchema>;

/**
 * The most samples a saved round may hold: ten times the most a round is
 * measured with (a sampling round stops at 100,000; a request round serves
 * at most 10,000 requests). A file within the read bound may hold a hundred
 * million short numbers in one list; a round past this is refused before its
 * samples are copied or summarised.
 */
export const MOST_ROUND_SAMPLES = 1_000_000;

/** A round's per-sample list, at most MOST_ROUND_SAMPLES long (checked before its items are read). */
const roundSeries = () => z.array(finite.nonnegative()).max(MOST_ROUND_SAMPLES, { error: `more than ${grouped(MOST_ROUND_SAMPLES)} samples in a round (the most a saved round holds)` });

export const roundSchema = z.object({
  round: z.number().int().nonnegative(),
  /** Position of this variant within the round's order (interleaving). */
  order: z.number().int().nonnegative(),
  samples: roundSeries(),
  /** Start of each sample, ms since the process's clock origin; absent in older runs. */
  sampleStartMs: roundSeries().optional(),
  iterationsPerSample: z.number().int().positive(),
  warmupIterations: z.number().int().nonnegative(),
  /** The process's first warmup of this case, as the steady rule watched it (absent: saved before the rule, or a kept case's rewarm). */
  warmup: warmupSeriesSchema.optional(),
  /** The process's classification from its warmup series and samples (absent: not classified: saved before the rule, or not timed in the runtime). */
  steadyState: steadyStateSchema.optional(),
  async: z.boolean(),
  /** Its samples' calls also ran work outside the timing (protocol-schema.ts caseResultMessage). */
  untimedWork: z.literal(true).optional(),
  clock: clockInfoSchema,
  /** The harness's own cost per call in this round's process, ns: an empty case timed by the same loop (absent in older runs, and where nothing is timed in the runtime). */
  floorNs: finite.nonnegative().optional(),
  /** How long its samples were made to span the case's periodic costs (absent in older runs: their samples are a calibrated ~1 ms). */
  span: sampleSpanSchema.optional(),
  digest: z.object({ hash: z.string(), summary: z.string(), rounded: z.string().optional() }),
  gc: gcCountersSchema.optional(),
  /** GC by kind, allocation, heap state of this process's sampling phase (optional: older runs lack it). */
  metrics: engineMetricsSchema.optional(),
  /** Resident memory of this process while it served the case (absent: older runs, or /proc could not say). */
  memory: hostMemorySchema.optional(),
  wallMs: finite.nonnegative(),
})
  // The rest of a round is its measurer's own blocks, by name: its descriptor declares their schemas and the saved-run
  // loader validates them through it (@rtbench/saved-runs), so a measurer saves a round fact without a change here.
  .catchall(z.unknown());

export const failureSchema = z.object({
  /** 'warning': the case ran and was timed; the message says what to look at (not counted as a failure). */
  kind: z.enum(['error', 'unsupported', 'timeout', 'crash', 'digest-mismatch', 'runtime-unavailable', 'interrupted', 'warning']),
  message: z.string(),
  phase: z.string().optional(),
  stack: z.string().optional(),
  stderr: z.string().optional(),
  round: z.number().int().optional(),
});

/** A case × variant's statistics (stats-schema.ts: its own module, so a view that reads them loads no other schema). */
export { statsSchema };

/**
 * Adaptive rounds: what a case x variant aimed for and reached. The target is
 * the half-width of the 95% CI of its paired ratio against the baseline
 * (relative: 0.02 = ±2%); the baseline itself is judged on its own median's CI.
 */
export const precisionSchema = z.object({
  target: finite.positive(),
  /** Half-width reached, relative; absent when no interval could be formed. */
  reached: finite.nonnegative().optional(),
  rounds: z.number().int().nonnegative(),
  /**
   * Why its rounds stopped. Under the 'decided' rule: 'decided' (every cell of
   * the case has a word) or 'out-of-reach' (a cell would need more pairs than
   * the budget had left); 'max-rounds' and 'time-budget' then mean a cell was
   * still open, within reach, when the budget ran out.
   */
  stoppedBy: z.enum(['target', 'max-rounds', 'time-budget', 'interrupted', 'failed', 'decided', 'out-of-reach']),
});

/**
 * What a case × variant cost in resident memory, over the processes the host
 * read (their rounds' `memory`): medians over processes, and whether it kept
 * growing while called (run record.ts, verdicts memory-growth.ts). Absent in
 * older runs and where no round was read.
 */
export const memorySummarySchema = z.object({
  /** Rounds with readings (a round: one process serving the case once). */
  rounds: z.number().int().positive(),
  /** Median over rounds of the peak resident bytes while the case was open. */
  peakBytes: finite.nonnegative(),
  /** Median over rounds of the peak above what the process held as the case opened: over the rounds whose process had served another case first, where there are any (a process's first case also pays the runtime's first growth). */
  peakAboveOpenBytes: finite.nonnegative(),
  /** Median over rounds of the resident set's growth per call over the samples (Theil–Sen), bytes; absent with too few readings. */
  growthPerCallBytes: finite.optional(),
  /** Median over rounds of what the engine held more per call between the collections at both ends of the samples (heap and outside it); absent where a round's engine did not say. */
  heldPerCallBytes: finite.optional(),
  /** Every round's resident set kept growing from warm to the last sample: a leak of about heldPerCallBytes per call where the engine said, growthPerCallBytes otherwise. */
  leak: z.boolean().optional(),
});
export type MemorySummary = z.infer<typeof memorySummarySchema>;

export const caseResultSchema = z.object({
  caseId: z.string(),
  variantId: z.string(),
  status: z.enum(['ok', 'partial', 'failed', 'unsupported']),
  rounds: z.array(roundSchema),
  failures: z.array(failureSchema),
  stats: statsSchema.optional(),
  /** Resident memory over the processes the host read (absent in older runs). */
  memory: memorySummarySchema.optional(),
  precision: precisionSchema.optional(),
  /**
   * The case did no work the harness could see on this variant (run record.ts): it returned undefined, or its fastest
   * process took no more than stats' WITHOUT_WORK_FACTOR times the lowest floor of its processes (an empty case timed
   * by the same loop: the rounds' floorNs). Reports mark it and give its ratio no verdict word. Absent: the case did
   * work, or the run was saved before the rule.
   */
  withoutWork: z
    .object({
      /** Its value was undefined: nothing to digest, and nothing the engine had to compute. */
      returnsUndefined: z.boolean(),
      /** Near the floor: the fastest process's median per call and the lowest floor, ns. */
      nearFloor: z.object({ fastestNs: finite.nonnegative(), floorNs: finite.positive() }).optional(),
    })
    .optional(),
});

/** Adaptive rounds (absent in runs made with a fixed --rounds). */
export const adaptiveOptionsSchema = z.object({
  /** Target half-width of each ratio's CI, relative (0.02 = ±2%). */
  target: finite.positive(),
  /** Rounds every case x variant gets before the target is checked. */
  minRounds: z.number().int().positive(),
  /** No case x variant gets more rounds than this. */
  maxRounds: z.number().int().positive(),
  /** Wall-time budget of the whole run in ms; no new round starts after it. */
  budgetMs: finite.positive().optional(),
  /**
   * When a case stops getting rounds: 'decided', once each of its cells is
   * decided on its confidence sequence (valid at every look) or out of reach,
   * and the table is then read on those sequences at the e-BH level; absent:
   * once every ratio's interval is within ±target (a precision target).
   */
  rule: z.enum(['decided']).optional(),
});

/**
 * The machine's state over a run, read by the host once a second
 * (packages/run machine-watch.ts): what else used the cores, and what the
 * hypervisor took. Shares are in cores (0..cores).
 */
/** The most machine points a saved run may hold: the watcher keeps at most 1,200 (run machine-watch.ts), merging neighbours past it. */
export const MAX_MACHINE_POINTS = 1200;

export const machinePointSchema = z.object({
  /** ms since the run started. */
  atMs: finite.nonnegative(),
  /** The 1-minute load average. */
  load1: finite.nonnegative(),
  /** Cores busy over the interval, everyone's work together. */
  busy: finite.nonnegative(),
  /** Cores the hypervisor gave to other guests over the interval (steal). */
  steal: finite.nonnegative(),
  /** Cores busy with work that is not this run's (busy less the CLI's and its processes'); absent where the run's own CPU cannot be read live. */
  others: finite.nonnegative().optional(),
});

export const machineStateSchema = z.object({
  /** The CPU's current frequency in MHz as the kernel reports it, and the governor that sets it, where readable. */
  cpuMHz: finite.positive().optional(),
  governor: hostText.optional(),
  /** The CPU quota of the cgroup the host runs in ("max" when none), where readable. */
  cpuQuota: hostText.optional(),
  /** ms between points. */
  intervalMs: finite.positive(),
  points: z.array(machinePointSchema).max(MAX_MACHINE_POINTS),
});

export const hostSchema = z.object({
  os: hostText,
  release: hostText,
  arch: hostText,
  cpuModel: hostText,
  cores: z.number(),
  memoryBytes: z.number(),
  loadavg: z.array(z.number()).max(3),
  hostNode: hostText,
  env: z.record(hostText, hostText),
  /** How the processes a run started were contained (@rtbench/process containment.ts): "cgroup v2 (…)", or "none: <why>". Absent in older runs. */
  containment: hostText.optional(),
  /** The memory bound every runtime process was held to, in bytes (--max-memory; @rtbench/process memory-bound.ts). Absent in older runs. */
  memoryBound: z.number().optional(),
  /** The machine's state over the run (absent in older runs). */
  machine: machineStateSchema.optional(),
});

/** What a case's samples measure (metric.ts declares its shape and units, with no zod, for the readers that never validate a run). */
export const metricSchema: z.ZodType<Metric> = z.object({ name: z.string(), unit: z.enum(METRIC_UNITS), direction: z.enum(METRIC_DIRECTIONS) });

/**
 * How a run's samples were taken, as a saved run names it: a measurer's kind
 * (absent in older runs: fresh processes). The schema keeps it as a name, not
 * a closed list: the measurers live in @rtbench/measurers, whose registry checks the
 * name when a saved run needs its measurer (an older run without its words).
 */
export const measurerKindSchema = z.string().regex(/^[a-z][a-z0-9-]*$/);
export type MeasurerKind = z.infer<typeof measurerKindSchema>;

/**
 * A measurer's own record beyond its kind: with `measurer` it is the run's
 * measurer block. Core does not read it; the measurer's descriptor declares
 * and validates its fields when a saved run is loaded (@rtbench/saved-runs
 * results-file.ts), so a new measurer saves its own facts without a change here.
 */
const measurerFieldsSchema = z.record(z.string(), z.unknown());
export type MeasurerFields = z.infer<typeof measurerFieldsSchema>;

/**
 * The verdict's parameters a run was measured for: the noise threshold under
 * which a ratio is "equivalent", and the intervals' confidence. Saved with the
 * run (absent in older runs: the measurer's registry gives them), so a saved
 * run is re-reported with no measurer code.
 */
export const verdictParametersSchema = z.object({ threshold: z.number().min(0).max(1), confidence: z.number().gt(0).lt(1) });
export type VerdictParameters = z.infer<typeof verdictParametersSchema>;

/**
 * How a run was measured, in its measurer's own words (its describe()), kept
 * with the run as its display names are, so a report prints it with no
 * measurer code: how a round was taken, what a row's median and interval are
 * (absent: said from the rows' process counts), and how a paired and an
 * unpaired ratio are made.
 */
/** A measurer's words of its method: copied whole into every report, bounded as the host's facts are (a real one is a few hundred characters). */
const methodText = z.string().max(MAX_HOST_TEXT);
export const measuredBySchema = z.object({ rounds: methodText, stats: methodText.optional(), paired: methodText, unpaired: methodText });
export type MeasuredBy = z.infer<typeof measuredBySchema>;

export const runSchema = z.object({
  schema: z.literal(RUN_SCHEMA),
  schemaVersion: z.literal(RUN_SCHEMA_VERSION),
  id: z.string(),
  status: z.enum(['complete', 'failed', 'interrupted']),
  startedAt: z.string(),
  finishedAt: z.string(),
  command: z.array(z.string()),
  suite: z.string(),
  mode: z.enum(['bench', 'compare']),
  options: z.object({
    timeMs: z.number(),
    warmupMs: z.number(),
    rounds: z.number(),
    timeoutMs: z.number(),
    filter: z.string().optional(),
    /** --shard i/n: this run measured the i-th of n deterministic shares of the cases (1-based). */
    shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).optional(),
    order: z.string(),
    seed: z.number(),
    adaptive: adaptiveOptionsSchema.optional(),
    /**
     * How the samples were taken: its measurer's kind (absent in older runs:
     * fresh processes), whose record (@rtbench/measurer-records) says what it saves.
     */
    measurer: measurerKindSchema.optional(),
    /** What the measurer recorded of itself beyond its kind: its own fields (measurerFieldsSchema). */
    measurerFields: measurerFieldsSchema.optional(),
    /** Adaptive warmup's floor in ms (warmupMs is then its most); absent: a fixed warmup. */
    warmupMinMs: z.number().optional(),
    /** How the measurer measured, in its words (absent in older runs: the CLI describes them from the options above when it loads them). */
    measuredBy: measuredBySchema.optional(),
    /** The verdict's threshold and confidence for this run's variants (absent in older runs: its measurer's defaults). */
    verdict: verdictParametersSchema.optional(),
  }),
  /** The rtbench checkout the run was made from. */
  git: gitStateSchema.optional(),
  /** The installed rtbench's version, when it ran from an installed package rather than a checkout. */
  rtbenchVersion: z.string().optional(),
  /**
   * The code that ran, per runtime: the first 16 hex digits of the sha256 of
   * the suite's bundle (the suite, what it imports, the harness and the entry)
   * without its source map, which names the folder it was bundled in. Shards
   * of one run must agree (rtbench merge); a host-timed suite hashes the sources of all its programs per runtime. Absent for
   * older runs.
   */
  /** Each bundle that ran, by content; `variants` names the arms it served when a runtime's arms were bundled apart (their NODE_ENV). */
  suiteCode: z.array(z.object({ runtime: runtimeKind, sha256: z.string(), variants: z.array(z.string()).optional() })).optional(),
  /** A run merged from shards (rtbench merge): each shard's file, machine and time; `host` is the first shard's. */
  shards: z
    .array(z.object({ index: z.number().int().positive(), count: z.number().int().positive(), file: z.string(), host: hostSchema, startedAt: z.string(), finishedAt: z.string(), cases: z.array(z.string()) }))
    .optional(),
  host: hostSchema,
  variants: z.array(variantSchema),
  cases: z.array(
    z.object({ id: z.string(), name: z.string(), group: z.string().optional(), params: namedRecord(paramValue), metric: metricSchema.optional() }),
  ),
  results: z.array(caseResultSchema),
  /**
   * Where the run's wall time went (absent in older runs): the timed batches
   * of every sample, summed, against the run's wall time.
   */
  timing: z.object({ wallMs: finite.nonnegative(), timedMs: finite.nonnegative() }).optional(),
  /** Cases whose digests differ between variants: they did different work. */
  digestMismatches: z.array(z.object({ caseId: z.string(), digests: namedRecord(z.string()), where: workDifferenceSchema.optional() })),
  /**
   * Request cases whose responses changed from request to request (times,
   * ids, counters) and were proven the same work once those spans were
   * masked: per case, the most holes and masked characters any variant
   * needed, of how many bytes (absent: none, or saved before masking).
   */
  sameWorkMasked: z.array(z.object({ caseId: z.string(), spans: z.number().int().nonnegative(), maskedChars: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() })).optional(),
  /**
   * Cases whose exact digests differ but agree with every non-integer number
   * rounded to `digits` significant digits: the same work, compared with a
   * tolerance (floating-point results that differ in their last bits).
   */
  digestsRounded: z.array(z.object({ caseId: z.string(), digits: z.number().int().positive(), digests: namedRecord(z.string()) })).optional(),
  /** Claims checked by this run and their outcomes (`rtbench claims`; claims-schema.ts, versioned on its own). Absent in other runs. */
  claims: claimsBlockSchema.optional(),
});

export type Variant = z.infer<typeof variantSchema>;
/** A package an arm pinned, as recorded. */
export type PinnedPackage = NonNullable<Variant['packages']>[number];
export type RoundRecord = z.infer<typeof roundSchema>;
export type Failure = z.infer<typeof failureSchema>;
export type CaseStats = z.infer<typeof statsSchema>;
export type CaseResult = z.infer<typeof caseResultSchema>;
export type HostInfo = z.infer<typeof hostSchema>;
export type MachineState = z.infer<typeof machineStateSchema>;
export type MachinePoint = z.infer<typeof machinePointSchema>;
export type RunRecord = z.infer<typeof runSchema>;

/** What of a saved run decides the verdict's parameters it is read with (its measurer's, or as it says). */
export interface VerdictBasis {
  options: Pick<RunRecord['options'], 'measurer' | 'verdict'>;
  variants: readonly Pick<Variant, 'engine' | 'unavailable'>[];
}

// The metrics' shape, constants and helpers live in metric.ts (no zod); the readers of a run that never validate one import them there.
export { asCost, INSTRUCTIONS_PER_OP, metricOf, TIME_PER_OP, type Metric } from './metric.ts';
export type Precision = z.infer<typeof precisionSchema>;
export type GitState = z.infer<typeof gitStateSchema>;
export type AdaptiveOptions = z.infer<typeof adaptiveOptionsSchema>;
export type RuntimeName = z.infer<typeof runtimeKind>;

/** The two fields that say what a JSON file is, read before anything else. */
export const runHeaderSchema = z.object({ schema: z.unknown(), schemaVersion: z.unknown() });

/** Validates a parsed results file; the error names the first bad fields. */
/** A schema error in one line: its first issue and where, and how many more there are. */
function firstIssue(error: z.ZodError): string {
  const [issue, ...rest] = error.issues;
  if (!issue) return 'it does not match the schema';
  const at = issue.path.length ? ` at ${issue.path.map(String).join('.')}` : '';
  return `${issue.message.replace(/\s+/g, ' ')}${at}${rest.length ? ` (and ${rest.length} more)` : ''}`;
}

export function parseRun(json: unknown, source: string): RunRecord {
  const header = runHeaderSchema.safeParse(json);
  if (header.success) {
    const { schema, schemaVersion } = header.data;
    if (schema !== RUN_SCHEMA) throw new Error(`${source} is not an rtbench run (schema is ${JSON.stringify(schema)})`);
    if (schemaVersion !== RUN_SCHEMA_VERSION) {
      throw new Error(`${source} has schema version ${String(schemaVersion)}; this rtbench reads version ${RUN_SCHEMA_VERSION}`);
    }
  }
  const result = runSchema.safeParse(json);
  if (!result.success) throw new Error(`${source} is not a valid rtbench run: ${firstIssue(result.error)}`);
  return result.data;
}
