/**
 * A store in one SQLite file, through better-sqlite3 (why that binding: this
 * package's package.json). Required when a store opens, not imported, so the
 * CLI bundle leaves the binding outside (it loads its native module from
 * beside its own package) and a command that opens no store never loads it.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { figuresByRun, rowsByRun, shapeCellsOfRows, valuesOf, walkOf, type ArmRow, type FigureRow, type RunFacts, type RunRow, type ShapeRow, type StoredRunRows, type WalkCursorRow } from './records.ts';
import { addNeighbours, ARM_COLUMNS, DROP_TABLES, FIGURE_COLUMNS, FOLDER_FACTS_TABLE, FOLDERS_TABLE, LAYOUT_COLUMNS, META_TABLE, MIGRATED_FORMATS, NEIGHBOURLESS_FORMAT, RUN_COLUMNS, SHAPE_COLUMNS, SHAPE_RUN_COLUMNS, SQL, STORE_FORMAT, storeTables, WALKLESS_FORMAT } from './schema.ts';
import type { FolderTimes } from './folder-stamp.ts';
import type { RunStore, SeriesRow, StoredFile } from './store.ts';
import type { StoredCheckpoint } from './walk-checkpoint.ts';

type Database = BetterSqlite3.Database;

/** How long a second CLI waits for the one writing the store before giving up on it, in ms. */
const BUSY_TIMEOUT_MS = 5000;

/** The most a kept journal holds between transactions (sqlite-store's openDatabase). */
const JOURNAL_KEPT_BYTES = 1 << 20;

/** How many walk rows a cursor hands on at once, and how many runs a migration reads at once. */
const WALKS_PER_BATCH = 256;

/**
 * A new store's page: a walk row (about 2 KB a run of 32 figures) took a
 * 4 KB page of its own, and a history reads one per run, a read from the
 * file each; 16 KB pages hold several (a store made before keeps its pages).
 */
const PAGE_BYTES = 16384;

export function openDatabase(file: string): Database {
  const Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const db = new Sqlite(file);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Only a store with no table yet takes it.
  db.pragma(`page_size = ${PAGE_BYTES}`);
  // A rollback journal kept, not deleted, after each transaction: a folder's own store writes at every history, and a
  // journal made and deleted each time would change the folder's time, which folder-stamp.ts reads as "a file added or
  // removed". It stays one file beside the store (WAL would be two, made and deleted with each connection), emptied
  // to JOURNAL_KEPT_BYTES after each transaction so a migration's journal does not stay its size.
  db.pragma('journal_mode = PERSIST');
  db.pragma(`journal_size_limit = ${JOURNAL_KEPT_BYTES}`);
  return db;
}

/**
 * Makes the tables. A store of the format before walk rows gets them made
 * from its figure rows (a migration: the same numbers, packed), one of the
 * format before neighbour p-values their empty column, one of any format
 * before run shapes its runs' shapes (from their facts and arms); a store of
 * any other format is emptied first (it is a folder's own: its files rebuild it).
 */
function prepare(db: Database): void {
  db.transaction(() => {
    db.exec(META_TABLE);
    const format = db.prepare(SQL.format).pluck().get() as string | undefined;
    if (format !== undefined && format !== STORE_FORMAT && !MIGRATED_FORMATS.includes(format)) for (const drop of DROP_TABLES) db.exec(drop);
    for (const table of storeTables('sqlite')) db.exec(table);
    db.exec(FOLDERS_TABLE);
    db.exec(FOLDER_FACTS_TABLE);
    if (format === WALKLESS_FORMAT) addWalks(db);
    if (format === NEIGHBOURLESS_FORMAT) db.exec(addNeighbours('sqlite'));
    if (format !== undefined && MIGRATED_FORMATS.includes(format)) addShapes(db);
    db.prepare(SQL.setFormat).run(STORE_FORMAT);
  }).immediate();
}

/** Each stored run's walk row and layout, made from its figure rows, a batch of runs at a time. */
function addWalks(db: Database): void {
  const figures = db.prepare<[string], FigureRow>(SQL.figuresIn);
  const insertLayout = db.prepare(SQL.insertLayout);
  const insertWalk = db.prepare(SQL.insertWalk);
  const missing = db.prepare(SQL.walklessRuns).pluck().all() as string[];
  for (let i = 0; i < missing.length; i += WALKS_PER_BATCH) {
    for (const [digest, rows] of figuresByRun(figures.iterate(JSON.stringify(missing.slice(i, i + WALKS_PER_BATCH))))) {
      const { walk, layout } = walkOf(digest, rows);
      insertLayout.run(...valuesOf(LAYOUT_COLUMNS, layout));
      insertWalk.run(walk.digest, walk.layout, walk.numbers);
    }
  }
}

