/**
 * `rtbench history` through a folder's results store (@rtbench/results-store):
 * the second history of a folder is answered from the store, byte for byte
 * the history of its files read one by one. Synthetic runs without a commit
 * (ordered by start time: git is not asked), in the test's own process.
 */
import { existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORE_FILE } from '@rtbench/results-store';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { commandStreams as runCli } from './usage-lines.ts';

const cases = [
  { id: 'parse / small', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];

const SAVED_AT = new Date(Date.UTC(2026, 0, 5));

/** Four runs, the third on 10% slower; file names that sort against their order. */
function savedRuns(): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-store-'));
  const steps = [1, 1, 1.1, 1.1].map((factor) => ({ factor }));
  const files = historyRuns(steps, { cases, rounds: 10, seed: 3, suite: 'synthetic' }).map((run, i) => writeRun(join(dir, `${String.fromCharCode(122 - i)}-run.json`), run));
  // Whole seconds: a time set back by utimes (to the microsecond) is then the time the store read.
  for (const file of files) utimesSync(file, SAVED_AT, SAVED_AT);
  return { dir, files: [...files].sort() };
}

/** The file holding something else of the same length, its modification time kept: only a store that is read still has its run. */
function garbleKeepingStamp(file: string): void {
  const { atime, mtime, size } = statSync(file);
  writeFileSync(file, 'x'.repeat(size));
  utimesSync(file, atime, mtime);
}

describe.concurrent('rtbench history through the results store', () => {
  for (const format of ['terminal', 'json', 'csv']) {
    it(`--format ${format}: from the store, byte for byte the history of the files read one by one`, async () => {
      const { dir, files } = savedRuns();
      const direct = await runCli(['history', ...files, '--format', format]);
      expect(direct.status, direct.stderr).toBe(0);
      expect(existsSync(join(dir, STORE_FILE))).toBe(false);
      const ingesting = await runCli(['history', dir, '--format', format]);
      expect(existsSync(join(dir, STORE_FILE))).toBe(true);
      const stored = await runCli(['history', dir, '--format', format]);
      expect(ingesting.stdout).toBe(direct.stdout);
      expect(stored.stdout).toBe(direct.stdout);
      expect(stored.stderr).toBe(direct.stderr);
    });
  }

  it('reads each file once: an unchanged file is answered from the store, a changed one is read again', async () => {
    const { dir, files } = savedRuns();
    const before = await runCli(['history', dir, '--format', 'json']);
    expect(before.status, before.stderr).toBe(0);
    garbleKeepingStamp(files[0]!);
    const stored = await runCli(['history', dir, '--format', 'json']);
    expect(stored.stdout).toBe(before.stdout);
    // A new modification time: the file is read again, found not to be a run, named and skipped.
    const { atime, mtime } = statSync(files[1]!);
    garbleKeepingStamp(files[1]!);
    utimesSync(files[1]!, atime, new Date(mtime.getTime() + 5_000));
    const changed = await runCli(['history', dir, '--format', 'json']);
    expect(changed.status, changed.stderr).toBe(0);
    expect(changed.stderr.split('\n').filter((l) => l.startsWith('skipped '))).toEqual([expect.stringContaining(files[1]!)]);
    expect((JSON.parse(changed.stdout) as { runs: unknown[] }).runs).toHaveLength(3);
    expect(readFileSync(files[0]!, 'utf8')).toMatch(/^x+$/);
  });

  it('--store <file>: every file read through that SQLite store, files named one by one too', async () => {
    const { dir, files } = savedRuns();
    const store = join(mkdtempSync(join(tmpdir(), 'rtbench-named-store-')), 'fleet.sqlite');
    const direct = await runCli(['history', ...files, '--format', 'json']);
    const ingest = await runCli(['history', ...files, '--format', 'json', '--store', store]);
    expect(existsSync(store)).toBe(true);
    expect(existsSync(join(dir, STORE_FILE))).toBe(false);
    garbleKeepingStamp(files[0]!);
    const stored = await runCli(['history', ...files, '--format', 'json', '--store', store]);
    expect(ingest.stdout).toBe(direct.stdout);
    expect(stored.stdout).toBe(direct.stdout);
  });

  it('--store naming what cannot be a SQLite file: one line, exit 2', async () => {
    const { dir } = savedRuns();
    const r = await runCli(['history', dir, '--store', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(new RegExp(`^error: --store ${dir}: cannot open it as a SQLite store \\(.+\\)$`));
  });

  it('--last n shows the newest runs and says how many are left out; --all every run; JSON every run by default', async () => {
    const { files } = savedRuns();
    const [whole, all, last, json, lastJson] = await Promise.all([
      runCli(['history', ...files]),
      runCli(['history', ...files, '--all']),
      runCli(['history', ...files, '--last', '1']),
      runCli(['history', ...files, '--format', 'json']),
      runCli(['history', ...files, '--format', 'json', '--last', '1']),
    ]);
    expect(all.stdout).toBe(whole.stdout);
    expect(last.status, last.stderr).toBe(0);
    // The third run is a change point: it and the run it is compared with stay, beside the newest.
    expect(last.stdout).toMatch(/1 run of 4 not shown: the newest run is/);
    expect(last.stdout).not.toContain(files[3]!);
    expect((JSON.parse(json.stdout) as { window?: unknown }).window).toBeUndefined();
    expect((JSON.parse(lastJson.stdout) as { window?: { runs: number[] } }).window?.runs).toEqual([1, 2, 3]);
    for (const args of [['--last', '0'], ['--last', '1', '--all']]) expect((await runCli(['history', ...files, ...args])).status).toBe(2);
  });
});
