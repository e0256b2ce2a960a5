/**
 * A runtime's inspector (Chrome DevTools Protocol), as its plug-in starts it
 * (`inspector` hook): finding the benchmark's target, and a CPU profile
 * around the job's exchange on a runtime that has one (workerd: the job goes
 * over HTTP after start-up). Profiler.start before the job is sent (the
 * isolate exists from start-up, so start-up itself is not in the profile;
 * the request's setup, warmup and sampling are), Profiler.stop once the
 * response has ended.
 */
import { cannotMessage, isUnavailable } from '@rtbench/host/platform';
import type { JobRequest, RuntimePlugin } from '@rtbench/runtime-kit';
import type { JobOutcome } from '@rtbench/process';
import { connectCdp, type CdpSession } from './cdp.ts';
import { parseCpuProfile, type CpuProfile } from './cpuprofile.ts';

export const INSPECTOR_WAIT_MS = 15_000;

export interface InspectorProfileTaken {
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

/** The inspector's WebSocket path for the benchmark's target (workerd's service "rtbench"; a process's only one), from /json/list. */
async function targetPath(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/json/list`);
  const targets = (await res.json()) as { id?: string; title?: string; webSocketDebuggerUrl?: string }[];
  if (!Array.isArray(targets) || targets.length === 0) throw new Error('the inspector lists no target');
  const ours = targets.find((t) => `${t.id ?? ''} ${t.title ?? ''} ${t.webSocketDebuggerUrl ?? ''}`.includes('rtbench')) ?? targets[0]!;
  if (!ours.webSocketDebuggerUrl) throw new Error('the inspector target has no webSocketDebuggerUrl');
  const url = new URL(ours.webSocketDebuggerUrl);
  return `${url.pathname}${url.search}`;
}

/** Polls the inspector's /json/list until it answers with a target (the runtime starts it before any JavaScript runs). */
export async function inspectorTarget(port: number, within: number): Promise<string> {
  const until = Date.now() + within;
  let last: Error | undefined;
  while (Date.now() < until) {
    try {
      return await targetPath(port);
    } catch (error) {
      last = error as Error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`no inspector answered on 127.0.0.1:${port} within ${within} ms${last ? ` (${last.message})` : ''}`);
}

/** V8's Profiler over a runtime's inspector: started once its port is known, stopped into a profile; what went wrong is kept as the reason there is none. */
export function inspectorProfiler(spec: string, intervalUs: number): { start(port: Promise<number | undefined> | undefined): Promise<void>; stop(): Promise<void>; close(): void; taken(): { profile?: CpuProfile; profileError?: string } } {
  let session: CdpSession | undefined;
  let profile: CpuProfile | undefined;
  let profileError: string | undefined;
  return {
    async start(port) {
      try {
        const known = port && (await withTimeout(port, INSPECTOR_WAIT_MS, `${spec}'s inspector port`));
        if (!known) throw new Error(`${spec} reported no inspector port`);
        session = await connectCdp(known, await inspectorTarget(known, INSPECTOR_WAIT_MS));
        await session.send('Profiler.enable');
        await session.send('Profiler.setSamplingInterval', { interval: Math.max(1, Math.round(intervalUs)) });
        await session.send('Profiler.start');
      } catch (error) {
        profileError = (error as Error).message;
        session?.close();
        session = undefined;
      }
    },
    async stop() {
      if (!session) return;
      try {
        const stopped = await withTimeout(session.send<{ profile: unknown }>('Profiler.stop'), 30_000, 'Profiler.stop');
        profile = parseCpuProfile(JSON.stringify(stopped.profile), `${spec}'s profile`);
      } catch (error) {
        profileError = (error as Error).message;
      } finally {
        session.close();
      }
    },
    close: () => session?.close(),
    taken: () => ({ ...(profile ? { profile } : {}), ...(profileError ? { profileError } : {}) }),
  };
}

/** A CPU profile over the inspector, started before the job's exchange and stopped after it (a runtime whose inspector hook has an exchange). */
export async function profileOverInspector(plugin: RuntimePlugin, request: JobRequest, intervalUs: number): Promise<InspectorProfileTaken | { unavailable: string }> {
  const inspector = plugin.inspector;
  if (isUnavailable(inspector)) return { unavailable: cannotMessage(plugin, 'cpuProfile', inspector) };
  if (!inspector.exchange) return { unavailable: cannotMessage(plugin, 'cpuProfile', { unavailable: 'its job starts with its process, so a profiler over the inspector cannot start before it' }) };
  if (request.wrap) return { unavailable: cannotMessage(plugin, 'cpuProfile', { unavailable: 'not under a wrapper program (valgrind)' }) };
  const profiler = inspectorProfiler(request.target.spec, intervalUs);
  const started = await inspector.start(request, { beforeExchange: (port) => profiler.start(port), afterExchange: () => profiler.stop() });
  started.running.endInput();
  const outcome = await started.running.outcome;
  profiler.close();
  return { outcome, ...profiler.taken() };
}
