/**
 * One CPU profile of one case × arm, in an extra process that is not one of
 * the measured ones (a sampling profiler changes the timing): a 'measure' job
 * under the runtime's sampling CPU profiler, restricted to the sampling phase
 * (cpuprofile.ts) and written as a `.cpuprofile`. How is the plug-in's
 * `cpuProfile` hook: 'file' (flags that write a profile at exit: node, deno,
 * bun) or 'inspector' (the DevTools Protocol's Profiler around the job:
 * workerd); per runtime: packages/profile/README.md "Per runtime". A runtime
 * that cannot give a real profile yields `unavailable` with the reason.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pacedJob, type CaseResultMessage, type Job } from '@rtbench/core/protocol';
import type { RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';
import { guardDir, removeGuardedDir, type JobOutcome } from '@rtbench/process';
import { writeFileAtomically } from '@rtbench/host/files';
import { cannotMessage, isUnavailable } from '@rtbench/host/platform';
import { parseCpuProfile, restrictToSampling, type CpuProfile, type SamplingWindow } from './cpuprofile.ts';
import { bundleLocator, type FrameLocator } from './source-map.ts';
import { summarize, type ProfileSummary } from './summary.ts';
import { callTree } from './tree.ts';
import type { CallTree } from '@rtbench/core/profile-manifest';
import { profileOverInspector } from './inspector.ts';

/** One variant as the run loop holds it (structurally an Arm of @rtbench/measurers). */
export interface ProfileArm {
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
  bundlePath: string;
}

export interface ProfileCaseOptions {
  arm: ProfileArm;
  caseId: string;
  /** Where the `.cpuprofile` (sampling phase only) is written; its folder is made. */
  outPath: string;
  /** The timed loop's length under the profiler, ms (default 1000). */
  timeMs?: number;
  /** Warmup before it, ms (default 300): the profile then shows optimized code, as the measured processes ran it. */
  warmupMs?: number;
  /** Sampling interval, µs (default 250). */
  intervalUs?: number;
  /** Hard limit for the process (default: warmup + time + 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Also write the whole profile (start-up and warmup included) here. */
  fullOutPath?: string;
}

export type ProfileCaseResult =
  | {
      status: 'ok';
      path: string;
      /** How the profile was taken, one line (for the report). */
      method: string;
      window: SamplingWindow;
      /** Summary of the written (sampling-phase) profile. */
      summary: ProfileSummary;
      /** The same profile as a compact call tree (frames below 0.2% folded), for flame graphs. */
      tree: CallTree;
      /** The job's own answer: the case's timing under the profiler (not comparable to the measured runs). */
      result?: CaseResultMessage;
    }
  /** The runtime cannot give a real profile. */
  | { status: 'unavailable'; reason: string }
  /** The case is not supported on this runtime (ctx.unsupported). */
  | { status: 'unsupported'; reason: string }
  /** The process failed (error, crash, timeout) or wrote no profile. */
  | { status: 'failed'; reason: string; stderr?: string };

export const DEFAULT_PROFILE_TIME_MS = 1000;
export const DEFAULT_PROFILE_WARMUP_MS = 300;

/**
 * How long a profile of a case's timed loop samples, after how much warm-up: a measuring run's 1 s after 300 ms; a
 * smoke run's (--fixed-warmup: no figure of it is read) 300 ms after 100 ms, still hundreds of samples a profile.
 */
export function profileWindow(smoke: boolean): { timeMs: number; warmupMs: number } {
  return smoke ? { timeMs: 300, warmupMs: 100 } : { timeMs: DEFAULT_PROFILE_TIME_MS, warmupMs: DEFAULT_PROFILE_WARMUP_MS };
}
export const DEFAULT_PROFILE_INTERVAL_US = 250;

/** Temporary profile directories are named <prefix><host pid>-<random>. */
export const PROFILE_DIR_PREFIX = 'rtbench-profile-';

function profileJob(caseId: string, warmupMs: number, timeMs: number): Job {
  return { protocol: 1, kind: 'measure', caseId, options: { warmupMs, timeMs, minSamples: 5, maxSamples: 1_000_000, sampleMs: 0 } };
}

/** Why a profiled process gave no result: what CPU, allocation and native profiles all report. */
export type ProcessProblem = { status: 'unsupported'; reason: string } | { status: 'failed'; reason: string; stderr: string };

/** The profiled process's problem, or undefined when it answered with a result. */
export function processProblem(outcome: JobOutcome): ProcessProblem | undefined {
  const messages = outcome.messages;
  if (messages.some((m) => m.type === 'result')) return undefined;
  const unsupported = messages.find((m) => m.type === 'unsupported');
  if (unsupported && unsupported.type === 'unsupported') return { status: 'unsupported', reason: unsupported.reason };
  const error = messages.find((m) => m.type === 'error');
  const stderr = outcome.stderr.slice(-4000);
  if (error && error.type === 'error') return { status: 'failed', reason: `${error.phase}: ${error.message}`, stderr };
  const why = outcome.timedOut ? 'timed out' : outcome.interrupted ? 'interrupted' : outcome.protocolErrors.length ? `protocol errors: ${outcome.protocolErrors.join('; ')}` : `exited with ${outcome.exitSignal ?? outcome.exitCode} and no result`;
  return { status: 'failed', reason: `the profiled process ${why}`, stderr };
}

