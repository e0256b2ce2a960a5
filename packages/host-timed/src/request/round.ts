/**
 * One request round: a fresh server of the variant serving the wrapped
 * handler (127.0.0.1, a port the kernel picks), the drawn requests sent one
 * at a time (or N in flight, in waves: waves.ts), each response read to its
 * end and timed by the client, and around each request (or wave) every
 * thread's CPU time read from /proc (before it is sent, and after the
 * response once the threads have gone idle), with requests to the empty
 * handler (the server's own cost) spread among them. A body is read up to
 * a bound (body.ts); a request with no whole response in time has no
 * figure, and the next is sent only once the server is idle again (else
 * the round stops there), so its CPU is charged to no other request. Then
 * the wrapper's record of how each call ended (outcomes.ts), one spin of
 * fixed work (the thread whose CPU it moves runs the JavaScript), and,
 * where the runtime keeps one, its thread clock's readings. A server that
 * answered no request below 500 fails the round (outcomes.ts). The server's
 * resident memory is read from /proc too: as it begins to listen, after each
 * wave once its threads are idle, and as serving ends. The server is
 * stopped by its PID whatever happens; what it left running is named.
 */
import { createHash } from 'node:crypto';
import type { DrawnRequest, WorkersCompatibility } from '@rtbench/core/request';
import type { RequestShape, ResponseNormalizer } from '@rtbench/core';
import type { ServerPermissions } from '@rtbench/core/server-permissions';
import type { MaskedAnswer } from '@rtbench/core/schema';
import { strictAnswers, strictAnswerText, type AnswerLearner } from '@rtbench/core/same-work';
import { leftBehindWarning, ServerMemoryWatch, threadCpuDeltas, threadCpuTimes, totalCpuNs, type ServerMemory, type ThreadCpuTimes } from '@rtbench/process';
import type { RunnableVariant } from '../variant.ts';
import type { BundledProgram } from '@rtbench/host/programs';
import { bundleProgram, variantNodeEnv } from '../bundle.ts';
import { fail, within, type RoundFailure } from '../outcome.ts';
import { choosePinning, pinMainThread } from '../pinning.ts';
import { firstLine } from '@rtbench/core/words';
import { notListening, SAID_CHARS, serverExit, startServer, type RunningServer } from '../server.ts';
import { comparedHeaders, requestName, RoundAnswers, type SameWorkRule } from './answers.ts';
import { BodyBudget, digestResponse, MAX_BODY_BYTES, readBoundedBody } from './body.ts';
import { everyAnswerAnError, parseServed, requestEnd, type Received, type RequestEnd } from './outcomes.ts';
import { RESERVED, type ServedOutcome } from './paths.ts';
import { clockPerHandlerRequest, emptiesAfter, type SentKind } from './schedule.ts';
import { cpuAfter, readWhenIdle, threadName, waitUntilIdle } from './threads.ts';
import { inFlight, perRequestShare, waves } from './waves.ts';

export interface RequestRoundPlan {
  /** The bundled server (a program, or a module its runtime serves). */
  serverPath: string;
  requests: readonly DrawnRequest[];
  /** Requests to the empty handler, spread among the handler's (request/schedule.ts). */
  emptyRequests: number;
  /** How long one request may take before it counts as never answered. */
  requestTimeoutMs: number;
  /** How long the server may take to start. */
  timeoutMs: number;
  /** The handler's Workers compatibility date and flags, for the runtime that serves Workers modules. */
  compatibility?: WorkersCompatibility;
  /** What a server the suite brings declares it needs, for a runtime that grants access by permission. */
  permissions?: ServerPermissions;
  /** How the responses prove the same work: their changing spans masked (default), or every byte (strict). */
  sameWork?: SameWorkRule;
  /** The suite's own normalizing of a body before masking. */
  normalize?: ResponseNormalizer;
  /** Response headers compared besides status, content type and location (the suite's compareHeaders). */
  compareHeaders?: readonly string[];
  /** The arm's answers learned in its earlier rounds (armAnswers()), added to: a value that differs between its processes is masked. Absent: the round learns alone. */
  learner?: AnswerLearner;
  /** Handler requests kept in flight (absent: 1, one at a time); above 1 a request's CPU is its wave's share (waves.ts). */
  concurrency?: number;
  /** Serve `requests` only until this says enough (absent: every one, a count the suite fixed). */
  until?: ServeUntil;
  /** The round sends no more requests past this (or leastBoundMs, if more), ms since it began, and keeps what it measured (absent: no bound). */
  boundMs?: number;
  /** Aborted: the round stops sending and keeps what it measured (the server is stopped). */
  signal?: AbortSignal;
}

