/**
 * The parts of a plug-in that every runtime running the bundle as a process
 * shares (node, deno, bun): the job on stdin at spawn, a job / a lockstep
 * session / a warm process from one way of starting it, the inspector on a
 * free loopback port, and `--cpu-prof` written at exit.
 */
import { createServer } from 'node:net';
import { liveCase, startJob, warmProcess, type RunningJob, type SpawnJobOptions } from '@rtbench/process';
import type { AllocationProfileHook, CpuProfileHook, InspectorHook, RuntimePlugin, Unavailable } from './plugin.ts';
import type { JobRequest, TranslatedFlags } from './types.ts';

/**
 * How the plug-in starts its runtime on a job: the process, its job on stdin. `waitsItsTurn`: the process will sit
 * idle while others take their turns (a lockstep session or warm process), where a plug-in adds its waitingEnv.
 */
export type StartJob = (request: JobRequest, waitsItsTurn?: boolean) => RunningJob;

/** runJob, startSession and startWarm of a runtime started by `start`. */
export function processJobs(start: StartJob): Pick<RuntimePlugin, 'runJob' | 'startSession' | 'startWarm'> {
  return {
    runJob(request) {
      const running = start(request);
      running.endInput();
      return running.outcome;
    },
    startSession: (request) => liveCase(start(request, true)),
    startWarm: (request) => warmProcess(start(request, true)),
  };
}

/** A StartJob from the spawn options a plug-in derives from the request. */
export function spawnWith(options: (request: JobRequest) => SpawnJobOptions): StartJob {
  return (request) => startJob(options(request));
}

/** The request with these flags before the variant's. */
function withFlagsFirst(request: JobRequest, flags: TranslatedFlags): JobRequest {
  return { ...request, flags: { args: [...flags.args, ...request.flags.args], env: { ...request.flags.env, ...flags.env } } };
}

/** A free TCP port on 127.0.0.1, by binding port 0 and closing it (another process could take it before the runtime does: rare, and then the profile fails with the reason). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port on 127.0.0.1'))));
    });
  });
}

/** `--inspect=127.0.0.1:<port>` on a port the host picked (node, deno). */
export function inspectFlag(start: StartJob): InspectorHook {
  return {
    exchange: false,
    async start(request) {
      const port = await freePort();
      return { running: start(withFlagsFirst(request, { args: [`--inspect=127.0.0.1:${port}`], env: {} })), port: Promise.resolve(port) };
    },
  };
}

/** `--cpu-prof` and its options (node, deno, bun): the runtime writes `<dir>/<name>` at exit. */
export function cpuProfFlags(method: string): CpuProfileHook {
  return {
    method,
    kind: 'file',
    flags: (dir, name, intervalUs) => ({ args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`, `--cpu-prof-interval=${Math.max(1, Math.round(intervalUs))}`], env: {} }),
  };
}

/** A runtime that starts a process per program has no isolate to start on its own. */
export const NO_ISOLATE_START: Unavailable = { unavailable: 'it starts a process per program; isolate start is measured through a worker loader' };

/** V8's sampling heap profiler over the inspector (`how`: how the inspector is reached), as profile's alloc-capture drives it. */
export function v8HeapSampling(how: string): AllocationProfileHook {
  return { method: `${how}, HeapProfiler.startSampling around the lockstep samples (V8 sampling heap profiler, collected objects included)` };
}
