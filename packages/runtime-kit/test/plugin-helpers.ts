/**
 * Shared by the plugin tests (runners/<runtime>/test): the tiny fixture, a
 * quick measure job, and the check that no runtime process outlives a test.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Job } from '@rtbench/core/protocol';
import type { CaseResultMessage, RuntimeMessage } from '@rtbench/core/protocol';
import { liveChildPids, spawnedPids } from '../../process/src/process.ts';
import type { JobOutcome } from '../../process/src/job.ts';
import type { RuntimeTarget, TranslatedFlags } from '../src/types.ts';
import { type RuntimePlugin } from '../src/plugin.ts';
import { bundleSuite } from '@rtbench/suite-loader';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
export const tinyFixture = join(repoRoot, 'test', 'fixtures', 'tiny', 'index.ts');
export const faultsFixture = join(import.meta.dirname, 'fixtures', 'faults', 'index.ts');

export function quickJob(caseId: string): Job {
  return { protocol: 1, kind: 'measure', caseId, options: { warmupMs: 20, timeMs: 40, minSamples: 5, maxSamples: 1000, sampleMs: 0 } };
}

export async function bundleFor(plugin: RuntimePlugin, fixture: string, name: string): Promise<string> {
  return (await bundleSuite(fixture, name, plugin.name, plugin.bundle)).path;
}

/**
 * The time-out of a job whose case spins for ever. Nothing in such a job must
 * finish in time, and the plug-in ends it at its time-out with SIGKILL
 * wherever it is (starting, or spinning), so a short one loses nothing and
 * spins a fraction of a core-second rather than two.
 */
export const SPIN_TIMEOUT_MS = 300;

export function runCase(
  plugin: RuntimePlugin,
  target: RuntimeTarget,
  flags: TranslatedFlags,
  bundlePath: string,
  caseId: string,
  timeoutMs = 60_000,
): Promise<JobOutcome> {
  return plugin.runJob({ target, flags, bundlePath, job: quickJob(caseId), timeoutMs });
}

export function resultOf(outcome: JobOutcome): CaseResultMessage {
  const result = outcome.messages.find((m): m is CaseResultMessage => m.type === 'result');
  if (!result) throw new Error(`no result: ${JSON.stringify({ ...outcome, stderr: outcome.stderr.slice(-2000) })}`);
  return result;
}

export function helloOf(outcome: JobOutcome): Extract<RuntimeMessage, { type: 'hello' }> | undefined {
  return outcome.messages.find((m): m is Extract<RuntimeMessage, { type: 'hello' }> => m.type === 'hello');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** After each test: nothing registered as running, and every PID (and its process group) really gone. */
export function expectNoChildLeft(): void {
  expect(liveChildPids()).toEqual([]);
  const survivors = spawnedPids().filter((pid) => alive(pid) || alive(-pid));
  expect(survivors).toEqual([]);
}
