/**
 * Where a case's process keeps the code its engine compiled from the bundle,
 * so that the next process started on the same bundle loads it instead of
 * parsing and compiling it again (node's NODE_COMPILE_CACHE, deno's V8 code
 * cache). A lockstep table starts a process per case and runtime while the
 * previous case warms up on the same cores, so what each start costs is
 * taken from the warmup beside it.
 *
 * What a cache holds is bytecode for the functions compiled while the first
 * process loaded the bundle: the same bytecode a cold start makes. It holds no
 * type feedback, invocation counts or optimised code, so a case computes the
 * same and tiers up the same in a cached process; only loading is faster.
 * Measurements that time a start on purpose, or count every instruction of a
 * process, never ask for one (JobRequest.codeCache).
 *
 * One folder per bundle, beside it in the program cache (owner-only; its
 * name carries the bundle's content hash): a changed suite or runner is a new
 * bundle and starts a new folder, and the folders of bundles no longer there
 * are removed. Inside, one folder per binary and flags, as an engine rejects
 * a cache made by another release or under other flags and would rewrite a
 * shared one on every start of a comparison.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { keptBeside } from './beside-bundle.ts';
import type { JobRequest } from './types.ts';

const CODE_CACHE = keptBeside('.code-cache');

/** The cache folder of the request's bundle, binary and flags, made owner-only; undefined when not asked for or it cannot be made. */
export function codeCacheDir(request: JobRequest): string | undefined {
  if (!request.codeCache) return undefined;
  const { bundlePath, target, flags } = request;
  const variant = createHash('sha256')
    .update(JSON.stringify([target.binary, target.version, flags.args, Object.entries(flags.env).sort()]))
    .digest('hex')
    .slice(0, 16);
  const dir = join(CODE_CACHE.pathOf(bundlePath), variant);
  try {
    removeOrphans(bundlePath);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    // A bundle's folder the process cannot write to: the process compiles from source, as without a cache.
    return undefined;
  }
}

/** The bundles whose folder was swept in this process: a table starts a process per case on one bundle, and a sweep a bundle is enough. */
const sweptFor = new Set<string>();

/** Removes the cache folders beside `bundlePath` whose bundle is gone (the program cache removed an old version), once a bundle. */
function removeOrphans(bundlePath: string): void {
  if (sweptFor.has(bundlePath)) return;
  CODE_CACHE.removeOrphans(bundlePath);
  sweptFor.add(bundlePath);
}

