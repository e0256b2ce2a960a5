/**
 * The store on a real PostgreSQL server (a throwaway cluster the test starts,
 * test/helpers/postgres.ts): two machines reading files at the same paths
 * keep them apart, and a run both read is one row with its arms and figures;
 * a store of another format is refused, never emptied (its files are on
 * other machines); one of format 5 is migrated to run shapes in place.
 */
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as PgClient, ClientConfig } from 'pg';
import { describe, expect, it } from 'vitest';
import { historyFiles, loadSavedRun } from '@rtbench/saved-runs';
import { readStored } from '../src/index.ts';
import { STORE_FORMAT } from '../src/schema.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { clusterForFile } from '../../../test/helpers/postgres.ts';
import { expectFactsAsFiles } from './walked-folder.ts';

function savedRuns(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-pg-store-'));
  historyRuns([1, 1.1].map((factor) => ({ factor })), { cases: [{ id: 'parse', ns: 1_000 }], rounds: 6, seed: 13, suite: 'synthetic' }).forEach((run, i) => writeRun(join(dir, `run-${i}.json`), run));
  return dir;
}

const cluster = clusterForFile();

async function query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  const { Client } = createRequire(import.meta.url)('pg') as { Client: new (config: ClientConfig) => PgClient };
  const client = new Client({ connectionString: cluster().url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('the results store on PostgreSQL', () => {
  it("keeps each machine's files apart; a run two machines read is one row, with its arms and figures", async () => {
    const dir = savedRuns();
    const files = historyFiles([dir]);
    const asked: string[] = [];
    for (const host of ['runner-a', 'runner-b']) await readStored([dir], files, (f) => (asked.push(`${host} ${f}`), loadSavedRun(f)), cluster().url, host);
    // Each machine reads its own files once; a second read by runner-a asks for none.
    await readStored([dir], files, (f) => (asked.push(`again ${f}`), loadSavedRun(f)), cluster().url, 'runner-a');
    expect(asked).toEqual(['runner-a', 'runner-b'].flatMap((host) => files.map((f) => `${host} ${f}`)));
    const byHost = await query<{ host_id: string; count: string }>('SELECT host_id, count(*) AS count FROM files WHERE path LIKE $1 GROUP BY host_id ORDER BY host_id', [`${dir}/%`]);
    expect(byHost).toEqual([
      { host_id: 'runner-a', count: '2' },
      { host_id: 'runner-b', count: '2' },
    ]);
    const runs = await query<{ run_id: string; figures: string; arms: string }>(
      `SELECT r.run_id, (SELECT count(*) FROM figures g WHERE g.digest = r.digest) AS figures, (SELECT count(*) FROM arms a WHERE a.digest = r.digest) AS arms
       FROM runs r WHERE r.digest IN (SELECT digest FROM files WHERE path LIKE $1) ORDER BY r.run_id`,
      [`${dir}/%`],
    );
    expect(runs).toEqual([
      { run_id: 'history-1', figures: '1', arms: '1' },
      { run_id: 'history-2', figures: '1', arms: '1' },
    ]);
  });

  it('a store of another format is refused in one line, and left as it is', async () => {
    const dir = savedRuns();
    await readStored([dir], historyFiles([dir]), loadSavedRun, cluster().url, 'runner-c');
    await query("UPDATE rtbench_meta SET value = 'older' WHERE key = 'format'");
    try {
      await expect(readStored([], [], loadSavedRun, cluster().url, 'runner-a')).rejects.toThrow(/^the store at postgres:\/\/rtbench@127\.0\.0\.1:\d+\/postgres holds runs of store format older; this rtbench reads format \d+$/);
      expect(await query('SELECT count(*) AS n FROM runs')).not.toEqual([{ n: '0' }]);
    } finally {
      await query("UPDATE rtbench_meta SET value = $1 WHERE key = 'format'", [STORE_FORMAT]);
    }
  });

  it("a store of format 5 is migrated: each run's shape made from its rows, its history read as its files'", async () => {
    const dir = savedRuns();
    const files = historyFiles([dir]);
    await readStored([dir], files, loadSavedRun, cluster().url, 'runner-d');
    await query('DROP TABLE shapes');
    await query('ALTER TABLE runs DROP COLUMN git, DROP COLUMN shape');
    await query("UPDATE rtbench_meta SET value = '5' WHERE key = 'format'");
    await expectFactsAsFiles(dir, files, cluster().url, 'runner-d');
    expect(await query("SELECT value FROM rtbench_meta WHERE key = 'format'")).toEqual([{ value: STORE_FORMAT }]);
    expect(await query('SELECT count(*) AS n FROM runs WHERE shape IS NULL')).toEqual([{ n: '0' }]);
  });
});
