/**
 * A request case's server under a CPU profiler (@rtbench/profile takes the
 * profile): a fresh server of the variant, started with the profiler's
 * flags before the variant's (a runtime that writes its profile at exit) or
 * with its inspector on (a runtime that serves programs), sent the case's
 * requests one at a time, in their drawn order and again from the first:
 * a warm-up, the profile's begin mark (paths.ts PROFILE_MARKS), the steady
 * requests the profile is of, its end mark; then asked to exit, so that a runtime
 * that writes its profile at exit writes it. Never a measured server: no
 * CPU is read.
 */
import type { DrawnRequest, WorkersCompatibility } from '@rtbench/core/request';
import type { ServerPermissions } from '@rtbench/core/server-permissions';
import type { TranslatedFlags } from '@rtbench/runtime-kit';
import { fail, type RoundFailure } from '../outcome.ts';
import { notListening, serverExit, startServer } from '../server.ts';
import type { RunnableVariant } from '../variant.ts';
import { RESERVED } from './paths.ts';
import { ownRequestTimeoutMs, send, type Answer } from './round.ts';

/** What a request case's server is, as its measured rounds serve it: the measurer hands it to the profile pass. */
export interface ProfileServing {
  /** The bundled server (a program, or a module its runtime serves; bundled with a source map for the profile), or the one the suite brings. */
  serverPath: string;
  /** The case's requests, in their drawn order. */
  requests: readonly DrawnRequest[];
  requestTimeoutMs: number;
  /** How long the server may take to start. */
  timeoutMs: number;
  compatibility?: WorkersCompatibility;
  permissions?: ServerPermissions;
  /** The warm-up and steady requests by the measurer's rule (a smoke run's: by count alone); absent: the profiler's own. */
  phases?: ServedPhases;
}

/** How long a profiled server is served before its profile's window and in it: at least the requests, and the time. */
export interface ServedPhases {
  warmupRequests: number;
  warmupMs: number;
  steadyRequests: number;
  steadyMs: number;
}

/** How the profiler is put on the server, and when it is told the steady requests begin and end. */
export interface ProfiledServe extends ServedPhases {
  /** Flags before the variant's (a profiler that writes its profile at exit). */
  flags?: TranslatedFlags;
  /** The inspector on (a runtime that serves programs). */
  inspector?: boolean;
  /** After the warm-up's mark, before the first steady request; given the inspector's port when it was asked for. */
  steady?(inspector: Promise<number | undefined> | undefined): Promise<void>;
  /** After the last steady request, before its mark. */
  done?(): Promise<void>;
  signal?: AbortSignal;
}

export type ProfiledServeOutcome = { ok: true; warmup: number; steady: number; output: string } | RoundFailure;

/** How long a server asked to exit may take to write its profile before it is stopped. */
const EXIT_GRACE_MS = 15_000;
/** The most a phase serves, whatever its least count asks (a request of seconds). */
const MOST_PHASE_MS = 30_000;

const answered = (a: Answer): a is Extract<Answer, { status: number }> => 'status' in a;

/** Serves the case under the profiler; the server is ended (asked to exit, then stopped) whatever happens. */
export async function serveUnderProfiler(v: RunnableVariant, serving: ProfileServing, how: ProfiledServe): Promise<ProfiledServeOutcome> {
  const variant = how.flags ? { ...v, flags: { args: [...how.flags.args, ...v.flags.args], env: { ...v.flags.env, ...how.flags.env } } } : v;
  const server = await startServer(variant, serving.serverPath, serving.timeoutMs, {
    ...(serving.compatibility ? { compatibility: serving.compatibility } : {}),
    ...(serving.permissions ? { permissions: serving.permissions } : {}),
    ...(how.inspector ? { inspector: true } : {}),
  });
  try {
    if (server.port === undefined) return await notListening(v, server, serving.timeoutMs);
    const port = server.port;
    let next = 0;
    /** Requests in order, from the first again, until at least `count` and `ms` (or the most a phase serves); the first that gets no answer ends it. */
    const phase = async (count: number, ms: number): Promise<number | string> => {
      const from = performance.now();
      let sent = 0;
      while ((sent < count || performance.now() - from < ms) && performance.now() - from < MOST_PHASE_MS) {
        if (how.signal?.aborted) return 'the run was stopped';
        const { request } = serving.requests[next++ % serving.requests.length]!;
        const answer = await send(port, request, serving.requestTimeoutMs);
        if (!answered(answer)) return `a request under the profiler ${'none' in answer ? (answer.none === 'timed out' ? `got no response within ${serving.requestTimeoutMs} ms` : 'answered a body over the most rtbench reads') : `failed: ${answer.error}`}`;
        sent++;
      }
      return sent;
    };
    const mark = async (edge: 'begin' | 'end'): Promise<string | undefined> => {
      const path = edge === 'begin' ? RESERVED.profileMarkBegin : RESERVED.profileMarkEnd;
      const answer = await send(port, { path: '/' }, ownRequestTimeoutMs(serving.requestTimeoutMs), path);
      return answered(answer) && answer.status === 200 ? undefined : `the server did not answer the profile's ${edge} mark`;
    };
    // A server that ended is named by its end; one still running, by what its request got.
    const failed = async (why: string): Promise<RoundFailure> => (server.alive() ? fail('error', why, server.output.toString()) : fail('crash', await serverExit(v, server, ' under the profiler'), server.output.toString()));
    const warmup = await phase(how.warmupRequests, how.warmupMs);
    if (typeof warmup === 'string') return await failed(warmup);
    const first = await mark('begin');
    if (first) return await failed(first);
    await how.steady?.(server.inspector);
    const steady = await phase(how.steadyRequests, how.steadyMs);
    await how.done?.();
    if (typeof steady === 'string') return await failed(steady);
    const last = await mark('end');
    if (last) return await failed(last);
    await server.end(EXIT_GRACE_MS);
    return { ok: true, warmup, steady, output: server.output.toString() };
  } catch (error) {
    return fail('error', (error as Error).message, server.output.toString());
  } finally {
    // Asked to exit first: a runtime that writes its profile at exit writes it (a server already gone is left as it ended).
    if (server.alive()) await server.end(EXIT_GRACE_MS);
    server.cleanup?.();
  }
}