/** Each stored run's shape (records.ts shapeOf) and git, made from its facts and arms, a batch of runs at a time. */
function addShapes(db: Database): void {
  for (const column of SHAPE_RUN_COLUMNS) db.exec(column);
  const runs = db.prepare<[string], RunRow>(SQL.runsIn);
  const arms = db.prepare<[string], ArmRow>(SQL.armsIn);
  const insertShape = db.prepare(SQL.insertShape);
  const setShape = db.prepare(SQL.setShape);
  const missing = db.prepare(SQL.shapelessRuns).pluck().all() as string[];
  for (let i = 0; i < missing.length; i += WALKS_PER_BATCH) {
    const batch = JSON.stringify(missing.slice(i, i + WALKS_PER_BATCH));
    for (const [digest, rows] of rowsByRun(runs.iterate(batch), arms.iterate(batch), [])) {
      const { shape, git } = shapeCellsOfRows(rows);
      insertShape.run(...valuesOf(SHAPE_COLUMNS, shape));
      setShape.run(shape.id, git, digest);
    }
  }
}

/** A SQLite store, which can also forget what its folder no longer holds, and keep its folder's time (folder-stamp.ts). */
export interface SqliteStore extends RunStore, FolderTimes {
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
  const storedFileRows = db.prepare<[string, string], { path: string; size: string; mtime_ns: string; digest: string }>(SQL.storedFilesIn);
  const runRows = db.prepare<[string], RunRow>(SQL.runsIn);
  const armRows = db.prepare<[string], ArmRow>(SQL.armsIn);
  const figureRows = db.prepare<[string], FigureRow>(SQL.figuresIn);
  const factRows = db.prepare<[string], RunFacts>(SQL.factsIn);
  const walkRows = db.prepare<[string], WalkCursorRow>(SQL.walksIn).raw(true);
  const layoutRows = db.prepare<[], { id: string; series: string }>(SQL.layouts);
  const shapeRows = db.prepare<[], ShapeRow>(SQL.shapes);
  const seriesRows = db.prepare<[string, string, string], SeriesRow>(SQL.seriesIn);
  const insertRun = db.prepare(SQL.insertRun);
  const insertArm = db.prepare(SQL.insertArm);
  const insertFigure = db.prepare(SQL.insertFigure);
  const insertLayout = db.prepare(SQL.insertLayout);
  const insertWalk = db.prepare(SQL.insertWalk);
  const insertShape = db.prepare(SQL.insertShape);
  const setNeighbours = db.prepare(SQL.setNeighbours);
  const putNeighbours = db.transaction((cells: ReadonlyMap<string, Uint8Array>) => {
    for (const [digest, cell] of cells) setNeighbours.run(cell, digest);
  });
  const checkpointRow = db.prepare<[string], { runs: number; prefix: string; state: Uint8Array }>(SQL.checkpoint);
  const upsertCheckpoint = db.prepare(SQL.keepCheckpoint);
  const pruneCheckpoints = db.prepare(SQL.pruneCheckpoints);
  const keepCheckpoint = db.transaction((key: string, { runs, prefix, state }: StoredCheckpoint) => {
    upsertCheckpoint.run(key, runs, prefix, state);
    pruneCheckpoints.run();
  });
  const upsertFile = db.prepare(SQL.upsertFile);
  const folderTime = db.prepare<[string, string], string>(SQL.folderTime).pluck();
  const keepFolderTime = db.prepare(SQL.keepFolderTime);
  const forgetFolderTime = db.prepare(SQL.forgetFolderTime);
  const folderFacts = db.prepare<[string, string, string], string>(SQL.folderFacts).pluck();
  const keepFolderFacts = db.prepare(SQL.keepFolderFacts);
  const forgetFolderFacts = db.prepare(SQL.forgetFolderFacts);
  const forgetFiles = db.prepare(SQL.forgetFiles);
  const forgetRuns = SQL.forgetRuns.map((sql) => db.prepare(sql));
  const forgetOthers = db.transaction((hostId: string, paths: readonly string[]) => {
    if (!forgetFiles.run(hostId, JSON.stringify(paths)).changes) return;
    for (const statement of forgetRuns) statement.run();
  });
  const put = db.transaction((hostId: string, path: string, size: string, mtimeNs: string, run: StoredRunRows) => {
    if (insertRun.run(...valuesOf(RUN_COLUMNS, run.run)).changes) {
      insertShape.run(...valuesOf(SHAPE_COLUMNS, run.shape));
      for (const arm of run.arms) insertArm.run(...valuesOf(ARM_COLUMNS, arm));
      for (const figure of run.figures) insertFigure.run(...valuesOf(FIGURE_COLUMNS, figure));
      const { walk, layout } = walkOf(String(run.run.digest), run.figures);
      insertLayout.run(...valuesOf(LAYOUT_COLUMNS, layout));
      insertWalk.run(walk.digest, walk.layout, walk.numbers);
    }
    upsertFile.run(hostId, path, size, mtimeNs, run.run.digest);
  });
  return {
    place: file,
    storedFiles: async (hostId, paths) => {
      const found = new Map<string, StoredFile>();
      for (const r of storedFileRows.iterate(JSON.stringify(paths), hostId)) found.set(r.path, { path: r.path, size: r.size, mtimeNs: r.mtime_ns, digest: r.digest });
      return found;
    },
    runs: async (digests) => {
      const wanted = JSON.stringify(digests);
      return rowsByRun(runRows.iterate(wanted), armRows.iterate(wanted), figureRows.iterate(wanted));
    },
    facts: async (digests) => new Map(factRows.all(JSON.stringify(digests)).map((r) => [String(r.digest), r])),
    walks: async (ordered, take) => {
      // SQLite steps the statement row by row: the batch is only what is handed on at once.
      let batch: WalkCursorRow[] = [];
      let next = 0;
      for (const row of walkRows.iterate(JSON.stringify(ordered))) {
        // The statement has no ORDER BY (schema.ts walksIn): a plan that stepped the runs out of order would be a wrong history, not a slow one.
        const run = Number(row[0]);
        if (run < next) throw new Error(`${file}: the walk rows came out of the order asked for (run ${run} after ${next - 1})`);
        next = run + 1;
        batch.push(row);
        if (batch.length === WALKS_PER_BATCH) {
          take(batch);
          batch = [];
        }
      }
      if (batch.length) take(batch);
    },
    putNeighbours: async (cells) => putNeighbours(cells),
    checkpoint: async (key) => checkpointRow.get(key),
    keepCheckpoint: async (key, checkpoint) => keepCheckpoint(key, checkpoint),
    layouts: async () => new Map(layoutRows.all().map((r) => [r.id, r.series])),
    shapes: async () => new Map(shapeRows.all().map(({ id, ...shape }) => [String(id), shape])),
    series: async (ordered) => {
      // One JSON array of a digest per run for each suite, its other suites' runs null.
      const bySuite = new Map<string, string>();
      const runsOf = (suite: string): string => {
        let json = bySuite.get(suite);
        if (json === undefined) bySuite.set(suite, (json = JSON.stringify(ordered.map((r) => (r.suite === suite ? r.digest : null)))));
        return json;
      };
      // Stepped as the series' points are made: its rows are never all held.
      return { of: async (suite, caseId, variantId) => seriesRows.iterate(runsOf(suite), caseId, variantId), close: async () => undefined };
    },
    put: async (hostId, { path, size, mtimeNs }, run) => put(hostId, path, size, mtimeNs, run),
    forgetOthers: (hostId, paths) => forgetOthers(hostId, paths),
    folderTime: (hostId, folder) => folderTime.get(hostId, folder),
    keepFolderTime: (hostId, folder, mtimeNs) => void (mtimeNs === undefined ? forgetFolderTime.run(hostId, folder) : keepFolderTime.run(hostId, folder, mtimeNs)),
    folderFacts: (hostId, folder, mtimeNs) => folderFacts.get(hostId, folder, mtimeNs),
    keepFolderFacts: (hostId, folder, mtimeNs, facts) => void (facts === undefined ? forgetFolderFacts.run(hostId, folder) : keepFolderFacts.run(hostId, folder, mtimeNs, facts)),
    close: async () => void db.close(),
  };
}
