/**
 * The store's tables, one schema for SQLite and PostgreSQL. A run is kept
 * once per record (keyed by the SHA-256 of its record as the loader returned
 * it) as what a history reads of it (verdicts' history-record.ts), never
 * whole: `runs` holds a row per run (its order keys, the machine it was
 * measured on as history names it, its notes, in `facts` the rest of what a
 * history says of the run: its cases, claims, platform, its git as JSON, and
 * the id of its `shapes` row: those facts and its arms but for its id, start
 * and commit, which the runs of one suite, machine and arms share); `arms` a row
 * per variant (runtime, version, engine version, binary); `figures` a row per
 * case × variant (the headline median and interval, the first round's
 * digest, the process medians, and what an unpaired comparison with a
 * neighbouring run reads, verdicts' ArmSummary: the arm's median and rounds,
 * the count, mean and variance of its processes' mean log costs, and its
 * work — columns, so a history compares two points without parsing or
 * holding their rounds).
 * `walks` holds a row per run with every figure's comparison numbers packed
 * in one blob (the arm's median and rounds, the moments of its log costs),
 * and `layouts` what each blob position is (case, variant, work), shared by
 * the runs of one shape: a history's first walk reads one row per run, not
 * one per figure. A walk row also keeps, once a history compared them, the
 * p-values of its figures against the runs before them (`neighbours`,
 * neighbours.ts), so the next history reads them instead of computing them.
 * `walk_checkpoints` keeps a history's first walk where it stopped
 * (walk-checkpoint.ts), the newest few, each under what decides it.
 * A report or a comparison of two runs reads their files. `files` says which
 * run each file held when it was read, by the machine that holds the file
 * (`host_id`: two CI runners both keep a run under one path) and the file's
 * size and modification time, so a file is read again only when it changed.
 */

type Dialect = 'sqlite' | 'postgres';

/**
 * What a stored record means: bumped when what the loader returns changes
 * (another schema, statistics computed otherwise), so that a store made
 * before is not read as this one.
 */
export const STORE_FORMAT = '6';

/** The format before `walks` and `layouts`: its stores are migrated (their walk rows made from their figure rows), not emptied. */
export const WALKLESS_FORMAT = '3';

/** The format before walk rows kept their neighbour p-values: its stores are migrated (the column added, empty), not emptied. */
export const NEIGHBOURLESS_FORMAT = '4';

/** The format before run shapes: its stores are migrated (each run's shape made from its facts and arms), not emptied. */
const SHAPELESS_FORMAT = '5';

/** The formats a store is migrated from rather than emptied or refused. */
export const MIGRATED_FORMATS: readonly string[] = [WALKLESS_FORMAT, NEIGHBOURLESS_FORMAT, SHAPELESS_FORMAT];

/** A run's columns of format 6 (its git as JSON, its shape's id): a store of a format before gets them, empty, then filled (addShapes). */
export const SHAPE_RUN_COLUMNS = ['ALTER TABLE runs ADD COLUMN git TEXT', 'ALTER TABLE runs ADD COLUMN shape TEXT'];

/** A figure's columns after its key and series. */
const FIGURE_VALUES = ['unit', 'median', 'ci_low', 'ci_high', 'note', 'round_digest', 'process_medians',
  'arm_median', 'arm_rounds', 'log_values', 'log_units', 'log_mean', 'log_variance', 'work_digest', 'work_rounded', 'work_answers', 'without_work'] as const;
export const FIGURE_COLUMNS = ['digest', 'position', 'case_id', 'variant_id', ...FIGURE_VALUES] as const;

const BYTES: Record<Dialect, string> = { sqlite: 'BLOB', postgres: 'BYTEA' };
const REAL: Record<Dialect, string> = { sqlite: 'REAL', postgres: 'DOUBLE PRECISION' };

/**
 * The index a series is read through. SQLite's holds every column a series
 * reads, series first: one series' rows are then a few pages of it, where
 * the table keeps each run's figures together and a series read would touch
 * every page of it. It replaces the index of format 4's first stores
 * (figures_by_series, by run first). PostgreSQL's stays by run: an index
 * entry there is at most a third of a page, and the process medians are text.
 */