/** How a round whose count adapts knows it has served enough: the measurer's rule over what it measured so far. */
export interface ServeUntil {
  /** Requests served before the rule is asked. */
  minRequests: number;
  /** Past this much serving (ms from the first request) the round stops, enough or not. */
  maxServeMs: number;
  /** Per answered and measured handler request so far, in order: its CPU on the busiest thread (ms) and the wave it was read in. */
  enough(ms: readonly number[], waves: readonly number[]): boolean;
}

/** How the handler's requests ended. */
interface RequestOutcomes {
  /** Answered with a Response (any status the handler chose below 500). */
  ok: number;
  /** Answered with a 5xx the handler chose. */
  serverError: number;
  threw: number;
  notAResponse: number;
  /** No whole response from the handler within the request time-out (or a body over the bound); no CPU figure is taken for it. */
  timedOut: number;
  /** Of those, answered with a body over the most the host reads of one (absent: none). */
  tooLong?: number;
}

export interface RequestRoundValues {
  ok: true;
  /** Per answered handler request, in order (the first is the process's first request): ms of CPU. */
  jsThreadMs: number[];
  allThreadsMs: number[];
  /** The kind of each of those requests, by name. */
  kinds: string[];
  /** The wave each of those requests was read in (one at a time: each its own). */
  waves: number[];
  /** The most handler requests that were in flight together. */
  inFlight: number;
  /** The client's latency of each of those requests, ms: from sending it to the end of its body. */
  latencyMs: number[];
  /** Per those requests, ms: the JavaScript thread's CPU after it, and every thread's (threads.ts cpuAfter); absent when not every one was read. */
  afterJsMs?: number[];
  afterAllMs?: number[];
  /** Per empty-handler request: ms of CPU on the JavaScript thread. */
  emptyMs: number[];
  /** The runtime's own thread clock per handler request from the second on, ms (absent: it has none, or requests were in flight together). */
  threadClockMs?: number[];
  /** Console lines the handler wrote while serving the round's requests (absent: the count was not read). */
  consoleLines?: number;
  outcomes: RequestOutcomes;
  jsThread: { tid: number; name: string; main: boolean };
  /** Threads the process had when the spin ran. */
  threads: number;
  /** Requests read before every thread had gone idle (a helper thread still running then). */
  unsettled: number;
  /**
   * The same work on every runtime: every answered handler request's status,
   * content type and masked body (request/answers.ts), or, strict, its status
   * and body digested (digestResponse).
   */
  answer: string;
  /** The answers' masked templates (absent: strict). */
  answers?: MaskedAnswer[];
  /** Strict: per request name, the hash of its answers' distinct digests, which `answer` is of (absent: masked). */
  strictAnswers?: Record<string, string>;
  /** The requests by name ("GET /slow") of which one or more got no whole response from the handler (absent: none). */
  unanswered?: string[];
  wallMs: number;
  /** What cut the round short, when something did (what was measured before it is kept). */
  problem?: string;
  /** Why the empty handler's requests ended early, when they did. */
  emptyProblem?: string;
  /** Notes on the round: a body over the bound, the JavaScript thread found without the spin, processes the server left running. */
  notes: string[];
  /** The server's resident memory while it served (absent: it could not be read as it began: not Linux, or gone). */
  memory?: RoundMemory;
}

/** The server's resident memory over the round, with the reading after each of those requests' waves (undefined: that one could not be read). */
type RoundMemory = Omit<ServerMemory, 'waveBytes'> & { requestBytes: (number | undefined)[] };

export type RequestRoundOutcome = RequestRoundValues | RoundFailure;

/** How long a request's failed connection waits for the server's exit to be seen, ms. */
const EXIT_SEEN_MS = 1_000;
/** Polls of about 1 ms for the threads to go idle after a response. */
const IDLE_POLLS = 20;
/**
 * Waves with a request that never answered after which a round stops
 * sending (its JavaScript thread may be stuck). With N in flight, the
 * requests queued behind a stuck one time out with it: one wave, one count
 * (one at a time, a wave is one request).
 */
