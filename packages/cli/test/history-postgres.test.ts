/**
 * `rtbench history --store postgres://…`: the results store on a real
 * PostgreSQL server (a throwaway cluster the test starts, test/helpers/postgres.ts)
 * gives the same history as a folder's own SQLite store, byte for byte; a
 * second history is answered from the server, and one with a run appended
 * goes on from the walk each store kept; a server that cannot be
 * reached is one line. Synthetic runs without a commit
 * (ordered by start time), the CLI in the test's own process.
 */
import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { clusterForFile } from '../../../test/helpers/postgres.ts';
import { commandStreams as runCli } from './usage-lines.ts';

const cases = [
  { id: 'parse / small', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];

/** Whole seconds: a time set back by utimes (to the microsecond) is then the time the store read. */
const savedAt = new Date(Date.UTC(2026, 0, 5));

/** Four runs, the third on 10% slower, and a file that is not a run. */
function savedRuns(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-pg-'));
  historyRuns([1, 1, 1.1, 1.1].map((factor) => ({ factor })), { cases, rounds: 10, seed: 9, suite: 'synthetic' }).forEach((run, i) => utimesSync(writeRun(join(dir, `run-${i}.json`), run), savedAt, savedAt));
  writeFileSync(join(dir, 'notes.json'), '{"hello": "world"}\n');
  return dir;
}

const cluster = clusterForFile();

describe('the results store on PostgreSQL', () => {
  it('the same history as the embedded store, byte for byte, and the second answered from the server', async () => {
    const dir = savedRuns();
    // The terminal's newest run alone: the window's first walk is the server cursor's, and only its runs are read whole.
    for (const shown of [['--format', 'terminal'], ['--format', 'json'], ['--format', 'terminal', '--last', '1']]) {
      const embedded = await runCli(['history', dir, ...shown]);
      expect(embedded.status, embedded.stderr).toBe(0);
      const ingest = await runCli(['history', dir, ...shown, '--store', cluster().url]);
      const served = await runCli(['history', dir, ...shown, '--store', cluster().url]);
      expect(ingest.stdout).toBe(embedded.stdout);
      expect(served.stdout).toBe(embedded.stdout);
      expect(served.stderr).toBe(embedded.stderr);
    }
    // A run after the others: each store goes on from the walk it kept (walk-checkpoint.ts), and they agree still.
    const [appended] = historyRuns([{ factor: 1.1, startedAt: new Date(Date.UTC(2026, 0, 9)).toISOString() }], { cases, rounds: 10, seed: 77, suite: 'synthetic' });
    utimesSync(writeRun(join(dir, 'run-4.json'), { ...appended!, id: 'history-5' }), savedAt, savedAt);
    const [embedded, served] = [await runCli(['history', dir]), await runCli(['history', dir, '--store', cluster().url])];
    expect([embedded.status, served.stdout]).toEqual([0, embedded.stdout]);
    expect(embedded.stdout).toMatch(/2026-01-09 00:00 +run-4\.json/);
    // The same size and modification time, other bytes: only a store that is read still has the run.
    const file = join(dir, 'run-0.json');
    const { atime, mtime, size } = statSync(file);
    writeFileSync(file, 'x'.repeat(size));
    utimesSync(file, atime, mtime);
    const [fromServer, fromFiles] = await Promise.all([runCli(['history', dir, '--format', 'json', '--store', cluster().url]), runCli(['history', join(dir, 'run-0.json'), join(dir, 'run-1.json'), '--format', 'json'])]);
    expect((JSON.parse(fromServer.stdout) as { runs: unknown[] }).runs).toHaveLength(5);
    expect(fromFiles.stderr).toMatch(/skipped .*run-0\.json/);
  });

  it('a server that cannot be reached: one line, exit 2', async () => {
    const r = await runCli(['history', savedRuns(), '--store', 'postgres://nobody:secret@127.0.0.1:1/none']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: --store postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none: cannot connect \(.+\)$/);
  });
});
