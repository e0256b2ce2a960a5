/** What a request-cpu run records: each round's requests block, the CPU limit per request older runs kept as the measurer's option; its words. */
import { MAX_CPU_LIMIT_MS } from '@rtbench/core/cpu-time';
import { finite } from '@rtbench/core/protocol-schema';
import { maskedAnswerSchema } from '@rtbench/core/schema';
import { z } from 'zod';
import type { MeasurerRecord } from './record.ts';
import { timedMethod } from './timed-methods.ts';
import { TIMING_VERDICT } from './verdict-defaults.ts';

const WHAT = "each round starts a fresh server of each variant (its runtime's own, as its plug-in declares it: a fetch server of its own, node:http with a fetch adapter where it declares none, or the socket of a runtime that serves modules) and sends the declared requests one at a time on 127.0.0.1 (with --concurrency N, N in flight, in waves); a request's CPU is read by the host from /proc/<pid>/task/<tid>/schedstat before it is sent and after its response, once the threads are idle (with N in flight: around the wave, shared by the requests answered in it); a sample is one request, the first the process's first";

/**
 * A request round's own block (request-shaped cases): the process served
 * the requests one at a time (or `concurrency` in flight), and each sample is one request's CPU in ms,
 * read by the host from the process's threads.
 */
const requestsRoundSchema = z.object({
  /** The kind of the mix each sample's request was drawn from (absent: the empty handler's requests). */
  kinds: z.array(z.string()).optional(),
  /** How the handler's requests ended; a request that timed out has no sample. */
  outcomes: z.object({
    ok: z.number().int().nonnegative(),
    serverError: z.number().int().nonnegative(),
    threw: z.number().int().nonnegative(),
    notAResponse: z.number().int().nonnegative(),
    timedOut: z.number().int().nonnegative(),
    /** Of those with no response counted in timedOut, answered with a body over the most the host reads of one (absent in older runs: counted as timed out). */
    tooLong: z.number().int().nonnegative().optional(),
  }),
  /** The requests (as their answers name them, "GET /slow") of which one or more got no whole response from the handler: a kind of answer missing from this variant only is then unanswered, not other work. Absent: every request answered, or a run saved before. */
  unanswered: z.array(z.string()).optional(),
  /** The thread that ran the JavaScript (the one a spin of fixed work moved most), its name, and whether it is the process's main thread. */
  jsThread: z.object({ tid: z.number().int().positive(), name: z.string(), main: z.boolean() }),
  /** Threads the process had. */
  threads: z.number().int().positive(),
  /** Requests read before every thread had gone idle. */
  unsettled: z.number().int().nonnegative(),
  /** The runtime's own thread clock per handler request from the second on, ms (node's process.threadCpuUsage; absent elsewhere). */
  threadClockMs: z.array(finite.nonnegative()).optional(),
  /** Lines the handler wrote to the console (console.log, info, warn, error, debug) while serving the round's handler requests: kept out of the table, counted. */
  consoleLines: z.number().int().nonnegative().optional(),
  /** The answers' masked templates (absent: --same-work strict, or a run saved before masking). */
  answers: z.array(maskedAnswerSchema).optional(),
  /** --same-work strict: per request name, the hash of its answers' distinct digests (core same-work strict.ts), of which the round's digest is. Absent: masked, or a run saved before. */
  strictAnswers: z.record(z.string(), z.string()).optional(),
  /** How the responses proved the same work (--same-work; absent in runs saved before it was recorded: masked when `answers` is there, else strict). */
  sameWork: z.enum(['masked', 'strict']).optional(),
  /** Requests kept in flight to the server (--concurrency; absent: 1, one at a time). Each sample is then its wave's CPU over the requests answered in it. */
  concurrency: z.number().int().positive().optional(),
  /** The client's latency per sample's request, ms: from sending it to the end of its body (absent in older runs, and for the empty handler). */
  latencyMs: z.array(finite.nonnegative()).optional(),
  /**
   * Per sample's request, ms: the same threads' CPU after it (from the read once they were idle to the next
   * request's start, the empty handler's requests taken out; the last request's up to the end of serving), its
   * share of its wave's: work the request left to run later. Absent in older runs, and for the empty handler.
   */
  afterMs: z.array(finite.nonnegative()).optional(),
  /**
   * The process's phases (core cpu-per-request.ts): `steadyFrom`, the index of the first sample of its steady
   * stretch (the first request and the warm-up before it); no `steadyFrom`: it never became steady. Absent:
   * a run saved before phases were told apart (its figures pool every request after the first).
   */
  phases: z.object({ steadyFrom: z.number().int().positive().optional() }).optional(),
});
export type RequestsRound = z.infer<typeof requestsRoundSchema>;

/**
 * A smoke run's (--fixed-warmup, recorded as `smoke`) serving: its figures
 * are not read, so a round that would serve until steady serves `requests`
 * whole, one whose suite fixed a count serves it up to `mostRequests` (the
 * least a measuring round serves: a case written around its count, as the
 * tests' fixtures are, keeps it), the empty handler at most `emptyRequests`, and a profiled
 * server a warm-up by count and a short steady stretch. That each server
 * starts, answers every request and does the same work is what it shows.
 */
export const SMOKE_SERVING = {
  requests: 15,
  mostRequests: 50,
  emptyRequests: 5,
  /** The profile pass: a warm-up of this many requests, then this many under the profile (three of any pattern of every tenth request). */
  profileWarmupRequests: 20,
  profileSteadyRequests: 30,
  /** ... and at least this long: the profile's two marks are told apart only more than 200 ms apart (profile cpuprofile.ts MARK_SPAN_US). */
  profileSteadyMs: 300,
} as const;

const SMOKE = `a smoke run (a fixed warmup): a round that would serve until steady served ${SMOKE_SERVING.requests} requests, a suite's own count at most ${SMOKE_SERVING.mostRequests}, the empty handler at most ${SMOKE_SERVING.emptyRequests}, a profiled server ${SMOKE_SERVING.profileWarmupRequests} requests, then ${SMOKE_SERVING.profileSteadyRequests} and ${SMOKE_SERVING.profileSteadyMs} ms at least under the profile; figures not measurements`;

/**
 * Runs saved when the CPU limit per request was this measurer's option kept
 * it among their options; it is now a view option (--cpu-limit), and such a
 * run is shown with the limit it was saved with unless another is given.
 */
export const REQUEST_CPU_RECORD: MeasurerRecord = {
  kind: 'request-cpu',
  verdict: TIMING_VERDICT,
  schema: z.object({ cpuLimitMs: z.number().positive().max(MAX_CPU_LIMIT_MS).optional(), smoke: z.literal(true).optional() }),
  rounds: { requests: requestsRoundSchema },
  olderKeys: ['cpuLimitMs'],
  older: (o) => (typeof o.cpuLimitMs === 'number' ? { cpuLimitMs: o.cpuLimitMs } : undefined),
  shownWith: (fields) => (typeof fields.cpuLimitMs === 'number' ? { cpuLimitMs: fields.cpuLimitMs } : {}),
  describe: (o) => timedMethod(o.measurerFields?.smoke === true ? `${WHAT}; ${SMOKE}` : WHAT),
};
