/**
 * In-runtime entry for Node.js: read the Job from argv, time with
 * process.hrtime.bigint (ns resolution), write protocol lines to stdout.
 */
import { executeJob } from '@rtbench/core/execute';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { gcProbe } from './gc-probe.ts';

export async function start(suite: SuiteDefinition): Promise<void> {
  const emit = (message: RuntimeMessage): void => {
    process.stdout.write(`${encodeLine(message)}\n`);
  };
  const job = JSON.parse(process.argv[2] ?? '') as Job;
  const origin = process.hrtime.bigint();
  await executeJob(suite, job, {
    facts: {
      runtime: 'node',
      version: process.version.replace(/^v/, ''),
      engine: 'v8',
      engineVersion: process.versions.v8,
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    },
    clock: { name: 'process.hrtime.bigint', now: () => Number(process.hrtime.bigint() - origin) },
    emit,
    metrics: gcProbe(),
  });
  // A case may leave timers or sockets open; the job is over, so is the process.
  process.exit(0);
}
