/**
 * A history's first walk kept where it stopped (walk-checkpoint.ts): the
 * next walk over the same runs, or over them and runs after them, goes on
 * from it without reading their walk rows and decides as a walk from the
 * first run would; a walk whose runs do not begin with the kept ones, or
 * with another filter or window, walks from the first run; a checkpoint
 * that cannot be read, or was kept in the other byte order, is walked past. Synthetic runs in a SQLite store; no
 * process started.
 */
import { rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORE_FILE } from '../src/index.ts';
import { openDatabase, openSqliteStore } from '../src/sqlite-store.ts';
import { unpackCheckpoint } from '../src/walk-checkpoint.ts';
import { hourRunFolder, walkedFolder, writeHourRun, type WalkedFolder } from './walked-folder.ts';

/** Runs one statement on the folder's store; its first cell when it returns one. */
function onStore(dir: string, sql: string): unknown {
  const db = openDatabase(join(dir, STORE_FILE));
  try {
    const statement = db.prepare(sql);
    return statement.reader ? statement.pluck().get() : void statement.run();
  } finally {
    db.close();
  }
}

/** Every walk row made unreadable: a walk that reads one throws (it does not fit its layout). */
const spoilWalkRows = (dir: string): unknown => onStore(dir, "UPDATE walks SET numbers = x'00'");

/** The walk of the folder's files through a store built afresh from them. */
async function walkedAfresh(dir: string): Promise<WalkedFolder> {
  rmSync(join(dir, STORE_FILE));
  return walkedFolder(dir);
}

/**
 * A checkpoint as a host of the other byte order would have kept it: its header says so (the numbers are left as
 * they are; the header is what a reader checks first).
 */
function inOtherOrder(state: Uint8Array): Uint8Array {
  const bytes = Buffer.from(state);
  const headBytes = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.subarray(4, 4 + headBytes).toString()) as { littleEndian: boolean };
  const head = Buffer.from(JSON.stringify({ ...header, littleEndian: !header.littleEndian }));
  const numbersAt = (n: number): number => Math.ceil((4 + n) / 8) * 8;
  const numbers = bytes.subarray(numbersAt(headBytes));
  const out = Buffer.alloc(numbersAt(head.byteLength) + numbers.byteLength);
  out.writeUInt32LE(head.byteLength, 0);
  head.copy(out, 4);
  numbers.copy(out, numbersAt(head.byteLength));
  return out;
}

const picked = { caseFilter: (id: string) => id === 'parse', pickedCases: new Set(['parse']) };

describe('a walk kept where it stopped', () => {
  it('answers the same runs again without reading their walk rows', async () => {
    const dir = hourRunFolder('checkpoint-same');
    const first = await walkedFolder(dir);
    spoilWalkRows(dir);
    expect(await walkedFolder(dir)).toEqual(first);
    await expect(walkedAfresh(dir)).resolves.toEqual(first);
  });

  it('goes on over runs appended after it, reading only theirs, and decides as a walk from the first run', async () => {
    const dir = hourRunFolder('checkpoint-appended');
    await walkedFolder(dir);
    spoilWalkRows(dir);
    // Two runs back at the first speed after the newest: a step between the window's runs and the kept ones' last.
    writeHourRun(dir, 'run-12.json', 12, 1.3, 401);
    writeHourRun(dir, 'run-13.json', 13, 1.3, 433);
    const resumed = await walkedFolder(dir);
    expect([resumed.m, onStore(dir, 'SELECT runs FROM walk_checkpoints')]).toEqual([26, 14]);
    expect(resumed).toEqual(await walkedAfresh(dir));
  });

  it('is walked past by runs that do not begin with its runs: one removed, one landed between', async () => {
    const dir = hourRunFolder('checkpoint-other');
    await walkedFolder(dir);
    unlinkSync(join(dir, 'run-03.json'));
    const removed = await walkedFolder(dir);
    expect(onStore(dir, 'SELECT runs FROM walk_checkpoints')).toBe(11);
    writeHourRun(dir, 'run-05b.json', 5.5, 1.3, 991);
    const landed = await walkedFolder(dir);
    expect(onStore(dir, 'SELECT runs FROM walk_checkpoints')).toBe(12);
    expect([removed.m, landed.m]).toEqual([20, 22]);
    expect(landed).toEqual(await walkedAfresh(dir));
  });

  it('is kept apart by what decides a walk: the cases and variants picked, the window', async () => {
    const dir = hourRunFolder('checkpoint-keys');
    const all = await walkedFolder(dir);
    const parse = await walkedFolder(dir, undefined, picked);
    const everyRun = await walkedFolder(dir, undefined, {}, null);
    // A filter that does not name what it picks is walked, not kept.
    await walkedFolder(dir, undefined, { caseFilter: picked.caseFilter });
    expect(onStore(dir, 'SELECT count(*) FROM walk_checkpoints')).toBe(3);
    expect([all.m, parse.m, everyRun.shown]).toEqual([22, 11, []]);
    spoilWalkRows(dir);
    expect([await walkedFolder(dir), await walkedFolder(dir, undefined, picked), await walkedFolder(dir, undefined, {}, null)]).toEqual([all, parse, everyRun]);
  });

  it('one that cannot be read is walked past, and the walk keeps its own in its place', async () => {
    const dir = hourRunFolder('checkpoint-damaged');
    const first = await walkedFolder(dir);
    onStore(dir, "UPDATE walk_checkpoints SET state = x'0000'");
    expect(await walkedFolder(dir)).toEqual(first);
    expect(onStore(dir, 'SELECT length(state) FROM walk_checkpoints')).toBeGreaterThan(100);
  });

  it('one kept on a host of the other byte order is refused, walked past, and kept again in this host\'s', async () => {
    const dir = hourRunFolder('checkpoint-byte-order');
    const first = await walkedFolder(dir);
    const kept = onStore(dir, 'SELECT state FROM walk_checkpoints') as Uint8Array;
    const other = inOtherOrder(kept);
    expect(() => unpackCheckpoint(other)).toThrow(/other byte order/);
    const db = openDatabase(join(dir, STORE_FILE));
    db.prepare('UPDATE walk_checkpoints SET state = ?').run(other);
    db.close();
    // Read as if it were of this order, its numbers would be another walk's: the walk from the first run is the answer.
    expect(await walkedFolder(dir)).toEqual(first);
    const again = onStore(dir, 'SELECT state FROM walk_checkpoints') as Uint8Array;
    expect(Buffer.from(again).equals(Buffer.from(kept))).toBe(true);
  });

  it('a store keeps the newest 8, the one kept again counted newest', async () => {
    const dir = hourRunFolder('checkpoint-pruned');
    const store = openSqliteStore(join(dir, STORE_FILE));
    try {
      for (const key of ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k0', 'k8', 'k9']) await store.keepCheckpoint(key, { runs: 1, prefix: key, state: new Uint8Array([1]) });
      expect([await store.checkpoint('k1'), await store.checkpoint('k2')]).toEqual([undefined, undefined]);
      expect(await store.checkpoint('k0')).toEqual({ runs: 1, prefix: 'k0', state: Buffer.from([1]) });
    } finally {
      await store.close();
    }
    expect(onStore(dir, "SELECT group_concat(key, ' ') FROM (SELECT key FROM walk_checkpoints ORDER BY key)")).toBe('k0 k3 k4 k5 k6 k7 k8 k9');
  });
});
