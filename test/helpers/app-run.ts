/**
 * One CLI run of a fixture app (test/fixtures/apps/<name>), installed from
 * its lockfile, on the given runtimes with the requests given: the run
 * every assertion of an app's end-to-end file reads. The adapters rtbench
 * adds to an app are installed by its library store into the machine's test
 * cache (RTBENCH_LIBRARY_CACHE), as the apps' own dependencies are: a folder
 * per version of rtbench's app modules, which name those adapters' versions.
 * The apps' builds are kept there too (RTBENCH_APP_BUILD_CACHE): a build is
 * keyed by everything it is made from, so one made before on the machine is
 * no behaviour under test; a run asked `fresh` builds into a folder of its
 * own, so every test run still builds one app end to end.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '../../packages/measurer-records/src/index.ts';
import { installedApp } from '../../scripts/app-fixture.ts';
import { runCliAsync, tempFile, type CliResult } from './cli.ts';
import { machineCache, pruneUnused, touchEntry } from './machine-cache.ts';

const SRC = join(import.meta.dirname, '..', '..', 'packages');
const SUITE_LOADER = join(SRC, 'suite-loader', 'src');
const HOST = join(SRC, 'host', 'src');

/** The files of `dir` that `ofModule` takes, hashed (name and bytes). */
function modulesHash(dir: string, ofModule: (file: string) => boolean, hash = createHash('sha256')): ReturnType<typeof createHash> {
  for (const file of readdirSync(dir).filter(ofModule).sort()) hash.update(`${file}\u0000`).update(readFileSync(join(dir, file)));
  return hash;
}

/** The machine cache's entry `<kind>-<key>` (made, touched), entries of its kind unused for a day removed. */
function keptEntry(kind: string, key: string): string {
  const cache = machineCache('');
  const entry = `${kind}-${key}`;
  pruneUnused(cache, (name) => name.startsWith(`${kind}-`), [entry]);
  const dir = machineCache(entry);
  touchEntry(dir);
  return dir;
}

let env: { RTBENCH_LIBRARY_CACHE: string; RTBENCH_APP_BUILD_CACHE: string } | undefined;

/**
 * The environment of an app test's CLI runs: the library store and the apps' builds in the
 * machine's test cache, the library store's folder keyed by rtbench's app modules, the builds'
 * by those and rtbench's build modules (each build is keyed by them too: the folder's key only
 * lets a day's pruning drop what no checkout builds any more).
 */
export function appRunEnv(): { RTBENCH_LIBRARY_CACHE: string; RTBENCH_APP_BUILD_CACHE: string } {
  if (!env) {
    const appModules = (f: string): boolean => f.startsWith('app-');
    const libraries = keptEntry('libraries', modulesHash(SUITE_LOADER, appModules).digest('hex').slice(0, 12));
    const builds = keptEntry('builds', modulesHash(HOST, (f) => f.endsWith('-build.ts'), modulesHash(SUITE_LOADER, appModules)).digest('hex').slice(0, 12));
    env = { RTBENCH_LIBRARY_CACHE: libraries, RTBENCH_APP_BUILD_CACHE: builds };
  }
  return env;
}

interface AppRun {
  r: CliResult;
  record: RunRecord;
}

/**
 * The options of every app test's run: its figures are read by no test, so it is a smoke run
 * (`--fixed-warmup`: each server serves a few requests, docs/requests.md), one case filter.
 */
const APP_RUN = ['--fixed-warmup', '--no-color', '--filter', 'cpu=js thread'] as const;

/**
 * `rtbench run <args…>`, a smoke run, where it saves and its saved run parsed when it saved one; `fresh`: its
 * builds made in a new folder (none kept from an earlier run), not the machine's.
 */
export async function runApp(args: readonly string[], { fresh = false } = {}): Promise<{ r: CliResult; saved: string; record?: RunRecord }> {
  const out = tempFile('run.json');
  const builds = fresh ? { RTBENCH_APP_BUILD_CACHE: mkdtempSync(join(tmpdir(), 'rtbench-app-builds-')) } : {};
  const r = await runCliAsync(['run', ...args, '--save', out, ...APP_RUN], { ...appRunEnv(), ...builds });
  return { r, saved: out, ...(existsSync(out) ? { record: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) } : {}) };
}

/** `rtbench run <app> --runtime <runtimes> --rounds 1 --request … [extra]`, a smoke run saved and parsed; fails the hook when nothing was saved. */
export async function runFixtureApp(name: string, runtimes: string, requests: readonly string[], extra: readonly string[] = []): Promise<AppRun> {
  const { r, record } = await runApp([installedApp(name), '--runtime', runtimes, '--rounds', '1', ...requests.flatMap((q) => ['--request', q]), ...extra]);
  expect(record, r.stderr).toBeDefined();
  return { r, record: record! };
}

/**
 * The app's page (`GET /`) served on exactly `runtimes`, one round each answering 200, and proven the
 * same work across its editions: no digest mismatch for it (the builds' names masked).
 */
export function expectSamePageServed(record: RunRecord, runtimes: readonly string[]): void {
  const page = record.results.filter((x) => x.caseId.startsWith('GET / '));
  expect(page.map((x) => x.variantId).sort()).toEqual([...runtimes].sort());
  for (const result of page) {
    expect(result.rounds.length, result.variantId).toBe(1);
    expect(requestsOf(result.rounds[0]!)!.answers!.map((a) => a.status), result.variantId).toEqual([200]);
  }
  expect(record.digestMismatches?.map((m) => m.caseId)).not.toContain(page[0]!.caseId);
}
