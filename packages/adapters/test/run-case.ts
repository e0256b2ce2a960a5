/** Runs one declared case in this process through core's executeJob, with a tiny budget, and returns its messages. */
import { executeJob } from '@rtbench/core/execute';
import type { RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';

export async function runCase(suite: SuiteDefinition, caseId: string): Promise<RuntimeMessage[]> {
  const messages: RuntimeMessage[] = [];
  const origin = performance.now();
  await executeJob(
    suite,
    { protocol: 1, kind: 'measure', caseId, options: { warmupMs: 1, timeMs: 3, minSamples: 5, maxSamples: 50, sampleMs: 0.2 } },
    {
      facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: false },
      clock: { name: 'performance.now', now: () => (performance.now() - origin) * 1e6 },
      emit: (m) => messages.push(m),
    },
  );
  return messages;
}

export const ofType = <T extends RuntimeMessage['type']>(messages: RuntimeMessage[], type: T): Extract<RuntimeMessage, { type: T }>[] =>
  messages.filter((m): m is Extract<RuntimeMessage, { type: T }> => m.type === type);

/**
 * A clock that moves only when told (and by 1 ns per read, so it is seen to
 * advance): a case advances it by the time its work "takes", so the figures
 * a self-timed case yields are known exactly, whatever the machine is doing.
 */
export const virtualTime = { ns: 0 };

export async function runCaseOnVirtualClock(suite: SuiteDefinition, caseId: string): Promise<RuntimeMessage[]> {
  const messages: RuntimeMessage[] = [];
  await executeJob(
    suite,
    { protocol: 1, kind: 'measure', caseId, options: { warmupMs: 1, timeMs: 3, minSamples: 5, maxSamples: 50, sampleMs: 0.2 } },
    {
      facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: false },
      clock: { name: 'virtual', now: () => (virtualTime.ns += 1) },
      emit: (m) => messages.push(m),
    },
  );
  return messages;
}
