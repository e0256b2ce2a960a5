/**
 * A folder's store of format 3 (no walk rows) is migrated to the store's format
 * without reading a file again: the walk rows made from its figure rows, a
 * history's first walk over them the walk of a store built from the files.
 * Synthetic runs in a SQLite store; no process started.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadSavedRun } from '@rtbench/saved-runs';
import { STORE_FILE } from '../src/index.ts';
import { STORE_FORMAT } from '../src/schema.ts';
import { openDatabase } from '../src/sqlite-store.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { dropShapes, walkedFolder } from './walked-folder.ts';

const cases = [
  { id: 'parse', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];

/** 12 runs with a step in the middle, each in its own file. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-format-3-'));
  const factors = [1, 1, 1, 1, 1.3, 1.3, 1.3, 1.3, 1, 1, 1, 1];
  const day = Date.UTC(2026, 0, 1);
  factors.forEach((factor, i) => {
    const [run] = historyRuns([{ factor, startedAt: new Date(day + i * 3_600_000).toISOString() }], { cases, rounds: 6, seed: 17 + i * 31, suite: 'synthetic' });
    writeRun(join(dir, `run-${String(i).padStart(2, '0')}.json`), { ...run!, id: `format-3-${i}` });
  });
  return dir;
}

/** A store as format 3 wrote it: format 4's runs, arms, figures and files tables, without the walk rows, their layouts, the series index and run shapes. */
function asFormat3(dir: string): void {
  const db = openDatabase(join(dir, STORE_FILE));
  db.exec('DROP TABLE walks; DROP TABLE layouts; DROP INDEX figures_of_series');
  dropShapes(db);
  db.prepare("UPDATE rtbench_meta SET value = '3' WHERE key = 'format'").run();
  db.close();
}

it('a store of format 3 is migrated to the current format without reading a file again, and walks as a store built from the files', async () => {
  const dir = folder();
  const built = await walkedFolder(dir, loadSavedRun);
  // The walk met both cases' series and windowed the newest runs: there is something to compare.
  expect([built.series.length, built.shown.length > 0]).toEqual([2, true]);
  asFormat3(dir);
  const migrated = await walkedFolder(dir, () => expect.fail('a migrated store answers every file'));
  expect(migrated).toEqual(built);
  const db = openDatabase(join(dir, STORE_FILE));
  const [format, walks, runs] = ["SELECT value FROM rtbench_meta WHERE key = 'format'", 'SELECT count(*) FROM walks', 'SELECT count(*) FROM runs'].map((sql) => db.prepare(sql).pluck().get());
  db.close();
  expect([format, walks, runs]).toEqual([STORE_FORMAT, 12, 12]);
});
