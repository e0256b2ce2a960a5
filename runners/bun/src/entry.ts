/**
 * In-runtime entry for Bun: the Job comes in argv, time comes from
 * Bun.nanoseconds() (ns, monotonic), protocol lines go to stdout with
 * synchronous writes so nothing is lost at process.exit.
 */
import { writeSync } from 'node:fs';
import { executeJob } from '@rtbench/core/execute';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { gcProbe } from './gc-probe.ts';

function writeAll(text: string): void {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(1, bytes, offset);
}

export async function start(suite: SuiteDefinition): Promise<void> {
  const emit = (message: RuntimeMessage): void => writeAll(`${encodeLine(message)}\n`);
  const job = JSON.parse(process.argv[2] ?? '') as Job;
  const origin = Bun.nanoseconds();
  await executeJob(suite, job, {
    facts: {
      runtime: 'bun',
      version: Bun.version,
      engine: 'jsc',
      engineVersion: (process.versions as Record<string, string | undefined>).webkit ?? 'unknown',
      // Bun.gc() is always there; gc() too under --expose-gc.
      gcExposed: typeof Bun.gc === 'function' || typeof (globalThis as { gc?: unknown }).gc === 'function',
    },
    clock: { name: 'Bun.nanoseconds', now: () => Bun.nanoseconds() - origin },
    emit,
    metrics: gcProbe(),
  });
  // A case may leave timers or sockets open; the job is over, so is the process.
  process.exit(0);
}
