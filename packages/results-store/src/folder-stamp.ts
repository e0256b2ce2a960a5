/**
 * Whether a folder's run files can be answered from its own store without
 * a `stat` of each. A folder's modification time changes whenever a name in
 * it is added, removed or renamed — and rtbench saves a run by writing a
 * temporary file and renaming it over its name — so while the folder's time
 * is the one the store kept after its last reading, each file the store
 * holds under its name is the file it read, and only the names it does not
 * hold are stat-ed and read. The rule for a file changed in place (opened
 * and written again under its name, no rename): it is read again once its
 * folder changes (a run saved in it, a file removed); until then the store
 * answers for it as it was. The store's own writes change no name in the
 * folder: its journal is kept between transactions (sqlite-store.ts).
 *
 * With its time a folder keeps what its reading found of each file (the
 * facts of the run it held, and the file's size and time then): an
 * unchanged folder's history reads that one row instead of a file row and a
 * run row a file, and a changed one's (a run saved since: a CI gate's
 * history) answers each file whose stat still matches from it, asking the
 * store only for the others.
 *
 * A folder time is kept only when it is older than the reading by more than
 * the file system's clock step (RACY_MS), so that a name added in the same
 * step as the reading, which leaves the folder's time as it was, is never
 * missed: a folder changed that recently is stat-ed file by file. Its
 * files' facts are kept all the same: a file is matched by its own stat, as
 * the store's files are.
 */
import { statSync } from 'node:fs';
import { valuesOf, type Cell, type RunFacts } from './records.ts';
import { FACT_COLUMNS } from './schema.ts';
import type { FileStamp } from './store.ts';

/** Longer than a file system's timestamp step (a kernel tick, or 2 s on FAT). */
const RACY_MS = 3_000;

/**
 * Where a store keeps folder times (a folder's own store, sqlite-store.ts),
 * and with a folder's time what its reading found of each file: the facts of
 * the run each held, so the next history of the unchanged folder reads one
 * row for them all.
 */
export interface FolderTimes {
  folderTime(hostId: string, folder: string): string | undefined;
  /** Keeps the folder's time, or forgets it (undefined). */
  keepFolderTime(hostId: string, folder: string, mtimeNs: string | undefined): void;
  /** What the folder's last reading kept of its files (factsText), with the folder's time then. */
  folderFacts(hostId: string, folder: string): { mtimeNs: string; facts: string } | undefined;
  /** Keeps it with the folder's time, or forgets it (undefined). */
  keepFolderFacts(hostId: string, folder: string, mtimeNs: string, facts: string | undefined): void;
}

/** What a reading found of a file: its size and time, and the facts of the run it held. */
export type KeptFile = Omit<FileStamp, 'path'> & { facts: RunFacts };

/** Each file's, by its absolute path. */
type FolderFiles = ReadonlyMap<string, KeptFile>;

/** What the folder's last reading kept: `current` when the folder is unchanged since, so each file is still as kept without a stat. */
interface KeptFolder {
  files: FolderFiles;
  current: boolean;
}

/** A folder's check for one reading: whether it is unchanged, what its last reading kept, and, once its files were read, its time kept. */
export interface FolderCheck {
  unchanged: boolean;
  /** What the folder's last reading kept of each file (undefined: nothing kept). */
  kept(): KeptFolder | undefined;
  /**
   * Called once every file was read: keeps the folder's time if it is settled, and `files` as found (absent: none
   * kept; 'as kept': what kept gave, still current).
   */
  settle(files?: (() => FolderFiles) | 'as kept'): void;
}

/** The columns of a kept file's row after its path: its stamp, then its run's facts as the runs table names them. */
const KEPT_COLUMNS = ['size', 'mtime_ns', ...FACT_COLUMNS] as const;

/** The files' text as a store keeps it: the columns, then a row a file, its path first. */
function filesText(files: FolderFiles): string {
  return JSON.stringify({ columns: KEPT_COLUMNS, rows: [...files].map(([path, f]) => [path, f.size, f.mtimeNs, ...valuesOf(FACT_COLUMNS, f.facts)]) });
}

/** filesText read back; text that is not what it writes, or of other columns, is nothing kept. */
function filesOfText(text: string): FolderFiles | undefined {
  try {
    const { columns, rows } = JSON.parse(text) as { columns: unknown; rows: [string, string, string, ...Cell[]][] };
    if (JSON.stringify(columns) !== JSON.stringify(KEPT_COLUMNS)) return undefined;
    return new Map(rows.map(([path, size, mtimeNs, ...cells]) => [path, { size, mtimeNs, facts: Object.fromEntries(FACT_COLUMNS.map((c, i) => [c, cells[i]])) as RunFacts }]));
  } catch {
    return undefined;
  }
}

/** `folder`: absolute. A folder that cannot be stat-ed is never unchanged. */
export function checkFolder(times: FolderTimes, hostId: string, folder: string): FolderCheck {
  const started = Date.now();
  let stat;
  try {
    stat = statSync(folder, { bigint: true });
  } catch {
    return { unchanged: false, kept: () => undefined, settle: () => times.keepFolderTime(hostId, folder, undefined) };
  }
  const mtimeNs = String(stat.mtimeNs);
  const settled = Number(stat.mtimeMs) < started - RACY_MS;
  const unchanged = times.folderTime(hostId, folder) === mtimeNs;
  return {
    unchanged,
    kept: () => {
      const row = times.folderFacts(hostId, folder);
      const files = row && filesOfText(row.facts);
      return files && { files, current: unchanged && row.mtimeNs === mtimeNs };
    },
    settle: (files) => {
      times.keepFolderTime(hostId, folder, settled ? mtimeNs : undefined);
      if (files !== 'as kept') times.keepFolderFacts(hostId, folder, mtimeNs, files ? filesText(files()) : undefined);
    },
  };
}
