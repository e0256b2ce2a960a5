/**
 * A CPU profile of a request case's server (a Worker, a request suite's
 * handler, a framework app's server): the server started under the
 * runtime's sampling profiler by @rtbench/host-timed (serveUnderProfiler),
 * sent a warm-up, then its steady requests, then asked to exit. How is the
 * plug-in's `cpuProfile` hook, as for a bench case: 'file' (node, deno,
 * bun: `--cpu-prof` before the variant's flags, written at the exit the
 * server takes on SIGTERM), kept between the server's begin and end marks around
 * the steady requests; 'inspector' (workerd: its inspector on, the
 * Profiler started after the warm-up and stopped after the last steady
 * request). The same `.cpuprofile`, summary and tree as a bench case's.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cannotMessage, isUnavailable } from '@rtbench/host/platform';
import { guardDir, removeGuardedDir } from '@rtbench/process';
import { PROFILE_MARKS, serveUnderProfiler, type ProfiledServe, type ProfileServing, type RunnableVariant } from '@rtbench/host-timed';
import { DEFAULT_PROFILE_INTERVAL_US, DEFAULT_PROFILE_TIME_MS, DEFAULT_PROFILE_WARMUP_MS, PROFILE_DIR_PREFIX, saveProfile, type ProfileCaseResult } from './capture.ts';
import { parseCpuProfile, restrictBetweenMarks, wholeProfile, type CpuProfile } from './cpuprofile.ts';
import { inspectorProfiler } from './inspector.ts';
import { bundleLocator } from './source-map.ts';

export interface ServerProfileOptions {
  arm: RunnableVariant;
  serving: ProfileServing;
  outPath: string;
  /** The steady requests' serving under the profiler, ms (default 1000). */
  timeMs?: number;
  /** The warm-up's, ms (default 300), and at least `warmupRequests` (default 50: as many as a measured round serves before it is judged steady). */
  warmupMs?: number;
  warmupRequests?: number;
  intervalUs?: number;
  signal?: AbortSignal;
  fullOutPath?: string;
}

/** The least a measured round serves before asking whether it is steady (request-phases.ts): the warm-up serves as many. */
const WARMUP_REQUESTS = 50;
/** The steady requests under the profiler: at least this many, however long they take. */
const STEADY_REQUESTS = 10;

/** A mark's function, as a bundler may have renamed it (a number added). */
const markNamed = (name: string): ((frame: { functionName: string }) => boolean) => {
  const pattern = new RegExp(`^${name}\\d*$`);
  return (frame) => pattern.test(frame.functionName);
};
const isBeginMark = markNamed(PROFILE_MARKS.begin);
const isEndMark = markNamed(PROFILE_MARKS.end);

/** Profiles one request case's server on one arm. Never throws for what the runtime or the server did; the result says what happened. */
export async function profileServer(options: ServerProfileOptions): Promise<ProfileCaseResult> {
  const { arm, serving, outPath } = options;
  const intervalUs = options.intervalUs ?? DEFAULT_PROFILE_INTERVAL_US;
  const hook = arm.plugin.cpuProfile;
  if (isUnavailable(hook)) return { status: 'unavailable', reason: cannotMessage(arm.plugin, 'cpuProfile', hook) };
  // The measurer's phases when it gives them (a smoke run's short ones), else the profiler's.
  const phases: Omit<ProfiledServe, 'flags' | 'inspector' | 'steady' | 'done'> = {
    ...(serving.phases ?? { warmupRequests: options.warmupRequests ?? WARMUP_REQUESTS, warmupMs: options.warmupMs ?? DEFAULT_PROFILE_WARMUP_MS, steadyRequests: STEADY_REQUESTS, steadyMs: options.timeMs ?? DEFAULT_PROFILE_TIME_MS }),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const locate = bundleLocator(serving.serverPath, arm.plugin.frames.bundleModule);
  const method = (served: { warmup: number; steady: number }): string => `${hook.method}; a request server: ${served.steady} steady requests after ${served.warmup} to warm up`;
  const fromServer = (outcome: { message: string; output?: string }): ProfileCaseResult => ({ status: 'failed', reason: outcome.message, stderr: (outcome.output ?? '').slice(-4000) });

  if (hook.kind === 'inspector') {
    if (arm.plugin.programs.kind !== 'server') return { status: 'unavailable', reason: cannotMessage(arm.plugin, 'cpuProfile', { unavailable: 'its inspector profiles a job, not a server it runs as a process' }) };
    const profiler = inspectorProfiler(arm.target.spec, intervalUs);
    const outcome = await serveUnderProfiler(arm, serving, { ...phases, inspector: true, steady: (port) => profiler.start(port), done: () => profiler.stop() });
    profiler.close();
    const { profile: raw, profileError } = profiler.taken();
    if (!outcome.ok) return fromServer(outcome);
    if (!raw) return { status: 'failed', reason: `${arm.target.spec}'s inspector gave no profile: ${profileError ?? 'no reason given'}`, stderr: outcome.output.slice(-4000) };
    // Started after the warm-up and stopped after the last steady request: the whole profile is the window.
    return saveProfile(raw, wholeProfile(raw, 'markers'), locate, outPath, options.fullOutPath, method(outcome));
  }

  if (arm.plugin.programs.kind !== 'process') return { status: 'unavailable', reason: cannotMessage(arm.plugin, 'cpuProfile', { unavailable: 'it writes its profile at the exit of a process, and it serves programs in one it keeps' }) };
  const dir = mkdtempSync(join(tmpdir(), `${PROFILE_DIR_PREFIX}${process.pid}-`));
  guardDir(dir);
  try {
    const name = 'server.cpuprofile';
    const outcome = await serveUnderProfiler(arm, serving, { ...phases, flags: hook.flags(dir, name, intervalUs) });
    if (!outcome.ok) return fromServer(outcome);
    const file = join(dir, name);
    if (!existsSync(file)) {
      const found = readdirSync(dir);
      return { status: 'failed', reason: `${arm.target.spec} served the requests but wrote no profile at its exit${found.length ? ` (found ${found.join(', ')})` : ''}: a server that does not exit on SIGTERM is stopped before it can write one`, stderr: outcome.output.slice(-4000) };
    }
    let raw: CpuProfile;
    try {
      raw = parseCpuProfile(readFileSync(file, 'utf8'), `${arm.target.spec}'s profile`);
    } catch (error) {
      return { status: 'failed', reason: (error as Error).message };
    }
    return saveProfile(raw, restrictBetweenMarks(raw, isBeginMark, isEndMark), locate, outPath, options.fullOutPath, method(outcome));
  } finally {
    removeGuardedDir(dir);
  }
}
