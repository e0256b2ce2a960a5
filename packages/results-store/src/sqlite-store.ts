/**
 * A store in one SQLite file, through better-sqlite3 (why that binding: this
 * package's package.json). Required when a store opens, not imported, so the
 * CLI bundle leaves the binding outside (it loads its native module from
 * beside its own package) and a command that opens no store never loads it.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { rowsByRun, valuesOf, type ArmRow, type FigureRow, type PointRow, type RunRow, type RunRows } from './records.ts';
import { ARM_COLUMNS, DROP_TABLES, FIGURE_COLUMNS, META_TABLE, RUN_COLUMNS, SQL, STORE_FORMAT, storeTables } from './schema.ts';
import type { RunStore, StoredFile } from './store.ts';

type Database = BetterSqlite3.Database;

/** How long a second CLI waits for the one writing the store before giving up on it, in ms. */
const BUSY_TIMEOUT_MS = 5000;

/** How many points a cursor hands on at once. */
const POINTS_PER_BATCH = 4096;

export function openDatabase(file: string): Database {
  const Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const db = new Sqlite(file);
  // The default rollback journal keeps the store one file between commands (WAL would leave two more beside it).
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

/** Makes the tables; a store of another format is emptied first (it is a folder's own: its files rebuild it). */
function prepare(db: Database): void {
  db.transaction(() => {
    db.exec(META_TABLE);
    const format = db.prepare(SQL.format).pluck().get() as string | undefined;
    if (format !== undefined && format !== STORE_FORMAT) for (const drop of DROP_TABLES) db.exec(drop);
    for (const table of storeTables('sqlite')) db.exec(table);
    db.prepare(SQL.setFormat).run(STORE_FORMAT);
  }).immediate();
}

/** A SQLite store, which can also forget what its folder no longer holds. */
export interface SqliteStore extends RunStore {
  /** Forgets this machine's files other than `paths`, and the runs no file then holds (a folder's own store, after its files were read). */
  forgetOthers(hostId: string, paths: readonly string[]): void;
}

/** Opens (or makes) the store in `file`; throws when it cannot be opened or written (a read-only folder). */
export function openSqliteStore(file: string): SqliteStore {
  const db = openDatabase(file);
  try {
    prepare(db);
  } catch (error) {
    db.close();
    throw error;
  }
  const storedFile = db.prepare<[string, string], { path: string; size: string; mtime_ns: string; digest: string }>(SQL.storedFile);
  const runRows = db.prepare<[string], RunRow>(SQL.runsIn);
  const armRows = db.prepare<[string], ArmRow>(SQL.armsIn);
  const figureRows = db.prepare<[string], FigureRow>(SQL.figuresIn);
  const pointRows = db.prepare<[string], PointRow>(SQL.pointsIn).raw(true);
  const insertRun = db.prepare(SQL.insertRun);
  const insertArm = db.prepare(SQL.insertArm);
  const insertFigure = db.prepare(SQL.insertFigure);
  const upsertFile = db.prepare(SQL.upsertFile);
  const forgetFiles = db.prepare(SQL.forgetFiles);
  const forgetRuns = SQL.forgetRuns.map((sql) => db.prepare(sql));
  const forgetOthers = db.transaction((hostId: string, paths: readonly string[]) => {
    if (!forgetFiles.run(hostId, JSON.stringify(paths)).changes) return;
    for (const statement of forgetRuns) statement.run();
  });
  const put = db.transaction((hostId: string, path: string, size: string, mtimeNs: string, run: RunRows) => {
    if (insertRun.run(...valuesOf(RUN_COLUMNS, run.run)).changes) {
      for (const arm of run.arms) insertArm.run(...valuesOf(ARM_COLUMNS, arm));
      for (const figure of run.figures) insertFigure.run(...valuesOf(FIGURE_COLUMNS, figure));
    }
    upsertFile.run(hostId, path, size, mtimeNs, run.run.digest);
  });
  return {
    place: file,
    storedFiles: async (hostId, paths) => {
      const found = new Map<string, StoredFile>();
      for (const path of paths) {
        const r = storedFile.get(hostId, path);
        if (r) found.set(path, { path, size: r.size, mtimeNs: r.mtime_ns, digest: r.digest });
      }
      return found;
    },
    runs: async (digests, figures = true) => {
      const wanted = JSON.stringify(digests);
      return rowsByRun(runRows.iterate(wanted), armRows.iterate(wanted), figures ? figureRows.iterate(wanted) : []);
    },
    points: async (ordered, take) => {
      // SQLite steps the statement row by row: the batch is only what is handed on at once.
      let batch: PointRow[] = [];
      for (const row of pointRows.iterate(JSON.stringify(ordered))) {
        batch.push(row);
        if (batch.length === POINTS_PER_BATCH) {
          take(batch);
          batch = [];
        }
      }
      if (batch.length) take(batch);
    },
    put: async (hostId, { path, size, mtimeNs }, run) => put(hostId, path, size, mtimeNs, run),
    forgetOthers: (hostId, paths) => forgetOthers(hostId, paths),
    close: async () => void db.close(),
  };
}
