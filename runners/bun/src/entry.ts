/**
 * In-runtime entry for Bun: the Job comes on stdin, time comes from
 * Bun.nanoseconds() (ns, monotonic), protocol lines go to stdout with
 * synchronous writes so nothing is lost at process.exit.
 *
 * The bundle imports this module before the suite: its top level reads the
 * job (and its token) from stdin, leaves in process.env only what the
 * variant set, and keeps its own references to the clock, the exit and the
 * write.
 */
import { readSync, writeSync } from 'node:fs';
import { edenGC, heapStats } from 'bun:jsc';
import { executeJob, whenLoopRunsEmpty } from '@rtbench/core/execute';
import { LineReader } from '@rtbench/core/line-reader';
import { decodeJob, encodeLine, writeFully, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { GC_LOG_ENV, gcProbe, readsGcLog } from './gc-probe.ts';

/** The part of the Bun global this entry uses (no Bun types in the build). */
interface BunApi {
  version: string;
  nanoseconds(): number;
  gc(force: boolean): void;
}

const Bun = (globalThis as unknown as { Bun: BunApi }).Bun;
// Values, not the imports' live bindings: a case that replaces fs.readSync/fs.writeSync and calls
// syncBuiltinESMExports() would otherwise change the commands read and every message written.
const readIn = readSync;
const write = writeSync;
const writeOut = (bytes: Uint8Array): number => write(1, bytes);
const stdin = new LineReader((bytes) => readIn(0, bytes, 0, bytes.length, null));
const job = decodeJob(stdin.next());
// RTBENCH_CELL stays: without a cgroup it is how rtbench finds what the case started (@rtbench/process containment.ts).
for (const name of Object.keys(process.env)) if (!job.env.includes(name) && name !== 'RTBENCH_CELL') delete process.env[name];
const nanoseconds = Bun.nanoseconds.bind(Bun);
const collect = Bun.gc.bind(Bun, true);
// JavaScriptCore's eden (young) collection, for a fixed-iteration job's COLLECT_COMMAND (RuntimeEnvironment.collectYoung).
const collectYoung = (): void => void edenGC();
const exit = process.exit.bind(process);
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode.bind(encoder);
const emit = (message: RuntimeMessage): void => writeFully(encode(`${encodeLine(message, job.token)}\n`), writeOut);
process.on('beforeExit', whenLoopRunsEmpty({ later: setImmediate, emit, exit }));

export async function start(suite: SuiteDefinition): Promise<void> {
  const origin = nanoseconds();
  await executeJob(suite, job, {
    facts: {
      runtime: 'bun',
      version: Bun.version,
      engine: 'jsc',
      engineVersion: (process.versions as Record<string, string | undefined>).webkit ?? 'unknown',
      // Bun.gc() is always there; gc() too under --expose-gc.
      gcExposed: typeof Bun.gc === 'function' || typeof (globalThis as { gc?: unknown }).gc === 'function',
    },
    clock: { name: 'Bun.nanoseconds', now: () => nanoseconds() - origin },
    emit,
    metrics: gcProbe(heapStats, readsGcLog(job, job.env.includes(GC_LOG_ENV))),
    commands: async () => stdin.next(),
    collect,
    collectYoung,
  });
  // A case may leave timers or sockets open; the job is over, so is the process.
  exit(0);
}
