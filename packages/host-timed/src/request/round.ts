/**
 * One request round: a fresh server of the variant serving the wrapped
 * handler (127.0.0.1, a port the kernel picks), the drawn requests sent one
 * at a time, each response read to its end, and around each request every
 * thread's CPU time read from /proc (before it is sent, and after the
 * response once the threads have gone idle), with requests to the empty
 * handler (the server's own cost) spread among them. Then one spin of fixed
 * work (the thread whose CPU it moves runs the JavaScript), and, where the
 * runtime keeps one, its thread clock's readings. The server is stopped by
 * its PID whatever happens.
 */
import { createHash } from 'node:crypto';
import type { DrawnRequest, RequestShape } from '@rtbench/core';
import { threadCpuDeltas, threadCpuTimes, totalCpuNs } from '@rtbench/process';
import type { RunnableVariant } from '@rtbench/runtime-kit';
import type { BundledProgram } from '@rtbench/host';
import { bundleProgram, variantNodeEnv } from '../bundle.ts';
import { fail, type RoundFailure } from '../outcome.ts';
import { choosePinning, pinProcess } from '../pinning.ts';
import { startServer, type RunningServer } from '../load.ts';
import { OUTCOME_HEADER, RESERVED } from './paths.ts';
import { clockPerHandlerRequest, emptiesAfter, type SentKind } from './schedule.ts';
import { readWhenIdle, threadName } from './threads.ts';

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
  signal?: AbortSignal;
}

/** How the handler's requests ended. */
export interface RequestOutcomes {
  /** Answered with a Response (any status the handler chose below 500). */
  ok: number;
  /** Answered with a 5xx the handler chose. */
  serverError: number;
  threw: number;
  notAResponse: number;
  /** No response within the request time-out; no CPU figure is taken for it. */
  timedOut: number;
}

export interface RequestRoundValues {
  ok: true;
  /** Per answered handler request, in order (the first is the process's first request): ms of CPU. */
  jsThreadMs: number[];
  allThreadsMs: number[];
  /** The kind of each of those requests, by name. */
  kinds: string[];
  /** Per empty-handler request: ms of CPU on the JavaScript thread. */
  emptyMs: number[];
  /** The runtime's own thread clock per handler request from the second on, ms (absent: it has none). */
  threadClockMs?: number[];
  outcomes: RequestOutcomes;
  jsThread: { tid: number; name: string; main: boolean };
  /** Threads the process had when the spin ran. */
  threads: number;
  /** Requests read before every thread had gone idle (a helper thread still running then). */
  unsettled: number;
  /** Every answered handler request's status and body, hashed: the same work on every runtime. */
  answer: string;
  wallMs: number;
  /** What cut the round short, when something did (what was measured before it is kept). */
  problem?: string;
}

export type RequestRoundOutcome = RequestRoundValues | RoundFailure;

/** Polls of about 1 ms for the threads to go idle after a response. */
const IDLE_POLLS = 20;
/** Requests that never answer after which a round stops sending (its JavaScript thread may be stuck). */
const MOST_TIMEOUTS = 3;

type Answer = { status: number; outcome: string | null; body: Uint8Array } | { timedOut: true } | { error: string };