const MOST_TIMEOUTS = 3;
/** After a request got no response, how long the server may take to go idle before the round stops: three request time-outs, and at least 10 s (a loaded machine). */
const IDLE_WAIT_TIMEOUTS = 3;
const MIN_IDLE_WAIT_MS = 10_000;
const idleWaitMsFor = (requestTimeoutMs: number): number => Math.max(MIN_IDLE_WAIT_MS, IDLE_WAIT_TIMEOUTS * requestTimeoutMs);
/**
 * The least a round's time bound can be: room for its own rules on requests
 * that get no answer (MOST_TIMEOUTS time-outs, one more request, the idle
 * wait) to act first, so a short --timeout, which is also one request's
 * time-out, cannot end a round at its first slow request.
 */
const leastBoundMs = (requestTimeoutMs: number): number => (MOST_TIMEOUTS + 1) * requestTimeoutMs + idleWaitMsFor(requestTimeoutMs);
/**
 * The host's own requests (the empty handler's, the wrapper's record, the
 * spin that finds the JavaScript thread, the thread clock, the console
 * count, the profile's mark) wait at least this long, ms: a short --timeout
 * is for the handler's requests, and the spin's tens of ms of CPU stretch
 * past a few hundred on a loaded machine.
 */
const OWN_REQUEST_MIN_MS = 2_000;
export const ownRequestTimeoutMs = (requestTimeoutMs: number): number => Math.max(OWN_REQUEST_MIN_MS, requestTimeoutMs);
/** A round that serves until steady asks its rule after every this many requests (the rule reads the whole series). */
const ASK_EVERY = 5;

export type Answer = { status: number; contentType: string | null; location: string | null; headers: Headers; body: Uint8Array } | { none: 'timed out' | 'body too long' } | { error: string };

/** What a request is sent with: a redirect is the handler's answer, never followed (the host requests nothing but its own server). */
export function requestInit(r: RequestShape, timeoutMs: number): RequestInit {
  return {
    method: r.method ?? 'GET',
    headers: { ...r.headers },
    // A Uint8Array is sent as its bytes (the DOM typings ask for an ArrayBuffer-backed view).
    ...(r.body !== undefined ? { body: r.body as string | Uint8Array<ArrayBuffer> } : {}),
    redirect: 'manual',
    // The time-out covers the body too: a body still streaming then is no response.
    signal: AbortSignal.timeout(timeoutMs),
  };
}

/** A redirect's location with the server's own origin taken off (its port is the run's, not the handler's answer). */
export function ownOriginOff(location: string | null, port: number): string | null {
  const own = `http://127.0.0.1:${port}`;
  return location !== null && (location === own || location.startsWith(`${own}/`)) ? location.slice(own.length) || '/' : location;
}

export async function send(port: number, r: RequestShape, timeoutMs: number, path = r.path, take?: (n: number) => Promise<void>): Promise<Answer> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, requestInit(r, timeoutMs));
    const body = await readBoundedBody(response.body, MAX_BODY_BYTES, take);
    return 'tooLong' in body ? { none: 'body too long' } : { status: response.status, contentType: response.headers.get('content-type'), location: ownOriginOff(response.headers.get('location'), port), headers: response.headers, body: body.bytes };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return { none: 'timed out' };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { error: `${(error as Error).message}${cause ? ` (${cause})` : ''}` };
  }
}

interface Measured {
  answer: Answer;
  deltas: Map<number, number>;
  settled: boolean;
}

/** One request with the threads' CPU read around it. */
async function measured(pid: number, port: number, r: RequestShape, timeoutMs: number, path?: string): Promise<Measured> {
  const before = threadCpuTimes(pid);
  const answer = await send(port, r, timeoutMs, path);
  const after = await readWhenIdle(pid, IDLE_POLLS);
  return { answer, deltas: threadCpuDeltas(before, after.times), settled: after.settled };
}

const GET: RequestShape = { path: '/' };

/** One handler request as sent: what came back, the client's latency, and the CPU read around it (its share of its wave's). */
interface SentRequest {
  kind: string;
  request: RequestShape;
  received: Received;
  digest?: string;
  latencyMs: number;
  /** Its CPU (none: its wave had a request with no response, whose CPU is no other request's). */
  deltas?: Map<number, number>;
  /** Its share of the threads' CPU after its wave, up to the next wave's start (threads.ts cpuAfter); none: not read. */
  after?: Map<number, number>;
  wave: number;
  settled: boolean;
  /** A 5xx answer's first line: what a server that answered nothing else is failed with. */
  said?: string;
}

/** The first line of a 5xx answer's body (its start decoded: an error page's first line is near its top). */
const saidBy = (body: Uint8Array): string => firstLine(new TextDecoder().decode(body.subarray(0, 4 * SAID_CHARS)).trim(), SAID_CHARS);

