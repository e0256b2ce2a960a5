/**
 * The allocating calls a plain program can time, by name: each is the set-up
 * of a program's source that defines `call`, one call of a suite's case that
 * returns a number (its imports resolved from the repository, so the program
 * runs the suite's own code).
 */
import { join } from 'node:path';

const fromRepository = (path: string): string => JSON.stringify(join(process.cwd(), path));
const gcPressure = fromRepository('bench/gc-pressure/workloads.ts');

export const WORKLOADS: Readonly<Record<string, string>> = {
  /** buffer-concat's `Buffer.concat` of 50 chunks of 2 KB. */
  'concat-50': `import { Buffer } from 'node:buffer';
import { makeChunks } from ${fromRepository('bench/buffer-concat/chunks.ts')};
const chunks = makeChunks(50);
const call = () => Buffer.concat(chunks).length;`,
  /** gc-pressure's 10k objects a call into a ring that keeps that many alive. */
  'retained-200k': `import { retainedSet } from ${gcPressure};\nconst call = retainedSet(200_000);`,
  'retained-20k': `import { retainedSet } from ${gcPressure};\nconst call = retainedSet(20_000);`,
  /** gc-pressure's request that keeps every record it builds until it ends. */
  'records-100k': `import { requestScoped } from ${gcPressure};\nconst call = requestScoped(100_000);`,
  'records-25k': `import { requestScoped } from ${gcPressure};\nconst call = requestScoped(25_000);`,
};

/** The set-up of the workload named, or an error listing the names. */
export function workloadSource(name: string): string {
  const source = WORKLOADS[name];
  if (source === undefined) throw new Error(`--workload: one of ${Object.keys(WORKLOADS).join(', ')}`);
  return source;
}
