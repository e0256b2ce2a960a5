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
 * facts of the run it held): an unchanged folder's history reads that one
 * row instead of a file row and a run row a file.
 *
 * A folder time is kept only when it is older than the reading by more than
 * the file system's clock step (RACY_MS), so that a name added in the same
 * step as the reading, which leaves the folder's time as it was, is never
 * missed: a folder changed that recently is stat-ed file by file.
 */
import { statSync } from 'node:fs';
import { valuesOf, type Cell, type RunFacts } from './records.ts';
import { FACT_COLUMNS } from './schema.ts';

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
  /** What a reading kept of the folder's files at its time `mtimeNs` (factsText), if it kept anything then. */
  folderFacts(hostId: string, folder: string, mtimeNs: string): string | undefined;
  /** Keeps it with the folder's time, or forgets it (undefined). */
  keepFolderFacts(hostId: string, folder: string, mtimeNs: string, facts: string | undefined): void;
}

/** Each file's run facts by its absolute path. */
type FolderFacts = ReadonlyMap<string, RunFacts>;

/** A folder's check for one reading: whether it is unchanged, what its last reading kept, and, once its files were read, its time kept. */
export interface FolderCheck {
  unchanged: boolean;
  /** Of an unchanged folder: what its last reading kept of each file (undefined: nothing kept). */
  keptFacts(): FolderFacts | undefined;
  /**
   * Called once every file was read: keeps the folder's time if it is settled, with `facts` of its files (absent:
   * none kept; 'as kept': what keptFacts gave, still true).
   */
  settle(facts?: (() => FolderFacts) | 'as kept'): void;
}

/** The facts' text as a store keeps it: the columns (a run's facts, as the runs table names them), then a row a file, its path first. */
function factsText(facts: FolderFacts): string {
  return JSON.stringify({ columns: FACT_COLUMNS, rows: [...facts].map(([path, f]) => [path, ...valuesOf(FACT_COLUMNS, f)]) });
}

/** factsText read back; text that is not what it writes, or of other columns, is no facts. */
function factsOfText(text: string | undefined): FolderFacts | undefined {
  if (text === undefined) return undefined;
  try {
    const { columns, rows } = JSON.parse(text) as { columns: unknown; rows: [string, ...Cell[]][] };
    if (JSON.stringify(columns) !== JSON.stringify(FACT_COLUMNS)) return undefined;
    return new Map(rows.map(([path, ...cells]) => [path, Object.fromEntries(FACT_COLUMNS.map((c, i) => [c, cells[i]])) as RunFacts]));
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
    return { unchanged: false, keptFacts: () => undefined, settle: () => times.keepFolderTime(hostId, folder, undefined) };
  }
  const mtimeNs = String(stat.mtimeNs);
  const settled = Number(stat.mtimeMs) < started - RACY_MS;
  const unchanged = times.folderTime(hostId, folder) === mtimeNs;
  return {
    unchanged,
    keptFacts: () => (unchanged ? factsOfText(times.folderFacts(hostId, folder, mtimeNs)) : undefined),
    settle: (facts) => {
      times.keepFolderTime(hostId, folder, settled ? mtimeNs : undefined);
      if (facts !== 'as kept') times.keepFolderFacts(hostId, folder, mtimeNs, settled && facts ? factsText(facts()) : undefined);
    },
  };
}