/** Every thread's CPU over a wave, divided among the requests answered in it. */
function shareOf(deltas: Map<number, number>, answered: number): Map<number, number> {
  return new Map([...deltas].map(([tid, ns]) => [tid, perRequestShare(ns, answered) ?? 0]));
}

/** A 5xx answer held until the wrapper's record says the handler gave it. */
interface PendingAnswer {
  readonly call: number;
  readonly request: RequestShape;
  readonly status: number;
  readonly contentType: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}
/** What a held 5xx keeps of its body: an error page, not a page of work. */
const PENDING_BODY_BYTES = 64 * 1024;

/** What is kept of an answer once it is digested: its body is dropped as it arrives (a 5xx's start is held, capped). */
type Digested = { status: number; digest: string; said?: string; held?: Omit<PendingAnswer, 'call'> } | { none: 'timed out' | 'body too long' } | { error: string };

/** A handler request's answer, digested as it arrives so no body outlives its request. */
function digestAnswer(answer: Answer, request: RequestShape, answers: RoundAnswers | undefined, compareHeaders?: readonly string[]): Digested {
  if (!('status' in answer)) return answer;
  const headers = comparedHeaders(answer.location, answer.headers, compareHeaders);
  // A 5xx may be the runtime's own answer for a handler call that never returned (workerd's for a hung handler):
  // it waits, capped, until the wrapper's record says whether the handler gave it, since elsewhere the same call is a time-out.
  const held = answers && answer.status >= 500 ? { request, status: answer.status, contentType: answer.contentType, ...(headers ? { headers } : {}), body: answer.body.slice(0, PENDING_BODY_BYTES) } : undefined;
  if (answers && !held) answers.add(request, { status: answer.status, contentType: answer.contentType, ...(headers ? { headers } : {}) }, answer.body);
  return { status: answer.status, digest: digestResponse(answer.status, answer.body, headers, answer.contentType), ...(answer.status >= 500 ? { said: saidBy(answer.body) } : {}), ...(held ? { held } : {}) };
}

/** Per measured request so far, its CPU on the thread that spent most over them (the JavaScript thread, near enough to judge steadiness by), ms. */
function busiestSeries(sent: readonly SentRequest[]): { ms: number[]; waves: number[] } {
  const measured = sent.filter((s): s is SentRequest & { deltas: Map<number, number> } => s.deltas !== undefined && 'status' in s.received);
  const tid = busiest(cpuByThread(measured), -1);
  return { ms: measured.map((s) => (s.deltas.get(tid) ?? 0) / 1e6), waves: measured.map((s) => s.wave) };
}

/**
 * Whether an adapting round has served enough: past its least, its serving time spent, or (asked every ASK_EVERY
 * requests) its busiest thread's series steady. The least is always served: every runtime's round then holds the same
 * first requests.
 */
function servedEnough(until: NonNullable<RequestRoundPlan['until']>, sent: readonly SentRequest[], servingMs: number, asked: { at: number }): boolean {
  if (sent.length < until.minRequests) return false;
  if (servingMs >= until.maxServeMs) return true;
  if (sent.length - asked.at < ASK_EVERY) return false;
  asked.at = sent.length;
  const series = busiestSeries(sent);
  return until.enough(series.ms, series.waves);
}

/**
 * The empty-handler requests after a wave, each measured as a request is: kept in the round's list and the wave's.
 * An empty request left unanswered ends the round's empty requests (each more could wait its whole time-out): the
 * returned line says why.
 */
async function sendEmpties(server: RunningServer, pid: number, port: number, count: number, ownTimeoutMs: number, into: { empty: Map<number, number>[]; order: SentKind[]; wave?: Map<number, number>[] }): Promise<string | undefined> {
  for (let i = 0; i < count && server.alive(); i++) {
    const e = await measured(pid, port, GET, ownTimeoutMs, RESERVED.empty);
    if (!('status' in e.answer) || e.answer.status !== 200 || e.answer.body.length > 0) {
      return 'status' in e.answer ? `an empty-handler request was answered ${e.answer.status} with ${e.answer.body.length} bytes, not the wrapper's empty 200; the round sent no more of them` : `an empty-handler request got no whole response within ${ownTimeoutMs} ms; the round sent no more of them`;
    }
    into.empty.push(e.deltas);
    into.wave?.push(e.deltas);
    into.order.push('empty');
  }
  return undefined;
}

