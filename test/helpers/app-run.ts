/**
 * One CLI run of a fixture app (test/fixtures/apps/<name>), installed from
 * its lockfile, on the given runtimes with the requests given: the run
 * every assertion of an app's end-to-end file reads. The adapters rtbench
 * adds to an app are installed by its library store into the machine's test
 * cache (RTBENCH_LIBRARY_CACHE), as the apps' own dependencies are: a folder
 * per version of rtbench's app modules, which name those adapters' versions.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '../../packages/measurer-records/src/index.ts';
import { installedApp } from '../../scripts/app-fixture.ts';
import { runCliAsync, tempFile, type CliResult } from './cli.ts';
import { machineCache, pruneUnused, touchEntry } from './machine-cache.ts';

const SUITE_LOADER = join(import.meta.dirname, '..', '..', 'packages', 'suite-loader', 'src');

let libraries: string | undefined;

/** The environment of an app test's CLI runs: the library store in the machine's test cache, keyed by rtbench's app modules. */
export function appRunEnv(): { RTBENCH_LIBRARY_CACHE: string } {
  if (!libraries) {
    const hash = createHash('sha256');
    for (const file of readdirSync(SUITE_LOADER).filter((f) => f.startsWith('app-')).sort()) hash.update(`${file}\u0000`).update(readFileSync(join(SUITE_LOADER, file)));
    const cache = machineCache('');
    const entry = `libraries-${hash.digest('hex').slice(0, 12)}`;
    pruneUnused(cache, (name) => name.startsWith('libraries-'), [entry]);
    libraries = machineCache(entry);
    touchEntry(libraries);
  }
  return { RTBENCH_LIBRARY_CACHE: libraries };
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

/** `rtbench run <args…>`, a smoke run, and its saved run parsed when it saved one. */
export async function runApp(args: readonly string[]): Promise<{ r: CliResult; record?: RunRecord }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['run', ...args, '--save', out, ...APP_RUN], appRunEnv());
  return { r, ...(existsSync(out) ? { record: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) } : {}) };
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
