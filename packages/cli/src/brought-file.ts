/**
 * A benchmark file written for mitata or tinybench, run unchanged. The file
 * is imported for its side effects; its `mitata` / `tinybench` imports
 * resolve to packages/adapters, whose registry becomes the suite. This module
 * gives such a file what a suite folder gives: a location (name + an entry
 * that default-exports the suite, which bundle.ts bundles per runtime) and
 * its cases, listed on the host.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { suiteNameFor } from '@rtbench/adapters/suite-name';
import type { CaseSpec, SuiteDefinition } from '@rtbench/core';
import { adapterPlugin, IMPORTS_ADAPTED } from './bundle.ts';
import { UsageError } from './errors.ts';
import { cacheDir, repoRoot } from './paths.ts';
import type { SuiteLocation } from './suites.ts';

const REGISTRY = join(repoRoot, 'packages', 'adapters', 'src', 'registry.ts');
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
  const dir = join(cacheDir, 'brought');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `${name}-${createHash('sha256').update(file).digest('hex').slice(0, 12)}.ts`);
  if (!existsSync(entry) || readFileSync(entry, 'utf8') !== source) writeAtomically(entry, source);
  broughtEntries.set(entry, file);
  return { name, entry };
}

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

interface LoadedBrought {
  suite: SuiteDefinition;
  cases: CaseSpec[];
  /** How pieces of the file map onto rtbench (e.g. summary() accepted, no chart). */
  notes: readonly string[];
}

/** Loads the file on the host (node, bundled with the adapters) and lists its cases. */
export async function loadBroughtFile(location: SuiteLocation): Promise<LoadedBrought> {
  const file = broughtEntries.get(location.entry) ?? location.entry;
  let code: string;
  try {
    const result = await build({
      entryPoints: [location.entry],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'esnext',
      external: ['node:*', 'bun:*'],
      plugins: [adapterPlugin],
      logLevel: 'silent',
      sourcemap: 'inline',
    });
    code = result.outputFiles[0]!.text;
  } catch (error) {
    throw new UsageError(`${file} cannot be bundled: ${(error as Error).message.split('\n').slice(0, 4).join(' ')}`);
  }
  const hostBundle = join(cacheDir, 'brought', `host-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(hostBundle)) writeAtomically(hostBundle, code);
  const mod = (await import(pathToFileURL(hostBundle).href)) as { default: SuiteDefinition & { notes?: readonly string[]; loadError?: string } };
  const suite = mod.default;
  if (suite.loadError) throw new UsageError(`${file} does not load on the host (node): ${suite.loadError}`);
  const cases = suite.cases();
  if (cases.length === 0) throw new UsageError(`${file} declares no benchmarks (no mitata bench() or tinybench bench.add())`);
  return { suite, cases, notes: suite.notes ?? [] };
}
