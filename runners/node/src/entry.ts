/**
 * In-runtime entry for Node.js: read the Job from argv, time with
 * process.hrtime.bigint (ns resolution), write protocol lines to stdout.
 */
import { executeJob, type GcProbe } from '@rtbench/core/execute';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { PerformanceObserver } from 'node:perf_hooks';

function gcProbe(): GcProbe {
  let count = 0;
  let timeMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      count++;
      timeMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    source: 'PerformanceObserver(gc)',
    // GC entries are delivered asynchronously; let pending ones arrive first.
    read: () => new Promise((resolve) => setTimeout(() => resolve({ count, timeMs }), 0)),
  };
}

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
    gc: gcProbe(),
  });
  // A case may leave timers or sockets open; the job is over, so is the process.
  process.exit(0);
}
