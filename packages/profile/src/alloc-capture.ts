/**
 * One allocation profile of one case × arm, in an extra process that is not
 * one of the measured ones: V8's sampling heap profiler over the runtime's
 * inspector (CDP `HeapProfiler`, the plug-in's `inspector` hook) around the
 * sampling phase of a lockstep job, written as a `.heapprofile`. The host
 * starts the profiler after `ready` and stops it after the last sample, so the
 * window is the sampling phase by construction (node and deno carry out a
 * command during the next sample, so each edge lies inside one sample).
 * Why the inspector and not `--heap-prof`, the window's edges, and each
 * runtime (bun: unavailable): packages/profile/README.md "Allocation profiles".
 */
import { lockstepSampleIterations, type CaseResultMessage, type ReadyMessage } from '@rtbench/core/protocol';
import { LOCKSTEP_WINDOW, type AllocationWindow, type CallTree } from '@rtbench/core/profile-manifest';
import type { JobRequest } from '@rtbench/runtime-kit';
import { liveCase, type LiveCase } from '@rtbench/process';
import { writeFileAtomically } from '@rtbench/host/files';
import { cannotMessage, isUnavailable } from '@rtbench/host/platform';
import { connectCdp, type CdpSession } from './cdp.ts';
import { checkHeapProfile, type HeapProfile } from './heapprofile.ts';
import { MEASURE_FRAMES } from '@rtbench/core/measure';
import { bundleLocator } from './source-map.ts';
import { summarizeAllocations, type AllocationSummary } from './alloc-summary.ts';
import { allocationTree } from './tree.ts';
import { INSPECTOR_WAIT_MS, inspectorTarget, withTimeout } from './inspector.ts';
import { DEFAULT_PROFILE_TIME_MS, DEFAULT_PROFILE_WARMUP_MS, processProblem, profileLockstepJob, type ProfileArm } from './capture.ts';

/** Average bytes between samples: V8's default (512 KiB) gives too few samples in a second of a light allocator, 16 KiB an 11 MB file for a case allocating 4 GB/s (the file holds every sample). */
const DEFAULT_ALLOC_INTERVAL_BYTES = 64 * 1024;

export interface AllocationCaseOptions {
  arm: ProfileArm;
  caseId: string;
  /** Where the `.heapprofile` is written; its folder is made. */
  outPath: string;
  /** The sampling phase under the profiler, ms of the host's clock (default 1000). */
  timeMs?: number;
  /** Warmup before it, ms (default 300). */
  warmupMs?: number;
  /** Average bytes between samples (default 64 KiB). */
  intervalBytes?: number;
  /** Hard limit for the process (default: warmup + time + 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type AllocationCaseResult =
  | { status: 'ok'; path: string; method: string; window: AllocationWindow; summary: AllocationSummary; tree: CallTree<'Bytes'>; result?: CaseResultMessage }
  | { status: 'unavailable'; reason: string }
  | { status: 'unsupported'; reason: string }
  | { status: 'failed'; reason: string; stderr?: string };

/** How long an inspector's answer may trail the sample it was carried out in before another sample is asked for. */
const ANSWER_TRAIL_MS = 200;

/**
 * Asks for samples until `answer` settles. A command that arrives while the
 * process waits between samples is carried out only during the next one, so
 * a single wake-up sample can pass before it (on a busy machine the stop
 * otherwise waited for a sample never asked for).
 */
async function wakeUntilAnswered(answer: Promise<unknown>, sample: () => Promise<unknown>): Promise<void> {
  let settled = false;
  const done = answer.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    if ((await sample()) === undefined) throw new Error('the process stopped answering samples');
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, ANSWER_TRAIL_MS))]);
  }
  await answer;
}

/**
 * Takes one allocation profile of one case on one arm and writes it to
 * `outPath`. Never throws for what the runtime or the case did.
 */
