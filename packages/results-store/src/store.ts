/**
 * What a results store does, on either engine: the runs of a machine's files
 * as they were stored, and a newly loaded run stored with the file that held
 * it. Sizes and modification times are decimal strings (nanoseconds do not
 * fit a double).
 */
import type { StoredRun } from './records.ts';

export interface FileStamp {
  /** The file's absolute path on the machine that holds it. */
  path: string;
  size: string;
  mtimeNs: string;
}

/** A file's row as stored, with its run's notes and compressed record. */
export interface StoredFile extends FileStamp {
  notes: string;
  record: Uint8Array;
}

export interface RunStore {
  /** Where it is, for the lines that name it (a PostgreSQL URL without its password). */
  readonly place: string;
  /** Those of these files of this machine that the store holds a run for, by path. */
  storedFiles(hostId: string, paths: readonly string[]): Promise<Map<string, StoredFile>>;
  /** Stores a run and which file held it, in one transaction. */
  put(hostId: string, file: FileStamp, run: StoredRun): Promise<void>;
  close(): Promise<void>;
}
