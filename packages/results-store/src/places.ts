/**
 * Which store a command reads its run files through. By default each folder
 * named keeps its own, a SQLite file inside it (STORE_FILE), and a file named
 * by itself is loaded as it is; `--store` names one store for every file: a
 * PostgreSQL server by its URL (`postgres://…`), or a SQLite file by its path.
 * A folder whose own store cannot be opened (a read-only checkout, a damaged
 * file) is read file by file, as without a store, and that is said in a line.
 */
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import { checkFolder, type FolderCheck } from './folder-stamp.ts';
import { openPostgresStore, isPostgresUrl } from './postgres-store.ts';
import { historyRead } from '@rtbench/verdicts';
import { loaderOf, readThrough, type HistoryReader, type RunLoading } from './read-through.ts';
import { storedSeries, type StoredSeries } from './series.ts';
import { openSqliteStore, type SqliteStore } from './sqlite-store.ts';
import type { RunStore } from './store.ts';

/** A folder's own store, inside it. */
export const STORE_FILE = '.rtbench-store.sqlite';

export interface StoredReading {
  /** Answers each file the paths name as a history reads it, from its store where it has one. */
  load: HistoryReader;
  /** What was said about the stores (one that could not be opened), one line each. */
  lines: string[];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The SQLite store `--store` names; one that cannot be opened is the user's to fix, in one line. */
async function namedSqliteStore(place: string): Promise<RunStore> {
  try {
    return openSqliteStore(resolve(place));
  } catch (error) {
    throw new UsageError(`--store ${place}: cannot open it as a SQLite store (${(error as Error).message})`);
  }
}

/** The machine a file is on, as a shared store keeps them apart: its host name. */
const thisHost = (): string => hostname();

/**
 * A history's reading of its files: each file as a history reads it, and,
 * where one store answers them all, that store kept open for the history's
 * cursor (series.ts), each file then answered without its results.
 */
export interface HistoryReading extends StoredReading {
  /** The store's cursor and whole reads; absent when the files were read through several stores, or none. */
  series?: StoredSeries;
  close(): Promise<void>;
}

/**
 * Opens the files for a history (`resolved`: their absolute paths, where the
 * caller made them): through `place` (a `--store` value), or,
 * when every file is inside one folder named, through that folder's own
 * store, each file answered by its facts and the store left open for the
 * history's cursor; otherwise as readStored reads them.
 */
export async function openHistoryReading(paths: readonly string[], files: readonly string[], loader: RunLoading, place?: string, hostId: string = thisHost(), resolved?: readonly string[]): Promise<HistoryReading> {
  const folders = [...new Set(paths.filter(isFolder).map((p) => resolve(p)))];
  // Each file's absolute path, made once (or by the caller, `resolved`): ten thousand files' paths resolved again at each step were a tenth of a history.
  const absolute = resolved ?? files.map((f) => resolve(f));
  const one = folders.length === 1 && absolute.every((f) => dirname(f) === folders[0]) ? folders[0]! : undefined;
  if (place === undefined && one === undefined) return { ...(await readStored(paths, files, loader, place, hostId)), close: async () => undefined };
  let store: RunStore;
  try {
    store = place !== undefined ? await (isPostgresUrl(place) ? openPostgresStore(place) : namedSqliteStore(place)) : openSqliteStore(join(one!, STORE_FILE));
  } catch (error) {
    if (place !== undefined) throw error;
    return { ...(await readStored(paths, files, loader, place, hostId)), close: async () => undefined };
  }
  try {
    const folder = place === undefined ? checkFolder(store as SqliteStore, hostId, one!) : undefined;
    const through = await readThrough(files, store, hostId, loader, { figures: false, resolved: absolute, ...(folder ? { folder } : {}) });
    // A folder unchanged since its store's last reading has no file that reading did not see: nothing to forget.
    if (folder && !folder.unchanged) (store as SqliteStore).forgetOthers(hostId, absolute);
    return { load: through.read, lines: [], series: storedSeries(store, through.digestOf), close: () => store.close() };
  } catch (error) {
    await store.close();
    // A folder's own store that cannot be used (a read-only folder): read as readStored reads it, which says so.
    if (place !== undefined) throw error;
    return { ...(await readStored(paths, files, loader, place, hostId)), close: async () => undefined };
  }
}

async function throughOne(files: readonly string[], open: () => Promise<RunStore>, loader: RunLoading, hostId: string, folder?: (store: RunStore) => FolderCheck, after?: (store: RunStore) => void): Promise<HistoryReader> {
  const store = await open();
  try {
    const { read } = await readThrough(files, store, hostId, loader, folder ? { folder: folder(store) } : {});
    after?.(store);
    return read;
  } finally {
    await store.close();
  }
}

/**
 * A folder's own store: its files read through it, then the runs of files
 * no longer in the folder forgotten (deleting a run file trims its store).
 */
async function throughFolderStore(folder: string, inside: readonly string[], loader: RunLoading, hostId: string): Promise<HistoryReader> {
  const store = openSqliteStore(join(folder, STORE_FILE));
  return throughOne(inside, async () => store, loader, hostId, () => checkFolder(store, hostId, folder), () => store.forgetOthers(hostId, inside.map((f) => resolve(f))));
}

/**
 * Reads the run files `files` (those the paths name, as named) through their
 * stores: `place` (a `--store` value) for all of them, or each folder's own.
 */
export async function readStored(paths: readonly string[], files: readonly string[], loader: RunLoading, place?: string, hostId: string = thisHost()): Promise<StoredReading> {
  if (place !== undefined) {
    const open = isPostgresUrl(place) ? () => openPostgresStore(place) : () => namedSqliteStore(place);
    return { load: await throughOne(files, open, loader, hostId), lines: [] };
  }
  const lines: string[] = [];
  const byFolder = new Map<string, HistoryReader>();
  // Each file's folder, resolved once: every folder's store is asked for its own files, then each file of its folder's.
  const folderOf = new Map(files.map((f) => [f, dirname(resolve(f))]));
  for (const folder of new Set(paths.filter(isFolder).map((p) => resolve(p)))) {
    const inside = files.filter((f) => folderOf.get(f) === folder);
    try {
      byFolder.set(folder, await throughFolderStore(folder, inside, loader, hostId));
    } catch (error) {
      lines.push(`the store of ${folder} (${STORE_FILE}) could not be used (${(error as Error).message}): its run files are read one by one`);
    }
  }
  // A file no folder's store answers (named by itself, or in a folder whose store could not be used) is loaded as it is.
  const loose = files.some((f) => !byFolder.has(folderOf.get(f)!)) ? await loaderOf(loader)() : undefined;
  return { load: (file) => byFolder.get(folderOf.get(file) ?? dirname(resolve(file)))?.(file) ?? historyRead(loose!(file)), lines };
}
