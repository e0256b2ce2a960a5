/**
 * One CLI run of a fixture app (test/fixtures/apps/<name>), installed from
 * its lockfile, on the given runtimes with the requests given: the run
 * every assertion of an app's end-to-end file reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { installedApp } from '../../scripts/app-fixture.ts';
import { runCliAsync, tempFile, type CliResult } from './cli.ts';

interface AppRun {
  r: CliResult;
  record: RunRecord;
}

/** `rtbench run <app> --runtime <runtimes> --rounds 1 --request …`, saved and parsed; fails the hook when nothing was saved. */
export async function runFixtureApp(name: string, runtimes: string, requests: readonly string[]): Promise<AppRun> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['run', installedApp(name), '--runtime', runtimes, '--rounds', '1', ...requests.flatMap((q) => ['--request', q]), '--save', out, '--no-color', '--filter', 'cpu=js thread']);
  expect(existsSync(out), r.stderr).toBe(true);
  return { r, record: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) };
}