/** The requests sent, each with its CPU; the first thing that cut the round short, named. */
async function sendAll(v: RunnableVariant, server: RunningServer, pid: number, port: number, plan: RequestRoundPlan, started: number, memory: ServerMemoryWatch) {
  const sent: SentRequest[] = [];
  const empty: Map<number, number>[] = [];
  const order: SentKind[] = [];
  const until = plan.until;
  // Adapting, the empty requests are spread over the least the round serves.
  const emptyAfter = emptiesAfter(until ? Math.min(until.minRequests, plan.requests.length) : plan.requests.length, plan.emptyRequests);
  const idleWaitMs = idleWaitMsFor(plan.requestTimeoutMs);
  const ownTimeoutMs = ownRequestTimeoutMs(plan.requestTimeoutMs);
  const boundMs = plan.boundMs === undefined ? undefined : Math.max(plan.boundMs, leastBoundMs(plan.requestTimeoutMs));
  let problem: string | undefined;
  let emptyProblem: string | undefined;
  let bound: string | undefined;
  let noResponse = 0;
  let stuckWaves = 0;
  let unsent = 0;
  let busy = false;
  let ended = false;
  let stopped = false;
  let inFlightMost = 0;
  // Learned as the responses come, so no body is kept past its request.
  const answers = plan.sameWork === 'strict' ? undefined : new RoundAnswers(plan.normalize, plan.learner);
  const pending: PendingAnswer[] = [];
  const concurrency = plan.concurrency ?? 1;
  const budget = new BodyBudget();
  let servingFrom: number | undefined;
  /** How many requests had been sent when the round last asked whether it was steady. */
  const asked = { at: 0 };
  // The last measured wave, until the next one starts: its threads' idle read, its requests, the empty requests sent after it.
  let previous: { idle: ThreadCpuTimes<number>; measured: SentRequest[]; empties: Map<number, number>[] } | undefined;
  const closePrevious = (next: ThreadCpuTimes<number>): void => {
    if (previous) {
      const share = shareOf(cpuAfter(previous.idle, next, previous.empties), previous.measured.length);
      for (const s of previous.measured) s.after = share;
    }
    previous = undefined;
  };
  for (const [waveIndex, wave] of waves(plan.requests.length, concurrency).entries()) {
    if (plan.signal?.aborted) {
      stopped = true;
      break;
    }
    const now = performance.now();
    if (boundMs !== undefined && now - started >= boundMs) {
      bound = `the round reached its time bound (${Math.round(boundMs / 1000)} s: the run's --timeout, at least room for its requests' own time-outs) and kept the ${sent.length} requests it measured`;
      break;
    }
    if (until && servingFrom !== undefined && servedEnough(until, sent, now - servingFrom, asked)) break;
    servingFrom ??= now;
    inFlightMost = Math.max(inFlightMost, Math.min(concurrency, wave.length));
    // With one request a wave this is a read around that request; with N in flight, around the wave.
    const before = threadCpuTimes(pid);
    closePrevious(before);
    const got = await inFlight(wave.length, concurrency, async (k) => {
      const { request } = plan.requests[wave[k]!]!;
      const reader = {};
      const at = performance.now();
      const answer = await send(port, request, plan.requestTimeoutMs, request.path, (n) => budget.take(reader, n));
      const latencyMs = performance.now() - at;
      try {
        return { answer: digestAnswer(answer, request, answers, plan.compareHeaders), latencyMs };
      } finally {
        budget.give(reader);
      }
      // A request with no response stops the wave: the rest would queue behind it on a server that may be stuck.
    }, (g) => 'none' in g.answer);
    const taken = got.flatMap((g, k) => (g ? [{ ...g, k }] : []));
    unsent += got.length - taken.length;
    const after = await readWhenIdle(pid, IDLE_POLLS);
    // Read after the idle read, before the next wave's CPU read: no request's figure holds it.
    memory.afterWave(waveIndex);
    const answered = taken.filter((g) => 'status' in g.answer).length;
    // A request with no response in the wave: its CPU, spent beside the others', is no answered request's.
    const noneInWave = taken.some((g) => 'none' in g.answer);
    const deltas = noneInWave ? undefined : shareOf(threadCpuDeltas(before, after.times), answered);
    let unanswered: string | undefined;
    const sentBefore = sent.length;
    for (const { answer, latencyMs, k } of taken) {
      const drawn = plan.requests[wave[k]!]!;
      if ('error' in answer) {
        // A refused or reset connection is most often a server going down: its exit is given a moment to be seen.
        if (plan.signal?.aborted) {
          stopped = true;
          continue;
        }
        ended ||= (await within(server.exited, EXIT_SEEN_MS, undefined)) !== undefined;
        problem ??= `a request failed: ${answer.error}`;
        continue;
      }
      if ('none' in answer) {
        sent.push({ kind: drawn.kind, request: drawn.request, received: answer, latencyMs, wave: waveIndex, settled: after.settled });
        noResponse++;
        unanswered ??= answer.none === 'timed out' ? `got no response within ${plan.requestTimeoutMs} ms` : `answered a body over ${MAX_BODY_BYTES / 2 ** 20} MiB`;
        continue;
      }
      if (answer.held) pending.push({ call: sent.length, ...answer.held });
      sent.push({ kind: drawn.kind, request: drawn.request, received: { status: answer.status }, digest: answer.digest, latencyMs, ...(deltas ? { deltas } : {}), wave: waveIndex, settled: after.settled, ...(answer.said ? { said: answer.said } : {}) });
      order.push('handler');
    }
    if (deltas) previous = { idle: after.times, measured: sent.slice(sentBefore).filter((s) => s.deltas), empties: [] };
    if (problem || ended || stopped) break;
    if (unanswered) {
      stuckWaves++;
      if (!server.alive()) ended = true;
      else if (stuckWaves >= MOST_TIMEOUTS) problem = `${noResponse} requests${concurrency > 1 ? ` in ${stuckWaves} waves` : ''} got no whole response; the round stopped sending`;
      // Its CPU, still being spent, belongs to no other request: the next is sent once the server is idle.
      else if (!(await waitUntilIdle(pid, idleWaitMs))) problem = `the server was still running ${idleWaitMs} ms after a request ${unanswered}; the round stopped there`;
      if (problem) {
        busy = server.alive();
        break;
      }
    }
    const empties = taken.reduce((n, { answer, k }) => n + ('status' in answer ? (emptyAfter[wave[k]!] ?? 0) : 0), 0);
    if (emptyProblem === undefined) emptyProblem = await sendEmpties(server, pid, port, empties, ownTimeoutMs, { empty, order, ...(previous ? { wave: previous.empties } : {}) });
  }
  if (stopped) problem ??= `the run was stopped; the round kept the ${sent.length} requests it measured`;
  // The last wave's after: up to the end of serving (a server gone or stopped reads nothing more).
  if (!stopped && server.alive()) closePrevious(threadCpuTimes(pid));
  return { sent, empty, order, problem: problem ?? bound, emptyProblem, busy, ended, stopped, answers, pending, inFlight: Math.max(1, inFlightMost), unsent };
}

