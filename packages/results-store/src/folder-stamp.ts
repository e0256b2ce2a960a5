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
 * A folder time is kept only when it is older than the reading by more than
 * the file system's clock step (RACY_MS), so that a name added in the same
 * step as the reading, which leaves the folder's time as it was, is never
 * missed: a folder changed that recently is stat-ed file by file.
 */
import { statSync } from 'node:fs';

/** Longer than a file system's timestamp step (a kernel tick, or 2 s on FAT). */
const RACY_MS = 3_000;

/** Where a store keeps folder times (a folder's own store, sqlite-store.ts). */
export interface FolderTimes {
  folderTime(hostId: string, folder: string): string | undefined;
  /** Keeps the folder's time, or forgets it (undefined). */
  keepFolderTime(hostId: string, folder: string, mtimeNs: string | undefined): void;
}

/** A folder's check for one reading: whether it is unchanged, and, once its files were read and stored, its time kept. */
export interface FolderCheck {
  unchanged: boolean;
  /** Called once every new file was stored. */
  settle(): void;
}

/** `folder`: absolute. A folder that cannot be stat-ed is never unchanged. */
export function checkFolder(times: FolderTimes, hostId: string, folder: string): FolderCheck {
  const started = Date.now();
  let stat;
  try {
    stat = statSync(folder, { bigint: true });
  } catch {
    return { unchanged: false, settle: () => times.keepFolderTime(hostId, folder, undefined) };
  }
  const mtimeNs = String(stat.mtimeNs);
  const settled = Number(stat.mtimeMs) < started - RACY_MS;
  return {
    unchanged: times.folderTime(hostId, folder) === mtimeNs,
    settle: () => times.keepFolderTime(hostId, folder, settled ? mtimeNs : undefined),
  };
}
