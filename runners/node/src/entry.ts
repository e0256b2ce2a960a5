/**
 * In-runtime entry for Node.js: read the Job from stdin, time with
 * process.hrtime.bigint (ns resolution), write protocol lines to stdout.
 *
 * The bundle imports this module before the suite, so its top level runs
 * before any case code: it reads the job (and its token) from stdin, leaves
 * in process.env only what the variant set, and keeps its own references to
 * the clock, the exit and the write it uses, so a case that replaces them (a
 * fake-timer library, a mocked stdout) changes neither timing nor messages.
 */
import { executeJob, exposedCollections, whenLoopRunsEmpty } from '@rtbench/core/execute';
import { LineReader } from '@rtbench/core/line-reader';
import { decodeJob, encodeLine, writeFully, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { nodeBuiltin } from './builtins.ts';
import { gcProbe } from './gc-probe.ts';

// Values taken now, not the module's properties later: a case that replaces fs.readSync/fs.writeSync
// would otherwise change the commands read and every message written.
const { readSync: readIn, writeSync: write } = nodeBuiltin('node:fs') as typeof import('node:fs');
const writeOut = (bytes: Uint8Array): number => write(1, bytes);
const stdin = new LineReader((bytes) => readIn(0, bytes, 0, bytes.length, null));
const job = decodeJob(stdin.next());
// RTBENCH_CELL stays: without a cgroup it is how rtbench finds what the case started (@rtbench/process containment.ts).
for (const name of Object.keys(process.env)) if (!job.env.includes(name) && name !== 'RTBENCH_CELL') delete process.env[name];
const hrtime = process.hrtime.bigint;
// The clock's reading becomes a number through this, not the global a case may replace.
const toNumber = Number;
const exit = process.exit.bind(process);
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode.bind(encoder);
// Taken before the suite loads (case code may replace gc); present under --expose-gc.
const collections = exposedCollections();
// Synchronous, retried on a full pipe: process.stdout.write would queue the
// line, and the exit below would drop whatever was still queued.
const emit = (message: RuntimeMessage): void => {
  writeFully(encode(`${encodeLine(message, job.token)}\n`), writeOut);
};
process.on('beforeExit', whenLoopRunsEmpty({ later: setImmediate, emit, exit }));

export async function start(suite: SuiteDefinition): Promise<void> {
  const origin = hrtime();
  await executeJob(suite, job, {
    facts: {
      runtime: 'node',
      version: process.version.replace(/^v/, ''),
      engine: 'v8',
      engineVersion: process.versions.v8,
      gcExposed: collections.collect !== undefined,
    },
    clock: { name: 'process.hrtime.bigint', now: () => toNumber(hrtime() - origin) },
    emit,
    metrics: gcProbe(),
    commands: async () => stdin.next(),
    ...collections,
  });
  // A case may leave timers or sockets open; the job is over, so is the process.
  exit(0);
}