/** The job of a profiled process that is asked for samples by the host (allocation and native profiles): warmed, then sampling until told. */
export function profileLockstepJob(caseId: string, warmupMs: number): Job {
  return pacedJob(caseId, { warmupMs, timeMs: 0, minSamples: 1, maxSamples: 1_000_000, sampleMs: 0 });
}

function answerOf(outcome: JobOutcome): { result?: CaseResultMessage; problem?: ProfileCaseResult } {
  const problem = processProblem(outcome);
  if (problem) return { problem };
  return { result: outcome.messages.find((m): m is CaseResultMessage => m.type === 'result')! };
}

/**
 * Profiles one case on one arm and writes the sampling phase's profile to
 * `outPath`. Never throws for what the runtime or the case did; the result
 * says what happened.
 */
export async function profileCase(options: ProfileCaseOptions): Promise<ProfileCaseResult> {
  const { arm, caseId, outPath } = options;
  const timeMs = options.timeMs ?? DEFAULT_PROFILE_TIME_MS;
  const warmupMs = options.warmupMs ?? DEFAULT_PROFILE_WARMUP_MS;
  const intervalUs = options.intervalUs ?? DEFAULT_PROFILE_INTERVAL_US;
  const timeoutMs = options.timeoutMs ?? warmupMs + timeMs + 60_000;
  const hook = arm.plugin.cpuProfile;
  if (isUnavailable(hook)) return { status: 'unavailable', reason: cannotMessage(arm.plugin, 'cpuProfile', hook) };
  const job = profileJob(caseId, warmupMs, timeMs);
  const request = { target: arm.target, flags: arm.flags, bundlePath: arm.bundlePath, job, timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };

  let raw: CpuProfile;
  let outcome: JobOutcome;
  if (hook.kind === 'inspector') {
    const taken = await profileOverInspector(arm.plugin, request, intervalUs);
    if ('unavailable' in taken) return { status: 'unavailable', reason: taken.unavailable };
    outcome = taken.outcome;
    const { problem } = answerOf(outcome);
    if (problem) return problem;
    if (!taken.profile) return { status: 'failed', reason: `${arm.target.spec}'s inspector gave no profile: ${taken.profileError ?? 'no reason given'}`, stderr: outcome.stderr.slice(-4000) };
    raw = taken.profile;
  } else {
    const dir = mkdtempSync(join(tmpdir(), `${PROFILE_DIR_PREFIX}${process.pid}-`));
    guardDir(dir);
    try {
      const name = 'case.cpuprofile';
      // The profile's flags go before the variant's, so a variant's own flag has the last word.
      const flags = hook.flags(dir, name, intervalUs);
      outcome = await arm.plugin.runJob({ ...request, flags: { args: [...flags.args, ...request.flags.args], env: { ...request.flags.env, ...flags.env } } });
      const { problem } = answerOf(outcome);
      if (problem) return problem;
      const file = join(dir, name);
      if (!existsSync(file)) {
        const found = readdirSync(dir);
        return { status: 'failed', reason: `${arm.target.spec} answered but wrote no profile${found.length ? ` (found ${found.join(', ')})` : ''}${outcome.stoppedAfterAnswer ? '; it did not exit after answering and was ended, before it could write the profile' : ''}`, stderr: outcome.stderr.slice(-4000) };
      }
      try {
        raw = parseCpuProfile(readFileSync(file, 'utf8'), `${arm.target.spec}'s profile`);
      } catch (error) {
        return { status: 'failed', reason: (error as Error).message };
      }
    } finally {
      removeGuardedDir(dir);
    }
  }

  const locate = bundleLocator(arm.bundlePath, arm.plugin.frames.bundleModule);
  const { result } = answerOf(outcome);
  return { ...saveProfile(raw, restrictToSampling(raw, locate), locate, outPath, options.fullOutPath, hook.method), ...(result ? { result } : {}) };
}

/** The window's profile written to `outPath` (the whole one to `fullOutPath`), with its summary and call tree. */
export function saveProfile(raw: CpuProfile, kept: { profile: CpuProfile; window: SamplingWindow }, locate: FrameLocator, outPath: string, fullOutPath: string | undefined, method: string): Extract<ProfileCaseResult, { status: 'ok' }> {
  const { profile, window } = kept;
  writeFileAtomically(outPath, JSON.stringify(profile));
  if (fullOutPath) writeFileAtomically(fullOutPath, JSON.stringify(raw));
  return { status: 'ok', path: outPath, method, window, summary: summarize(profile, { locate }), tree: callTree(profile, { locate }) };
}
