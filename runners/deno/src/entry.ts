/**
 * In-runtime entry for Deno: the Job comes in Deno.args, time comes from
 * performance.now() (Deno 2 gives it sub-microsecond resolution; the harness
 * probes it anyway), protocol lines go to stdout with synchronous writes so
 * nothing is lost at Deno.exit.
 */
import { executeJob } from '@rtbench/core/execute';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { gcProbe } from './gc-probe.ts';

/** The part of the Deno namespace this entry uses (no Deno types in the build). */
interface DenoApi {
  args: string[];
  version: { deno: string; v8: string };
  stdout: { writeSync(bytes: Uint8Array): number };
  exit(code: number): never;
}

const Deno = (globalThis as unknown as { Deno: DenoApi }).Deno;

function writeAll(bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += Deno.stdout.writeSync(bytes.subarray(offset));
}

export async function start(suite: SuiteDefinition): Promise<void> {
  const encoder = new TextEncoder();
  const emit = (message: RuntimeMessage): void => writeAll(encoder.encode(`${encodeLine(message)}\n`));
  const job = JSON.parse(Deno.args[0] ?? '') as Job;
  const origin = performance.now();
  await executeJob(suite, job, {
    facts: {
      runtime: 'deno',
      version: Deno.version.deno,
      engine: 'v8',
      engineVersion: Deno.version.v8,
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    },
    // ms as a double; subtracting a recent origin keeps sub-ns digits exact.
    clock: { name: 'performance.now', now: () => (performance.now() - origin) * 1e6 },
    emit,
    metrics: gcProbe(),
  });
  // A case may leave timers or sockets open; the job is over, so is the process.
  Deno.exit(0);
}
