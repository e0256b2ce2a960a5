/**
 * In-runtime entry for Deno: the Job comes on stdin, time comes from
 * performance.now() (Deno 2 gives it sub-microsecond resolution; the harness
 * probes it anyway), protocol lines go to stdout with synchronous writes so
 * nothing is lost at Deno.exit.
 *
 * The bundle imports this module before the suite: its top level reads the
 * job (and its token) from stdin, leaves in the environment only what
 * the variant set (deno adds variables of its own), and keeps its own
 * references to the clock, the exit and the write.
 */
import { executeJob, exposedCollections, whenLoopRunsEmpty } from '@rtbench/core/execute';
import { LineReader } from '@rtbench/core/line-reader';
import { decodeJob, encodeLine, writeFully, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { gcProbe } from './gc-probe.ts';

/** The part of the Deno namespace this entry uses (no Deno types in the build). */
interface DenoApi {
  args: string[];
  version: { deno: string; v8: string };
  stdout: { writeSync(bytes: Uint8Array): number };
  stdin: { readSync(bytes: Uint8Array): number | null };
  env: { toObject(): Record<string, string>; delete(name: string): void };
  exit(code: number): never;
}

const Deno = (globalThis as unknown as { Deno: DenoApi }).Deno;
const readStdin = Deno.stdin.readSync.bind(Deno.stdin);
const stdin = new LineReader((bytes) => readStdin(bytes) ?? 0);
const job = decodeJob(stdin.next());
// RTBENCH_CELL stays: without a cgroup it is how rtbench finds what the case started (@rtbench/process containment.ts).
for (const name of Object.keys(Deno.env.toObject())) if (!job.env.includes(name) && name !== 'RTBENCH_CELL') Deno.env.delete(name);
const stdout = Deno.stdout;
const writeStdout = stdout.writeSync.bind(stdout);
const exit = Deno.exit.bind(Deno);
const now = performance.now.bind(performance);
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode.bind(encoder);
// Taken before the suite loads (case code may replace gc); present under --expose-gc.
const collections = exposedCollections();
const emit = (message: RuntimeMessage): void => writeFully(encode(`${encodeLine(message, job.token)}\n`), writeStdout);
// Taken before the suite loads, as emit and exit are (case code may replace setTimeout).
const later = setTimeout;
const loopRanEmpty = whenLoopRunsEmpty({ later: (fn) => void later(fn, 0), emit, exit });
globalThis.addEventListener('beforeunload', (event) => {
  // Deno exits after this event unless it is cancelled, even with a timer set.
  event.preventDefault();
  loopRanEmpty();
});

export async function start(suite: SuiteDefinition): Promise<void> {
  const origin = now();
  await executeJob(suite, job, {
    facts: {
      runtime: 'deno',
      version: Deno.version.deno,
      engine: 'v8',
      engineVersion: Deno.version.v8,
      gcExposed: collections.collect !== undefined,
    },
    // ms as a double; subtracting a recent origin keeps sub-ns digits exact.
    clock: { name: 'performance.now', now: () => (now() - origin) * 1e6 },
    emit,
    metrics: gcProbe(),
    commands: async () => stdin.next(),
    ...collections,
  });
  // A case may leave timers or sockets open; the job is over, so is the process.
  exit(0);
}
