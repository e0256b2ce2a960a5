/** Finding and loading suites: bench/<name>/index.ts, default export from suite(). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { importUserModule } from '@rtbench/process';
import { isSuiteDefinition, type CaseSpec } from '@rtbench/core/suite';
import { type SuiteDefinition } from '@rtbench/core';
import { oneLine } from '@rtbench/core/words';
import { isBroughtFile, locateBroughtFile } from './brought-file.ts';
import { UsageError } from '@rtbench/core/usage-error';
import { isStoredEntry, isWorkerTarget, locateWorker } from './worker.ts';
import { FRAMEWORKS } from './apps/all.ts';
import { frameworkAppAt } from './apps/framework-app.ts';
import { locateApp } from './apps/app-suite.ts';
import { suitesDir } from './places.ts';
import type { BroughtSettings, SuiteLocation } from './suite-location.ts';

export function listSuites(benchDir = suitesDir): SuiteLocation[] {
  if (!existsSync(benchDir)) return [];
  return readdirSync(benchDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(benchDir, d.name, 'index.ts')))
    .map((d) => ({ name: d.name, entry: join(benchDir, d.name, 'index.ts') }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** What a suite measures, from its README's heading (`# name — what it measures`), or undefined without one. */
export function suiteSummary(location: SuiteLocation): string | undefined {
  const readme = join(dirname(location.entry), 'README.md');
  if (!existsSync(readme)) return undefined;
  const heading = /^# *(.*)$/m.exec(readFileSync(readme, 'utf8'))?.[1] ?? '';
  const text = (heading.startsWith(location.name) ? heading.slice(location.name.length) : heading).replace(/^\s*[—–-]\s*/, '').trim();
  return text || undefined;
}

/** A suite by name (bench/<name>) or by path to its index.ts / folder. */
export function locateSuite(nameOrPath: string, brought: BroughtSettings = {}): SuiteLocation {
  const suites = listSuites();
  const byName = suites.find((s) => s.name === nameOrPath);
  if (byName) return byName;
  // The entry rtbench wrote for a Worker or an app: its request suite (not a Worker module of its own).
  if (isStoredEntry(nameOrPath)) return { name: basename(nameOrPath, '.ts'), entry: resolve(nameOrPath) };
  // A file written for mitata or tinybench, run as it is.
  if (isBroughtFile(nameOrPath)) return locateBroughtFile(nameOrPath, brought.set, brought.declared, brought.realRandomAtLoad);
  // A Workers module, a wrangler project or a framework app, served as a request suite. An app's folder is the app,
  // even when a wrangler config beside it names its built Worker.
  if (isWorkerTarget(nameOrPath)) {
    const app = frameworkAppAt(nameOrPath, FRAMEWORKS);
    return app ? locateApp(nameOrPath, app, brought.worker) : locateWorker(nameOrPath, brought.worker);
  }
  for (const candidate of [nameOrPath, join(nameOrPath, 'index.ts')]) {
    const path = resolve(candidate);
    if (path.endsWith('.ts') && existsSync(path)) return { name: nameOrPath, entry: path };
  }
  const known = suites.map((s) => s.name).join(', ') || '(none)';
  throw new UsageError(`unknown suite "${nameOrPath}". Suites: ${known}`);
}

/** A native suite (bench/<name> or a folder): rtbench's own API, loaded on the host to list its cases. */
export async function loadSuite(location: SuiteLocation): Promise<{ suite: SuiteDefinition; cases: CaseSpec[] }> {
  let mod: { default?: unknown };
  try {
    mod = (await importUserModule(location.entry)) as { default?: unknown };
  } catch (error) {
    throw suiteLoadError(location, error);
  }
  if (!isSuiteDefinition(mod.default)) {
    throw new UsageError(`${location.entry} must \`export default suite('name', () => { ... })\` from @rtbench/core`);
  }
  let cases: CaseSpec[];
  try {
    cases = mod.default.cases();
  } catch (error) {
    throw new UsageError(`suite "${location.name}" cannot list its cases: ${suiteErrorText(error, location)}`);
  }
  if (cases.length === 0) throw new UsageError(`suite "${mod.default.name}" declares no cases`);
  return { suite: mod.default, cases };
}

/**
 * An error from a suite's own code as one line: a syntax error as the
 * compiler gives it (file:line:col), anything else whole, its line breaks
 * shown as `\n`, with the first frame in the suite's folder.
 */
/** A suite that threw while it was loaded, or while it made what a run asks of it (a framework app's build): one line naming where. */
export function suiteLoadError(location: SuiteLocation, error: unknown): UsageError {
  return new UsageError(`suite "${location.name}" does not load: ${suiteErrorText(error, location)}`);
}

function suiteErrorText(error: unknown, location: SuiteLocation): string {
  if (!(error instanceof Error)) return String(error);
  const lines = error.message.split('\n');
  // esbuild (through tsx): "Transform failed with 1 error:\n<file>:<line>:<col>: ERROR: <text>"
  const compiled = lines.find((l) => /:\d+:\d+: ERROR: /.test(l));
  if (compiled) return relative(process.cwd(), compiled.trim());
  const folder = dirname(location.entry);
  const frame = (error.stack ?? '').split('\n').map((l) => /\(?((?:file:\/\/)?\/[^\s()]+:\d+:\d+)\)?\s*$/.exec(l)?.[1]).find((f) => f && f.replace(/^file:\/\//, '').startsWith(folder));
  const where = frame ? ` (at ${relative(process.cwd(), frame.replace(/^file:\/\//, ''))})` : '';
  return `${oneLine(error.message.trim())}${where}`;
}