export async function runRequestRound(v: RunnableVariant, plan: RequestRoundPlan): Promise<RequestRoundOutcome> {
  const started = performance.now();
  const server = await startServer(v, plan.serverPath, plan.timeoutMs, {
    ...(plan.compatibility ? { compatibility: plan.compatibility } : {}),
    ...(plan.permissions ? { permissions: plan.permissions } : {}),
  });
  const stopOnAbort = (): void => void server.stop();
  plan.signal?.addEventListener('abort', stopOnAbort, { once: true });
  let outcome: RequestRoundOutcome;
  try {
    outcome = await serveRound(v, server, plan, started);
  } finally {
    plan.signal?.removeEventListener('abort', stopOnAbort);
    await server.stop();
    server.cleanup?.();
  }
  // A process a handler started and left running (detached) is ended with the server's; it is named, as a case's is.
  const exit = await within(server.exited, 1_000, undefined);
  const left = exit && leftBehindWarning({ ...(exit.leftBehind ? { leftBehind: exit.leftBehind } : {}) }, v.plugin.name);
  if (left && outcome.ok) outcome.notes.push(left.replace('the case left', 'the request handler left'));
  return outcome;
}

async function serveRound(v: RunnableVariant, server: RunningServer, plan: RequestRoundPlan, started: number): Promise<RequestRoundOutcome> {
  if (server.port === undefined || server.pid === undefined) return notListening(v, server, plan.timeoutMs);
  const { port, pid } = server;
  const pinning = choosePinning();
  if (pinning.server !== undefined) pinMainThread(pid, pinning.server);
  const watch = new ServerMemoryWatch(pid);
  const round = await sendAll(v, server, pid, port, plan, started, watch);
  // Read as serving ends, before the round's own questions (the spin, the counts) make the server do more.
  const resident = watch.end();
  const { sent, empty, order, problem, emptyProblem, busy, answers, pending, stopped } = round;
  // Stopped (the run's stop, a time-out): what was measured is kept; the server, stopped, is asked nothing more.
  if (stopped && !sent.some((s) => s.deltas)) return fail('interrupted', 'interrupted before this round measured a request');
  // A server that ended before its round did crashed. What it answered is a part of the requests the other
  // runtimes answered whole, so its figures would read as other work: the round has none, and says the end.
  if (!stopped && (round.ended || !server.alive())) {
    const answered = sent.filter((s) => 'status' in s.received).length;
    return fail('crash', await serverExit(v, server, ` after answering ${answered} of ${plan.requests.length} requests`), server.output.toString());
  }
  const notes: string[] = [];
  if (sent.some((s) => 'none' in s.received && s.received.none === 'body too long')) notes.push(`a response body passed ${MAX_BODY_BYTES / 2 ** 20} MiB, the most rtbench reads of one: that request has no figure`);
  if (round.unsent) notes.push(`a wave sent no more requests once one got no whole response (${round.unsent} of the drawn requests not sent: they would have queued behind it)`);
  if (sent.some((s) => 'status' in s.received && !s.deltas)) notes.push('a wave with a request that got no whole response gave its answered requests no CPU figure (the CPU it spent is no answered request\'s)');
  const alive = !stopped && server.alive() && !busy;
  const ownTimeoutMs = ownRequestTimeoutMs(plan.requestTimeoutMs);
  const served = alive ? await readServed(port, ownTimeoutMs) : undefined;
  const ends: RequestEnd[] = sent.map((s, call) => requestEnd(s.received, served, call));
  const answered = sent.filter((_, i) => ends[i] !== 'noAnswer');
  const unanswered = [...new Set(sent.filter((_, i) => ends[i] === 'noAnswer').map((s) => requestName(s.request)))];
  // Figures come from the answered requests that were measured (a wave with no response gave none).
  const kept = answered.filter((s): s is SentRequest & { deltas: Map<number, number> } => s.deltas !== undefined);
  for (const p of pending) if (ends[p.call] !== 'noAnswer') answers?.add(p.request, { status: p.status, contentType: p.contentType, ...(p.headers ? { headers: p.headers } : {}) }, p.body);
  if (kept.length === 0) {
    const cause = problem ?? (answered.length ? `no answered request could be measured: each shared its wave with one that got no response (${sent.length} sent)` : sent.length ? `no request was answered by the handler (${sent.length} sent)` : 'no request was answered');
    return fail(sent.length ? 'timeout' : 'error', cause, server.output.toString());
  }
  const refused = everyAnswerAnError(v.plugin.name, sent.map((s, i) => ({ end: ends[i]!, ...('status' in s.received ? { status: s.received.status } : {}), ...(s.said ? { said: s.said } : {}) })), plan.requests.length);
  if (refused) return fail('error', refused, server.output.toString());
  const js = await jsThreadOf(pid, port, ownTimeoutMs, kept, alive);
  if (js.note) notes.push(js.note);
  const clock = alive ? await send(port, GET, ownTimeoutMs, RESERVED.threadClock) : undefined;
  // Its readings follow the responses one by one; with requests in flight together they are no request's own.
  const threadClockMs = clock && 'status' in clock && clock.status === 200 && kept.length === sent.length && (plan.concurrency ?? 1) === 1 ? perRequestClock(new TextDecoder().decode(clock.body), order) : undefined;
  const lines = alive ? await send(port, GET, ownTimeoutMs, RESERVED.consoleLines) : undefined;
  const consoleLines = lines && 'status' in lines && lines.status === 200 ? Number(new TextDecoder().decode(lines.body)) : undefined;
  const masked = answers?.result();
  // Strict, how many answers came is not the work: a time-out answered fewer (core same-work strict.ts).
  const strict = masked ? undefined : strictAnswers(answered.map((s) => ({ request: requestName(s.request), digest: String(s.digest) })), sha256);
  const ms = (ns: number): number => ns / 1e6;
  return {
    ok: true,
    jsThreadMs: kept.map((s) => ms(s.deltas.get(js.tid) ?? 0)),
    allThreadsMs: kept.map((s) => ms(totalCpuNs(s.deltas))),
    kinds: kept.map((s) => s.kind),
    waves: kept.map((s) => s.wave),
    inFlight: round.inFlight,
    latencyMs: kept.map((s) => s.latencyMs),
    ...(kept.every((s) => s.after) ? { afterJsMs: kept.map((s) => ms(s.after!.get(js.tid) ?? 0)), afterAllMs: kept.map((s) => ms(totalCpuNs(s.after!))) } : {}),
    emptyMs: empty.map((d) => ms(d.get(js.tid) ?? 0)),
    ...(threadClockMs ? { threadClockMs } : {}),
    ...(consoleLines !== undefined && Number.isInteger(consoleLines) && consoleLines >= 0 ? { consoleLines } : {}),
    outcomes: countEnds(ends, sent),
    jsThread: { tid: js.tid, name: threadName(pid, js.tid), main: js.tid === pid },
    threads: js.threads,
    unsettled: kept.filter((s) => !s.settled).length,
    answer: masked ? masked.answer : strictAnswerText(strict!, sha256),
    ...(masked ? { answers: masked.answers } : { strictAnswers: strict! }),
    ...(unanswered.length ? { unanswered } : {}),
    wallMs: performance.now() - started,
    ...(problem ? { problem } : {}),
    ...(emptyProblem ? { emptyProblem } : {}),
    notes,
    ...(resident ? { memory: roundMemory(resident, kept) } : {}),
  };
}

