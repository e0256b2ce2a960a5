/**
 * A profile from workerd: the runner's own job (config, server, streamed
 * exchange, stop by PID) with `--inspector-addr=127.0.0.1:0`, and around the
 * exchange the Chrome DevTools Protocol on the worker's inspector target:
 * Profiler.start before the job is sent (the worker's isolate exists from
 * start-up, so start-up itself is not in the profile; the request's setup,
 * warmup and sampling are), Profiler.stop once the response has ended.
 */
import type { JobOutcome, JobRequest } from '@rtbench/runtime-kit';
import { startWorkerdJob, type WorkerdProcess } from '@rtbench/runtime-workerd/host-api';
import { connectCdp, type CdpSession } from './cdp.ts';
import { parseCpuProfile, type CpuProfile } from './cpuprofile.ts';

const INSPECTOR_WAIT_MS = 15_000;

export interface WorkerdProfileTaken {
  outcome: JobOutcome;
  profile?: CpuProfile;
  /** Why there is no profile, when there is none. */
  profileError?: string;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The inspector's WebSocket path for the benchmark's worker (service "rtbench"), from /json/list. */
export async function targetPath(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/json/list`);
  const targets = (await res.json()) as { id?: string; title?: string; webSocketDebuggerUrl?: string }[];
  if (!Array.isArray(targets) || targets.length === 0) throw new Error("workerd's inspector lists no target");
  const ours = targets.find((t) => `${t.id ?? ''} ${t.title ?? ''} ${t.webSocketDebuggerUrl ?? ''}`.includes('rtbench')) ?? targets[0]!;
  if (!ours.webSocketDebuggerUrl) throw new Error("workerd's inspector target has no webSocketDebuggerUrl");
  const url = new URL(ours.webSocketDebuggerUrl);
  return `${url.pathname}${url.search}`;
}

export async function profileWorkerdJob(request: JobRequest, intervalUs: number): Promise<WorkerdProfileTaken | { unavailable: string }> {
  if (request.wrap) return { unavailable: 'workerd under a wrapper program (valgrind) is not profiled' };
  let session: CdpSession | undefined;
  let profile: CpuProfile | undefined;
  let profileError: string | undefined;
  const running = startWorkerdJob(request, {
    serveOptions: ['--inspector-addr=127.0.0.1:0'],
    async beforeExchange(server: WorkerdProcess) {
      try {
        const port = await withTimeout(server.inspector, INSPECTOR_WAIT_MS, "workerd's inspector port");
        if (port === undefined) throw new Error('workerd reported no inspector port');
        session = await connectCdp(port, await targetPath(port));
        await session.send('Profiler.enable');
        await session.send('Profiler.setSamplingInterval', { interval: Math.max(1, Math.round(intervalUs)) });
        await session.send('Profiler.start');
      } catch (error) {
        profileError = (error as Error).message;
        session?.close();
        session = undefined;
      }
    },
    async afterExchange() {
      if (!session) return;
      try {
        const stopped = await withTimeout(session.send<{ profile: unknown }>('Profiler.stop'), 30_000, 'Profiler.stop');
        profile = parseCpuProfile(JSON.stringify(stopped.profile), "workerd's profile");
      } catch (error) {
        profileError = (error as Error).message;
      } finally {
        session.close();
      }
    },
  });
  running.endInput();
  const outcome = await running.outcome;
  session?.close();
  return { outcome, ...(profile ? { profile } : {}), ...(profileError ? { profileError } : {}) };
}
