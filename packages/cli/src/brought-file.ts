/**
 * A benchmark file written for mitata or tinybench, run unchanged. The file
 * is imported for its side effects; its `mitata` / `tinybench` imports
 * resolve to packages/adapters, whose registry becomes the suite. This module
 * gives such a file what a suite folder gives: a location (name + an entry
 * that default-exports the suite, which bundle.ts bundles per runtime). Its
 * cases are listed in a runtime process (list-cases.ts), never on the host.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { suiteNameFor } from '@rtbench/adapters/suite-name';
import { storeNamedFile } from '@rtbench/runner-kit';
import { IMPORTS_ADAPTED } from './bundle.ts';
import { cacheDir, rtbenchModule } from './paths.ts';
import type { SuiteLocation } from './suites.ts';

const REGISTRY = rtbenchModule('@rtbench/adapters/registry');
const SCRIPT = /\.[cm]?[jt]sx?$/;

/** The file each generated entry stands for. */
const broughtEntries = new Map<string, string>();

/** Is this path a mitata- or tinybench-style file (a script that imports one of them)? */
export function isBroughtFile(path: string): boolean {
  const full = resolve(path);
  if (!SCRIPT.test(full) || !existsSync(full) || !statSync(full).isFile()) return false;
  return IMPORTS_ADAPTED.test(readFileSync(full, 'utf8'));
}

export function isBroughtEntry(entry: string): boolean {
  return broughtEntries.has(entry);
}

/**
 * Writes the entry that turns the file into a suite: it imports the file
 * lazily, so an error while the file loads in some runtime becomes
 * "unsupported here, because …" for its cases instead of a dead process.
 */
export function locateBroughtFile(path: string): SuiteLocation {
  const file = resolve(path);
  const name = suiteNameFor(file);
  const source = [
    `import { broughtSuite } from ${JSON.stringify(REGISTRY)};`,
    `export default await broughtSuite(${JSON.stringify(name)}, () => import(${JSON.stringify(file)}));`,
    '',
  ].join('\n');
  // In the one program cache (owner-only, rewritten whenever it differs), named after the file it stands for.
  const entry = storeNamedFile(join(cacheDir, 'brought', `${name}-${createHash('sha256').update(file).digest('hex').slice(0, 12)}.ts`), source);
  broughtEntries.set(entry, file);
  return { name, entry };
}

/** The file a generated entry stands for. */
export function broughtFileOf(entry: string): string {
  return broughtEntries.get(entry) ?? entry;
}