async function send(port: number, r: RequestShape, timeoutMs: number, path = r.path): Promise<Answer> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: r.method ?? 'GET',
      headers: { ...r.headers },
      // A Uint8Array is sent as its bytes (the DOM typings ask for an ArrayBuffer-backed view).
      ...(r.body !== undefined ? { body: r.body as string | Uint8Array<ArrayBuffer> } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, outcome: response.headers.get(OUTCOME_HEADER), body: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return { timedOut: true };
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

function notListening(v: RunnableVariant, server: RunningServer, timeoutMs: number): RoundFailure {
  const why = server.alive() ? `did not report a port within ${timeoutMs} ms` : 'exited before it listened';
  return fail(server.alive() ? 'timeout' : 'crash', `the ${v.plugin.name} server ${why}`, server.output.toString());
}

export async function runRequestRound(v: RunnableVariant, plan: RequestRoundPlan): Promise<RequestRoundOutcome> {
  const started = performance.now();
  const server = await startServer(v, plan.serverPath, plan.timeoutMs);
  const stopOnAbort = (): void => void server.stop();
  plan.signal?.addEventListener('abort', stopOnAbort, { once: true });
  try {
    if (server.port === undefined || server.pid === undefined) return notListening(v, server, plan.timeoutMs);
    const { port, pid } = server;
    const pinning = choosePinning();
    if (pinning.server !== undefined) pinProcess(pid, pinning.server);
    const handler: { ns: Map<number, number>; kind: string }[] = [];
    const outcomes: RequestOutcomes = { ok: 0, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 };
    const hash = createHash('sha256');
    let unsettled = 0;
    let problem: string | undefined;
    const empty: Map<number, number>[] = [];
    const sent: SentKind[] = [];
    const emptyAfter = emptiesAfter(plan.requests.length, plan.emptyRequests);
    // An empty request left unanswered ends the round's empty requests: each more could wait its whole timeout.
    let emptiesEnded = false;
    for (const [index, drawn] of plan.requests.entries()) {
      if (plan.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
      const m = await measured(pid, port, drawn.request, plan.requestTimeoutMs);
      if ('timedOut' in m.answer) {
        if (++outcomes.timedOut >= MOST_TIMEOUTS) {
          problem = `${outcomes.timedOut} requests got no response within ${plan.requestTimeoutMs} ms; the round stopped sending`;
          break;
        }
        continue;
      }
      if ('error' in m.answer) {
        problem = `a request failed: ${m.answer.error}${server.alive() ? '' : ' (the server had exited)'}`;
        break;
      }
      const { status, outcome, body } = m.answer;
      if (outcome === 'threw') outcomes.threw++;
      else if (outcome === 'not-a-response') outcomes.notAResponse++;
      else if (status >= 500) outcomes.serverError++;
      else outcomes.ok++;
      hash.update(`${status} ${createHash('sha256').update(body).digest('hex')}\n`);
      if (!m.settled) unsettled++;
      handler.push({ ns: m.deltas, kind: drawn.kind });
      sent.push('handler');
      for (let i = 0; i < emptyAfter[index]! && !emptiesEnded && server.alive(); i++) {
        const e = await measured(pid, port, GET, plan.requestTimeoutMs, RESERVED.empty);
        if (!('status' in e.answer)) {
          emptiesEnded = true;
          break;
        }
        empty.push(e.deltas);
        sent.push('empty');
      }
    }
    if (handler.length === 0) return fail(outcomes.timedOut ? 'timeout' : 'error', problem ?? 'no request was answered', server.output.toString());
    const spin = await measured(pid, port, GET, plan.requestTimeoutMs, RESERVED.spin);
    if (!('status' in spin.answer)) return fail('error', 'the spin that finds the JavaScript thread got no answer', server.output.toString());
    const [tid] = [...spin.deltas].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
    const clock = await send(port, GET, plan.requestTimeoutMs, RESERVED.threadClock);
    const threadClockMs = 'status' in clock && clock.status === 200 ? perRequestClock(new TextDecoder().decode(clock.body), sent) : undefined;
    const ms = (ns: number): number => ns / 1e6;
    return {
      ok: true,
      jsThreadMs: handler.map((h) => ms(h.ns.get(tid) ?? 0)),
      allThreadsMs: handler.map((h) => ms(totalCpuNs(h.ns))),
      kinds: handler.map((h) => h.kind),
      emptyMs: empty.map((d) => ms(d.get(tid) ?? 0)),
      ...(threadClockMs ? { threadClockMs } : {}),
      outcomes,
      jsThread: { tid, name: threadName(pid, tid), main: tid === pid },
      threads: spin.deltas.size,
      unsettled,
      answer: `${handler.length} responses, sha256 ${hash.digest('hex')}`,
      wallMs: performance.now() - started,
      ...(problem ? { problem } : {}),
    };
  } finally {
    plan.signal?.removeEventListener('abort', stopOnAbort);
    await server.stop();
    server.cleanup?.();
  }
}

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

/** The handler module bundled for the variant's runtime with the wrapper its server takes (its path is the round's serverPath), with the variant's NODE_ENV. */
export async function bundleRequestServer(handler: string, v: RunnableVariant, label: string, programDir: string): Promise<BundledProgram> {
  return bundleProgram(handler, v.plugin, v.plugin.programs.kind === 'server' ? 'request-handler' : 'request-server', label, programDir, variantNodeEnv(v));
}