const SERIES_INDEX: Record<Dialect, string[]> = {
  sqlite: [
    'DROP INDEX IF EXISTS figures_by_series',
    `CREATE INDEX IF NOT EXISTS figures_of_series ON figures (case_id, variant_id, digest, position, ${FIGURE_VALUES.join(', ')})`,
  ],
  postgres: ['CREATE INDEX IF NOT EXISTS figures_by_series ON figures (digest, case_id, variant_id)'],
};

/** A walk row's neighbour p-values (neighbours.ts), null until a history's walk computed some. */
const NEIGHBOURS_COLUMN = (d: Dialect): string => `neighbours ${BYTES[d]}`;

/** A store of NEIGHBOURLESS_FORMAT: its walk rows get the column, empty. */
export const addNeighbours = (d: Dialect): string => `ALTER TABLE walks ADD COLUMN ${NEIGHBOURS_COLUMN(d)}`;

export const META_TABLE = 'CREATE TABLE IF NOT EXISTS rtbench_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)';

/** The tables after the meta table, in the order they are made (each names only those before it). */
export function storeTables(d: Dialect): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS runs (
      digest TEXT PRIMARY KEY,
      run_id TEXT NOT NULL,
      machine TEXT NOT NULL,
      suite TEXT NOT NULL,
      started_at TEXT NOT NULL,
      git_commit TEXT,
      notes TEXT NOT NULL,
      facts TEXT NOT NULL,
      git TEXT,
      shape TEXT
    )`,
    'CREATE INDEX IF NOT EXISTS runs_by_machine ON runs (machine, started_at)',
    `CREATE TABLE IF NOT EXISTS arms (
      digest TEXT NOT NULL REFERENCES runs (digest) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      variant_id TEXT NOT NULL,
      runtime TEXT NOT NULL,
      version TEXT,
      engine TEXT,
      engine_version TEXT,
      binary_sha256 TEXT,
      binary_git TEXT,
      PRIMARY KEY (digest, position)
    )`,
    `CREATE TABLE IF NOT EXISTS figures (
      digest TEXT NOT NULL REFERENCES runs (digest) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      case_id TEXT NOT NULL,
      variant_id TEXT NOT NULL,
      unit TEXT NOT NULL,
      median ${REAL[d]},
      ci_low ${REAL[d]},
      ci_high ${REAL[d]},
      note TEXT,
      round_digest TEXT,
      process_medians TEXT NOT NULL,
      arm_median ${REAL[d]},
      arm_rounds INTEGER,
      log_values INTEGER,
      log_units INTEGER,
      log_mean ${REAL[d]},
      log_variance ${REAL[d]},
      work_digest TEXT,
      work_rounded TEXT,
      work_answers TEXT,
      without_work INTEGER,
      PRIMARY KEY (digest, position)
    )`,
    // A series' points by run: the JSON's second pass reads one series at a time.
    ...SERIES_INDEX[d],
    'CREATE TABLE IF NOT EXISTS layouts (id TEXT PRIMARY KEY, series TEXT NOT NULL)',
    // What the runs of one suite, machine and set of arms share (records.ts shapeOf): a history parses it once.
    'CREATE TABLE IF NOT EXISTS shapes (id TEXT PRIMARY KEY, facts TEXT NOT NULL, arms TEXT NOT NULL)',
    `CREATE TABLE IF NOT EXISTS walks (
      digest TEXT PRIMARY KEY REFERENCES runs (digest) ON DELETE CASCADE,
      layout TEXT NOT NULL REFERENCES layouts (id),
      numbers ${BYTES[d]} NOT NULL,
      ${NEIGHBOURS_COLUMN(d)}
    )`,
    // A history's first walk where it stopped (walk-checkpoint.ts): derived from the runs alone, never stale, only unused.
    `CREATE TABLE IF NOT EXISTS walk_checkpoints (
      key TEXT PRIMARY KEY,
      runs INTEGER NOT NULL,
      prefix TEXT NOT NULL,
      state ${BYTES[d]} NOT NULL,
      kept INTEGER NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS files (
      host_id TEXT NOT NULL,
      path TEXT NOT NULL,
      size TEXT NOT NULL,
      mtime_ns TEXT NOT NULL,
      digest TEXT NOT NULL REFERENCES runs (digest),
      PRIMARY KEY (host_id, path)
    )`,
  ];
}

/** A folder's own store (SQLite): the folder's modification time after its last reading, by machine (folder-stamp.ts). */
export const FOLDERS_TABLE = 'CREATE TABLE IF NOT EXISTS folders (host_id TEXT NOT NULL, path TEXT NOT NULL, mtime_ns TEXT NOT NULL, PRIMARY KEY (host_id, path))';

/** With a folder's time, what its reading found of each file (folder-stamp.ts factsText), at that time. */
export const FOLDER_FACTS_TABLE = 'CREATE TABLE IF NOT EXISTS folder_facts (host_id TEXT NOT NULL, path TEXT NOT NULL, mtime_ns TEXT NOT NULL, facts TEXT NOT NULL, PRIMARY KEY (host_id, path))';

/** Emptying a store of another format (a folder's own, rebuilt from its files). */
export const DROP_TABLES = ['DROP TABLE IF EXISTS folders', 'DROP TABLE IF EXISTS folder_facts', 'DROP TABLE IF EXISTS walk_checkpoints', 'DROP TABLE IF EXISTS files', 'DROP TABLE IF EXISTS walks', 'DROP TABLE IF EXISTS layouts', 'DROP TABLE IF EXISTS shapes', 'DROP TABLE IF EXISTS figures', 'DROP TABLE IF EXISTS arms', 'DROP TABLE IF EXISTS runs'];

/** How many walk checkpoints a store keeps (the newest): a history asked with a few filters in turn resumes each. */
const CHECKPOINTS_KEPT = 8;

/** Each table's columns a run is written in, in the order records.ts gives its values. */
export const RUN_COLUMNS = ['digest', 'run_id', 'machine', 'suite', 'started_at', 'git_commit', 'notes', 'facts', 'git', 'shape'] as const;
export const ARM_COLUMNS = ['digest', 'position', 'variant_id', 'runtime', 'version', 'engine', 'engine_version', 'binary_sha256', 'binary_git'] as const;

/** An arm's cells a history reads (records.ts variantOf), in the order a run's shape packs them. */
export const ARM_CELLS = ['variant_id', 'runtime', 'version', 'engine_version', 'binary_sha256', 'binary_git'] as const;

/** A run's walk row (records.ts walkOf): its figures' comparison numbers, and the layout that says what each position is. */
export const WALK_COLUMNS = ['digest', 'layout', 'numbers'] as const;
export const LAYOUT_COLUMNS = ['id', 'series'] as const;
export const SHAPE_COLUMNS = ['id', 'facts', 'arms'] as const;
/** What a history's first reading reads of each run (records.ts RunFacts), and an unchanged folder keeps of each file (folder-stamp.ts): its shape holds the rest. */
export const FACT_COLUMNS = ['digest', 'notes', 'run_id', 'started_at', 'git', 'shape'] as const;

const insert = (table: string, columns: readonly string[], conflict: string): string => `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT ${conflict}`;

/** The statements both engines run, with `?` for each value (PostgreSQL's `$n` are made from them). */
export const SQL = {
  format: "SELECT value FROM rtbench_meta WHERE key = 'format'",
  setFormat: "INSERT INTO rtbench_meta (key, value) VALUES ('format', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  /** PostgreSQL's: the paths as one array, one round trip. */
  storedFiles: 'SELECT path, size, mtime_ns, digest FROM files WHERE host_id = ? AND path = ANY(?)',
  /** SQLite's: the paths as one JSON array, one statement. */
  storedFilesIn: 'SELECT f.path, f.size, f.mtime_ns, f.digest FROM json_each(?) o CROSS JOIN files f ON f.host_id = ? AND f.path = o.value',
  /**
   * SQLite's: the runs as one JSON array joined by each run's key, a
   * statement a table for many runs. CROSS JOIN keeps the array the outer
   * loop, so each run's arms come in their key's (digest, position) order
   * without a sort of every row.
   */
  runsIn: `SELECT ${RUN_COLUMNS.map((c) => `r.${c}`).join(', ')} FROM json_each(?) o CROSS JOIN runs r ON r.digest = o.value`,
  /** SQLite's facts of runs (a history's first reading): a row per run, its own cells and its shape's id. */
  factsIn: `SELECT ${FACT_COLUMNS.map((c) => `r.${c}`).join(', ')} FROM json_each(?) o CROSS JOIN runs r ON r.digest = o.value`,
  /** PostgreSQL's: the runs as one array. */
  factsOf: `SELECT ${FACT_COLUMNS.join(', ')} FROM runs WHERE digest = ANY(?)`,
  shapes: 'SELECT id, facts, arms FROM shapes',
  insertShape: insert('shapes', SHAPE_COLUMNS, '(id) DO NOTHING'),
  /** A store migrated from SHAPELESS_FORMAT or before: the runs it has no shape of yet, and a run's shape and git set. */
  shapelessRuns: 'SELECT digest FROM runs WHERE shape IS NULL',
  setShape: 'UPDATE runs SET shape = ?, git = ? WHERE digest = ?',
  armsIn: `SELECT ${ARM_COLUMNS.map((c) => `a.${c}`).join(', ')} FROM json_each(?) o CROSS JOIN arms a ON a.digest = o.value`,
  figuresIn: `SELECT ${FIGURE_COLUMNS.map((c) => `f.${c}`).join(', ')} FROM json_each(?) o JOIN figures f ON f.digest = o.value ORDER BY f.digest, f.position`,
  /**
   * SQLite's cursor of a history's first walk: each run's walk row, the runs
   * in the order given (a JSON array of digests: \`run\` is the place in it).
   * CROSS JOIN steps the array in order as the outer loop: an ORDER BY would
   * copy every row's numbers into a sorter first (sqlite-store.ts checks the order).
   */
  walksIn: 'SELECT o.key AS run, w.layout, w.numbers, w.neighbours FROM json_each(?) o CROSS JOIN walks w ON w.digest = o.value',
  /** PostgreSQL's: the runs in order as a temporary table the cursor joins (no parameter in a DECLARE), dropped at the transaction's end. */
  walksOrder: [
    'CREATE TEMPORARY TABLE rtbench_order (run INTEGER PRIMARY KEY, digest TEXT NOT NULL) ON COMMIT DROP',
    'INSERT INTO rtbench_order (run, digest) SELECT (o.n - 1)::integer, o.digest FROM unnest(?::text[]) WITH ORDINALITY AS o(digest, n)',
  ],
  walksCursor: 'DECLARE rtbench_walks NO SCROLL CURSOR FOR SELECT o.run, w.layout, w.numbers, w.neighbours FROM rtbench_order o JOIN walks w ON w.digest = o.digest ORDER BY o.run',
  layouts: 'SELECT id, series FROM layouts',
  /** A store of WALKLESS_FORMAT: the runs it has no walk row of yet. */
  walklessRuns: 'SELECT digest FROM runs WHERE digest NOT IN (SELECT digest FROM walks)',
  /**
   * SQLite's series reading: one series' figures, the runs in the order
   * given (a JSON array of a digest per run, null for a run of another
   * suite: \`run\` is the place in it), through figures_of_series. As
   * walksIn: the array is the outer loop, in order, and no sorter copies the
   * rows (a run's rows of one series come in the order they were stored).
   */
  seriesIn: `SELECT o.key AS run, ${FIGURE_COLUMNS.map((c) => `f.${c}`).join(', ')} FROM json_each(?) o CROSS JOIN figures f ON f.digest = o.value AND f.case_id = ? AND f.variant_id = ?`,
  /** PostgreSQL's: the runs in order with their suites as a temporary table, each series one query over it. */
  seriesOrder: [
    'CREATE TEMPORARY TABLE rtbench_series_order (run INTEGER PRIMARY KEY, digest TEXT NOT NULL, suite TEXT NOT NULL) ON COMMIT DROP',
    'INSERT INTO rtbench_series_order (run, digest, suite) SELECT (o.n - 1)::integer, o.digest, o.suite FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS o(digest, suite, n)',
  ],
  seriesOf: `SELECT o.run, ${FIGURE_COLUMNS.map((c) => `f.${c}`).join(', ')} FROM rtbench_series_order o JOIN figures f ON f.digest = o.digest WHERE o.suite = ? AND f.case_id = ? AND f.variant_id = ? ORDER BY o.run, f.position`,
  /** PostgreSQL's: the runs as one array each, three round trips. */
  runsOf: `SELECT ${RUN_COLUMNS.join(', ')} FROM runs WHERE digest = ANY(?)`,
  armsOf: `SELECT ${ARM_COLUMNS.join(', ')} FROM arms WHERE digest = ANY(?) ORDER BY digest, position`,
  figuresOf: `SELECT ${FIGURE_COLUMNS.join(', ')} FROM figures WHERE digest = ANY(?) ORDER BY digest, position`,
  folderTime: 'SELECT mtime_ns FROM folders WHERE host_id = ? AND path = ?',
  keepFolderTime: 'INSERT INTO folders (host_id, path, mtime_ns) VALUES (?, ?, ?) ON CONFLICT (host_id, path) DO UPDATE SET mtime_ns = excluded.mtime_ns',
  forgetFolderTime: 'DELETE FROM folders WHERE host_id = ? AND path = ?',
  folderFacts: 'SELECT facts FROM folder_facts WHERE host_id = ? AND path = ? AND mtime_ns = ?',
  keepFolderFacts: 'INSERT INTO folder_facts (host_id, path, mtime_ns, facts) VALUES (?, ?, ?, ?) ON CONFLICT (host_id, path) DO UPDATE SET mtime_ns = excluded.mtime_ns, facts = excluded.facts',
  forgetFolderFacts: 'DELETE FROM folder_facts WHERE host_id = ? AND path = ?',
  /** A folder's own store (SQLite): the files of this machine not among these paths (a JSON array), and then the runs no file holds. */
  forgetFiles: 'DELETE FROM files WHERE host_id = ? AND path NOT IN (SELECT value FROM json_each(?))',
  forgetRuns: ['DELETE FROM walks WHERE digest NOT IN (SELECT digest FROM files)', 'DELETE FROM figures WHERE digest NOT IN (SELECT digest FROM files)', 'DELETE FROM arms WHERE digest NOT IN (SELECT digest FROM files)', 'DELETE FROM runs WHERE digest NOT IN (SELECT digest FROM files)', 'DELETE FROM shapes WHERE id NOT IN (SELECT shape FROM runs WHERE shape IS NOT NULL)'],
  insertRun: insert('runs', RUN_COLUMNS, '(digest) DO NOTHING'),
  insertArm: insert('arms', ARM_COLUMNS, 'DO NOTHING'),
  insertFigure: insert('figures', FIGURE_COLUMNS, 'DO NOTHING'),
  insertLayout: insert('layouts', LAYOUT_COLUMNS, '(id) DO NOTHING'),
  insertWalk: insert('walks', WALK_COLUMNS, '(digest) DO NOTHING'),
  /** A walk row's neighbour p-values, as a history's walk completed them (neighbours.ts). */
  setNeighbours: 'UPDATE walks SET neighbours = ? WHERE digest = ?',
  /** PostgreSQL's: a batch of runs as two arrays, one statement. */
  setNeighboursOf: 'UPDATE walks w SET neighbours = u.cell FROM unnest(?::text[], ?::bytea[]) AS u(digest, cell) WHERE w.digest = u.digest',
  checkpoint: 'SELECT runs, prefix, state FROM walk_checkpoints WHERE key = ?',
  /** `kept` counts the walks kept: the newest is the highest. */
  keepCheckpoint:
    'INSERT INTO walk_checkpoints (key, runs, prefix, state, kept) VALUES (?, ?, ?, ?, (SELECT coalesce(max(kept), 0) + 1 FROM walk_checkpoints)) ' +
    'ON CONFLICT (key) DO UPDATE SET runs = excluded.runs, prefix = excluded.prefix, state = excluded.state, kept = excluded.kept',
  /** The newest CHECKPOINTS_KEPT walks are kept: each filter a history is asked with keeps its own. */
  pruneCheckpoints: `DELETE FROM walk_checkpoints WHERE key NOT IN (SELECT key FROM walk_checkpoints ORDER BY kept DESC LIMIT ${CHECKPOINTS_KEPT})`,
  upsertFile:
    'INSERT INTO files (host_id, path, size, mtime_ns, digest) VALUES (?, ?, ?, ?, ?) ON CONFLICT (host_id, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, digest = excluded.digest',
} as const;
