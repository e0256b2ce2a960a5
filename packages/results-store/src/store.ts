/**
 * What a results store does, on either engine: which run each of a machine's
 * files held when it was stored, a stored run's rows, and a newly loaded run
 * stored with the file that held it. Sizes and modification times are
 * decimal strings (nanoseconds do not fit a double).
 */
import type { FigureRow, RunFacts, RunRows, ShapeRow, StoredRunRows, WalkCursorRow } from './records.ts';
import type { StoredCheckpoint } from './walk-checkpoint.ts';

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
  /** The facts of these runs (a history's reading of a run without its results), by digest: a row per run, its shape's id among them. */
  facts(digests: readonly string[]): Promise<Map<string, RunFacts>>;
  /** Every shape the runs name (records.ts shapeOf), by its id. */
  shapes(): Promise<Map<string, Omit<ShapeRow, 'id'>>>;
  /**
   * A cursor over these runs' walk rows (a history's first walk): the runs
   * in the order given, handed to `take` a batch at a time; never every row
   * at once.
   */
  walks(ordered: readonly string[], take: (rows: readonly WalkCursorRow[]) => void): Promise<void>;
  /** Writes these runs' walk rows' neighbour p-values (neighbours.ts), by digest, in one transaction. */
  putNeighbours(cells: ReadonlyMap<string, Uint8Array>): Promise<void>;
  /** The walk kept under this key (walk-checkpoint.ts), if one is. */
  checkpoint(key: string): Promise<StoredCheckpoint | undefined>;
  /** Keeps a walk under its key, in place of the one kept before, and forgets the oldest beyond the few kept. */
  keepCheckpoint(key: string, checkpoint: StoredCheckpoint): Promise<void>;
  /** Every layout the walk rows name: its text by its id. */
  layouts(): Promise<Map<string, string>>;
  /**
   * A reading of series one at a time over these runs in this order (a
   * history's JSON): each series' figure rows with their run's place, in run
   * order, a series held at once; open until closed.
   */
  series(ordered: readonly { digest: string; suite: string }[]): Promise<SeriesFigures>;
  /** Stores a run and which file held it, in one transaction. */
  put(hostId: string, file: FileStamp, run: StoredRunRows): Promise<void>;
  close(): Promise<void>;
}

/** A figure row with its run's place in the order a series reading was opened with. */
export type SeriesRow = FigureRow & { run: number };

/** A store's series reading (RunStore.series). */
interface SeriesFigures {
  /** The figures of one suite's case on one variant, in run order: read as they are stepped (SQLite), or fetched whole (PostgreSQL). */
  of(suite: string, caseId: string, variantId: string): Promise<Iterable<SeriesRow>>;
  close(): Promise<void>;
}
