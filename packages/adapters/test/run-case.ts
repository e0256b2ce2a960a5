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
