/**
 * A folder's own store answers the files it holds without a stat of each
 * while the folder's time is the one it kept (src/folder-stamp.ts): a file
 * added, removed or replaced by rename changes the folder, and the next
 * history sees it; the store's own writes (its kept journal) leave the folder
 * as it was. A folder is made to look settled (older than a clock step) by
 * setting its time back. Synthetic runs; no process started.
 */
import { mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFiles, loadSavedRun } from '@rtbench/saved-runs';
import type { SavedRun } from '@rtbench/verdicts';
import { openHistoryReading, STORE_FILE } from '../src/index.ts';
import { openDatabase } from '../src/sqlite-store.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';

const cases = [{ id: 'parse', ns: 1_000 }];

function folderOfRuns(count: number): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-folder-stamp-'));
  const steps = Array.from({ length: count }, () => ({ factor: 1 }));
  const files = historyRuns(steps, { cases, rounds: 6, seed: 3, suite: 'synthetic' }).map((run, i) => writeRun(join(dir, `run-${i}.json`), run));
  return { dir, files };
}

/** A run no file of folderOfRuns holds, by its id. */
function otherRun(id: string): SavedRun['run'] {
  return { ...historyRuns([{ factor: 2 }], { cases, rounds: 6, seed: 9, suite: 'synthetic' })[0]!, id };
}

/** Sets the folder's time a minute back: what it looks like when nothing changed in it lately. */
function settle(dir: string): bigint {
  const past = new Date(Date.now() - 60_000);
  utimesSync(dir, past, past);
  return statSync(dir, { bigint: true }).mtimeNs;
}

/** A history's reading of the folder: the ids of its runs (a file refused: its refusal), and the files the loader was asked for. */
async function history(dir: string): Promise<{ ids: string[]; asked: string[] }> {
  const asked: string[] = [];
  const files = historyFiles([dir]);
  const reading = await openHistoryReading([dir], files, (file) => (asked.push(file), loadSavedRun(file)));
  const idOf = (file: string): string => {
    try {
      return reading.load(file).record.id;
    } catch {
      return 'refused';
    }
  };
  try {
    return { ids: files.map(idOf), asked };
  } finally {
    await reading.close();
  }
}

/** A folder read once and then again while settled, so its store kept its time. */
async function keptFolder(count: number): Promise<{ dir: string; files: string[] }> {
  const folder = folderOfRuns(count);
  await history(folder.dir);
  settle(folder.dir);
  await history(folder.dir);
  return folder;
}

describe("a folder's time kept in its own store", () => {
  it("is left as it was by a history's reading: the store's journal stays beside it", async () => {
    const { dir } = folderOfRuns(2);
    await history(dir);
    const kept = settle(dir);
    await history(dir);
    await history(dir);
    expect(statSync(dir, { bigint: true }).mtimeNs).toBe(kept);
  });

  it('answers the files it holds without reading them, even one written again in place, until the folder changes', async () => {
    const { dir, files } = await keptFolder(2);
    // Written in place (no rename): the folder's time stays, and the store answers for the file as it was.
    writeRun(files[0]!, otherRun('rewritten'));
    const unchanged = await history(dir);
    expect(unchanged).toEqual({ ids: ['history-1', 'history-2'], asked: [] });
    // A file added changes the folder: every file is stat-ed again, the one written in place read with the new one.
    const added = writeRun(join(dir, 'run-9.json'), otherRun('added'));
    const changed = await history(dir);
    expect(changed).toEqual({ ids: ['rewritten', 'history-2', 'added'], asked: [files[0], added] });
  });

  it('sees a file added, a file removed and a file replaced by rename at the next history', async () => {
    const { dir, files } = await keptFolder(3);
    const added = writeRun(join(dir, 'run-3.json'), otherRun('added'));
    expect(await history(dir)).toEqual({ ids: ['history-1', 'history-2', 'history-3', 'added'], asked: [added] });

    settle(dir);
    await history(dir);
    rmSync(files[1]!);
    expect(await history(dir)).toEqual({ ids: ['history-1', 'history-3', 'added'], asked: [] });

    settle(dir);
    await history(dir);
    // As rtbench saves a run: written under another name, then renamed over the file (its time set apart from the old one's).
    const scratch = join(dir, 'run-0.json.partial');
    writeRun(scratch, otherRun('replaced'));
    const { atime, mtime } = statSync(files[0]!);
    utimesSync(scratch, atime, new Date(mtime.getTime() + 5_000));
    renameSync(scratch, files[0]!);
    expect(await history(dir)).toEqual({ ids: ['replaced', 'history-3', 'added'], asked: [files[0]] });
  });

  it("keeps what its reading found of each file: the unchanged folder's runs answered from it, not from their rows", async () => {
    const { dir } = await keptFolder(2);
    writeFileSync(join(dir, 'notes.json'), '{"hello": "world"}\n');
    settle(dir);
    await history(dir);
    // The runs' rows changed under the store (as no reading changes them): the folder's kept facts answer instead.
    const db = openDatabase(join(dir, STORE_FILE));
    db.exec("UPDATE runs SET run_id = 'from the rows'");
    db.close();
    const notes = join(dir, 'notes.json');
    expect(await history(dir)).toEqual({ ids: ['refused', 'history-1', 'history-2'], asked: [notes] });
    // The folder changes: its files' runs are read from their rows again.
    const added = writeRun(join(dir, 'run-9.json'), otherRun('added'));
    expect(await history(dir)).toEqual({ ids: ['refused', 'from the rows', 'from the rows', 'added'], asked: [notes, added] });
  });

  it('is not kept for a folder changed within a clock step of the reading: its files are stat-ed each time', async () => {
    const { dir, files } = folderOfRuns(2);
    await history(dir);
    // The folder was just made: its time is too new to be kept, so a file written in place is seen.
    writeFileSync(files[1]!, `${JSON.stringify(otherRun('rewritten'))}\n`);
    const { atime, mtime } = statSync(files[1]!);
    utimesSync(files[1]!, atime, new Date(mtime.getTime() + 5_000));
    expect(await history(dir)).toEqual({ ids: ['history-1', 'rewritten'], asked: [files[1]] });
  });
});
