/**
 * A walk row's neighbour p-values (neighbours.ts): a history's first walk
 * keeps each comparison's p-value by the pair of runs, the next reads them
 * instead of computing them and decides alike; a run that lands between two
 * kept ones gives the walk of a store built afresh; a store of format 4 (no
 * neighbour column) is migrated and walks as one built from the files.
 * Synthetic runs in a SQLite store; no process started.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORE_FILE } from '../src/index.ts';
import { RunNeighbours } from '../src/neighbours.ts';
import { STORE_FORMAT } from '../src/schema.ts';
import { openDatabase } from '../src/sqlite-store.ts';
import { cases, dropShapes, hourRunFolder, walkedFolder, writeHourRun } from './walked-folder.ts';

/** The store's answer to one statement, a cell. */
function cellOf(dir: string, sql: string): unknown {
  const db = openDatabase(join(dir, STORE_FILE));
  try {
    return db.prepare(sql).pluck().get();
  } finally {
    db.close();
  }
}

describe('neighbour p-values in the walk rows', () => {
  it('are kept by the first walk and read by the next, which decides alike', async () => {
    const dir = hourRunFolder('neighbours');
    const first = await walkedFolder(dir);
    // Both series compared at each of the 11 runs after the first: 22 comparisons, every run after the first kept them.
    expect([first.m, first.shown.length > 0, cellOf(dir, 'SELECT count(neighbours) FROM walks')]).toEqual([22, true, 11]);
    expect(await walkedFolder(dir)).toEqual(first);
  });

  it('are what the next walk reads: kept as "no p-value", the walk counts no comparison', async () => {
    const dir = hourRunFolder('neighbours');
    await walkedFolder(dir);
    const db = openDatabase(join(dir, STORE_FILE));
    // The walk kept would answer for these runs without their walk rows (walk-checkpoint.ts).
    db.exec('DELETE FROM walk_checkpoints');
    const digests = db.prepare('SELECT digest FROM files ORDER BY path').pluck().all() as string[];
    const set = db.prepare('UPDATE walks SET neighbours = ? WHERE digest = ?');
    digests.forEach((digest, i) => {
      if (i === 0) return;
      const none = new RunNeighbours(null, cases.length);
      for (let at = 0; at < cases.length; at++) none.keep(digests[i - 1]!, at, null);
      set.run(none.bytes(), digest);
    });
    db.close();
    expect((await walkedFolder(dir)).m).toBe(0);
  });

  it('a run landing between two kept ones: the walk of a store built afresh from the files', async () => {
    const dir = hourRunFolder('neighbours');
    await walkedFolder(dir);
    writeHourRun(dir, 'run-05b.json', 5.5, 1.3, 991);
    const incremental = await walkedFolder(dir);
    rmSync(join(dir, STORE_FILE));
    const afresh = await walkedFolder(dir);
    expect(incremental.m).toBe(24);
    expect(incremental).toEqual(afresh);
  });

  it('a store of format 4 is migrated (the column added) and walks as a store built from the files', async () => {
    const dir = hourRunFolder('neighbours');
    const built = await walkedFolder(dir);
    const db = openDatabase(join(dir, STORE_FILE));
    db.exec('ALTER TABLE walks DROP COLUMN neighbours');
    dropShapes(db);
    db.prepare("UPDATE rtbench_meta SET value = '4' WHERE key = 'format'").run();
    db.close();
    expect(await walkedFolder(dir)).toEqual(built);
    expect([cellOf(dir, "SELECT value FROM rtbench_meta WHERE key = 'format'"), cellOf(dir, 'SELECT count(neighbours) FROM walks')]).toEqual([STORE_FORMAT, 11]);
  });
});

describe('a run’s neighbours cell', () => {
  it('reads back what was kept: a p-value, NaN, none, and unknown where nothing was kept', () => {
    const from = 'ab'.repeat(32);
    const other = 'cd'.repeat(32);
    const kept = new RunNeighbours(null, 3);
    expect(kept.dirty).toBe(false);
    kept.keep(from, 0, 0.25);
    kept.keep(from, 1, null);
    kept.keep(other, 2, NaN);
    const read = new RunNeighbours(kept.bytes(), 3);
    expect([read.known(from, 0), read.known(from, 1), read.known(from, 2), read.known(other, 2), read.known(other, 0), read.known('ef'.repeat(32), 0)]).toEqual([0.25, null, undefined, NaN, undefined, undefined]);
    expect(() => new RunNeighbours(new Uint8Array(10), 3)).toThrow(/do not fit its 3 figures/);
  });
});