export async function profileAllocations(options: AllocationCaseOptions): Promise<AllocationCaseResult> {
  const { arm, caseId, outPath } = options;
  const hook = arm.plugin.allocationProfile;
  if (isUnavailable(hook)) return { status: 'unavailable', reason: cannotMessage(arm.plugin, 'allocationProfile', hook) };
  const inspector = arm.plugin.inspector;
  if (isUnavailable(inspector)) return { status: 'unavailable', reason: cannotMessage(arm.plugin, 'allocationProfile', inspector) };
  const timeMs = options.timeMs ?? DEFAULT_PROFILE_TIME_MS;
  const warmupMs = options.warmupMs ?? DEFAULT_PROFILE_WARMUP_MS;
  const intervalBytes = Math.max(1, Math.round(options.intervalBytes ?? DEFAULT_ALLOC_INTERVAL_BYTES));
  const timeoutMs = options.timeoutMs ?? warmupMs + timeMs + 60_000;
  const request: JobRequest = { target: arm.target, bundlePath: arm.bundlePath, job: profileLockstepJob(caseId, warmupMs), timeoutMs, flags: arm.flags, ...(options.signal ? { signal: options.signal } : {}) };

  let live: LiveCase;
  let inspectorPort: Promise<number | undefined>;
  try {
    const started = await inspector.start(request);
    live = liveCase(started.running);
    inspectorPort = started.port;
  } catch (error) {
    return { status: 'failed', reason: (error as Error).message };
  }

  let session: CdpSession | undefined;
  let profile: HeapProfile | undefined;
  let profileError: string | undefined;
  let counted = 0;
  let ready: ReadyMessage | undefined;
  try {
    ready = await live.ready;
    if (ready) {
      const port = await withTimeout(inspectorPort, INSPECTOR_WAIT_MS, `${arm.target.spec}'s inspector port`);
      if (port === undefined) throw new Error(`${arm.target.spec} reported no inspector port`);
      session = await connectCdp(port, await inspectorTarget(port, INSPECTOR_WAIT_MS));
      // No HeapProfiler.enable: sampling needs none, and node would carry it out only at the next sample.
      const started = session.send('HeapProfiler.startSampling', { samplingInterval: intervalBytes, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      // node and deno carry the command out during a sample (see above): samples wake them until it is answered.
      await withTimeout(wakeUntilAnswered(started, () => live.sample()), 30_000, 'HeapProfiler.startSampling');
      // Counted from the sample it started in (the one before, if any, ran without it).
      counted = 1;
      const until = performance.now() + timeMs;
      while (performance.now() < until || counted < 5) {
        if (options.signal?.aborted) throw new Error('interrupted');
        if ((await live.sample()) === undefined) throw new Error('the process stopped answering samples');
        counted++;
      }
      const stopped = session.send<{ profile: unknown }>('HeapProfiler.stopSampling');
      await withTimeout(wakeUntilAnswered(stopped, () => live.sample()), 30_000, 'HeapProfiler.stopSampling');
      const result = await stopped;
      profile = checkHeapProfile(result.profile, `${arm.target.spec}'s heap profile`);
    }
  } catch (error) {
    profileError = (error as Error).message;
  } finally {
    session?.close();
  }
  const outcome = await live.finish();
  const problem = processProblem(outcome);
  if (problem?.status === 'unsupported' || (problem && !profileError)) return problem;
  if (!profile) return { status: 'failed', reason: `no allocation profile from ${arm.target.spec}'s inspector: ${profileError ?? 'no reason given'}${problem && 'reason' in problem ? `; ${problem.reason}` : ''}`, stderr: outcome.stderr.slice(-4000) };
  if (problem) return problem;

  writeFileAtomically(outPath, JSON.stringify(profile));
  const ops = windowOps(counted, ready!);
  const locate = bundleLocator(arm.bundlePath, arm.plugin.frames.bundleModule);
  const summary = summarizeAllocations(profile, { locate, ops });
  const warmupBytes = summary.functions.filter((f) => (MEASURE_FRAMES.warmup as readonly string[]).includes(f.name) && f.location?.startsWith(`${MEASURE_FRAMES.source}:`)).reduce((n, f) => n + f.totalBytes, 0);
  const result = outcome.messages.find((m): m is CaseResultMessage => m.type === 'result');
  return { status: 'ok', path: outPath, method: hook.method, window: { method: LOCKSTEP_WINDOW, samples: counted, ops, warmupBytes }, summary, tree: allocationTree(profile, { locate }), ...(result ? { result } : {}) };
}

/** The calls a window of `samples` lockstep samples made, each with the run-up the case's span recorded: what the profile's bytes are per. */
export function windowOps(samples: number, ready: Pick<ReadyMessage, 'iterationsPerSample' | 'batchNs' | 'span'>): number {
  return samples * lockstepSampleIterations(ready.iterationsPerSample, ready.batchNs, ready.span);
}
