/**
 * What a results store does, on either engine: which run each of a machine's
 * files held when it was stored, a stored run's rows, and a newly loaded run
 * stored with the file that held it. Sizes and modification times are
 * decimal strings (nanoseconds do not fit a double).
 */
import type { RunRows } from './records.ts';

export interface FileStamp {
  /** The file's absolute path on the machine that holds it. */
  path: string;
  size: string;
  mtimeNs: string;
}

/** A file's row as stored: its stamp then, and the digest of the run it held. */
export interface StoredFile extends FileStamp {
  digest: string;
}

export interface RunStore {
  /** Where it is, for the lines that name it (a PostgreSQL URL without its password). */
  readonly place: string;
  /** Those of these files of this machine that the store holds a run for, by path. */
  storedFiles(hostId: string, paths: readonly string[]): Promise<Map<string, StoredFile>>;
  /** The rows of these runs, by digest. */
  runs(digests: readonly string[]): Promise<Map<string, RunRows>>;
  /** Stores a run and which file held it, in one transaction. */
  put(hostId: string, file: FileStamp, run: RunRows): Promise<void>;
  close(): Promise<void>;
}