/** The server's readings with each kept request's: the reading after its wave. */
function roundMemory({ waveBytes, ...rest }: ServerMemory, kept: readonly { wave: number }[]): RoundMemory {
  return { ...rest, requestBytes: kept.map((s) => waveBytes[s.wave]) };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function countEnds(ends: readonly RequestEnd[], sent: readonly SentRequest[]): RequestOutcomes {
  const outcomes: RequestOutcomes = { ok: 0, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 };
  for (const end of ends) outcomes[end === 'noAnswer' ? 'timedOut' : end]++;
  const tooLong = sent.filter((s) => 'none' in s.received && s.received.none === 'body too long').length;
  return tooLong ? { ...outcomes, tooLong } : outcomes;
}

/** The wrapper's record of how each handler call ended (undefined: it could not be read). */
async function readServed(port: number, timeoutMs: number): Promise<ServedOutcome[] | undefined> {
  const answer = await send(port, GET, timeoutMs, RESERVED.outcomes);
  return 'status' in answer && answer.status === 200 ? parseServed(new TextDecoder().decode(answer.body)) : undefined;
}

/**
 * The JavaScript thread: the one a spin of fixed work moves most; when the
 * spin cannot be sent or gets no answer (the server gone or still busy),
 * the one that spent most over the handler's requests, said in a note.
 */
async function jsThreadOf(pid: number, port: number, timeoutMs: number, kept: readonly { deltas: Map<number, number> }[], alive: boolean): Promise<{ tid: number; threads: number; note?: string }> {
  const spin = alive ? await measured(pid, port, GET, timeoutMs, RESERVED.spin) : undefined;
  if (spin && 'status' in spin.answer) return { tid: busiest(spin.deltas, pid), threads: spin.deltas.size };
  const total = cpuByThread(kept);
  const why = alive ? 'got no answer' : 'could not be sent (the server had stopped serving)';
  return { tid: busiest(total, pid), threads: total.size, note: `the spin that finds the JavaScript thread ${why}: it was taken as the thread that spent most over the handler's requests` };
}

/** Each thread's CPU summed over requests, ns. */
function cpuByThread(requests: readonly { deltas: Map<number, number> }[]): Map<number, number> {
  const total = new Map<number, number>();
  for (const r of requests) for (const [tid, ns] of r.deltas) total.set(tid, (total.get(tid) ?? 0) + ns);
  return total;
}

/** The thread that spent most (the process's main thread when none was read). */
const busiest = (deltas: Map<number, number>, pid: number): number => [...deltas].reduce((best, entry) => (entry[1] > best[1] ? entry : best), [pid, -1])[0];

/** The thread clock's readings (µs, one after each response, a JSON array) as ms per handler request from the second on. */
function perRequestClock(text: string, sent: readonly SentKind[]): number[] | undefined {
  let readings: unknown;
  try {
    readings = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(readings) || !readings.every((x) => typeof x === 'number')) return undefined;
  return clockPerHandlerRequest(readings as number[], sent);
}

/** The handler module bundled for the variant's runtime with the wrapper its server takes (its path is the round's serverPath), with the variant's NODE_ENV; `mapped`: with a source map, for a profile. */
export async function bundleRequestServer(handler: string, v: RunnableVariant, label: string, programDir: string, define?: Readonly<Record<string, string>>, mapped = false): Promise<BundledProgram> {
  return bundleProgram(handler, v.plugin, v.plugin.programs.kind === 'server' ? 'request-handler' : 'request-server', label, programDir, variantNodeEnv(v), define, mapped);
}
