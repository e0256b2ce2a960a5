/**
 * The store's tables, one schema for SQLite and PostgreSQL. A run is kept
 * once per record (keyed by the SHA-256 of its record as the loader returned
 * it): `record` is that record, compressed, what a history reads back; `arms`
 * and `figures` hold what a query across machines asks without opening a
 * record (a run's runtimes with their versions and engine versions, each
 * case × variant's headline median and interval); `runs.machine` is the
 * machine the run was measured on, as history names it. `files` says which
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
export const STORE_FORMAT = '1';

const BYTES: Record<Dialect, string> = { sqlite: 'BLOB', postgres: 'BYTEA' };
const REAL: Record<Dialect, string> = { sqlite: 'REAL', postgres: 'DOUBLE PRECISION' };

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
      record ${BYTES[d]} NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS runs_by_machine ON runs (machine, started_at)',
    `CREATE TABLE IF NOT EXISTS arms (
      digest TEXT NOT NULL REFERENCES runs (digest) ON DELETE CASCADE,
      variant_id TEXT NOT NULL,
      runtime TEXT NOT NULL,
      version TEXT,
      engine TEXT,
      engine_version TEXT,
      binary_sha256 TEXT,
      PRIMARY KEY (digest, variant_id)
    )`,
    `CREATE TABLE IF NOT EXISTS figures (
      digest TEXT NOT NULL REFERENCES runs (digest) ON DELETE CASCADE,
      case_id TEXT NOT NULL,
      variant_id TEXT NOT NULL,
      unit TEXT NOT NULL,
      median ${REAL[d]},
      ci_low ${REAL[d]},
      ci_high ${REAL[d]},
      PRIMARY KEY (digest, case_id, variant_id)
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

/** Emptying a store of another format (a folder's own, rebuilt from its files). */
export const DROP_TABLES = ['DROP TABLE IF EXISTS files', 'DROP TABLE IF EXISTS figures', 'DROP TABLE IF EXISTS arms', 'DROP TABLE IF EXISTS runs'];

/** The statements both engines run, with `?` for each value (PostgreSQL's `$n` are made from them). */
export const SQL = {
  format: "SELECT value FROM rtbench_meta WHERE key = 'format'",
  setFormat: "INSERT INTO rtbench_meta (key, value) VALUES ('format', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  storedFile: 'SELECT f.path, f.size, f.mtime_ns, r.notes, r.record FROM files f JOIN runs r ON r.digest = f.digest WHERE f.host_id = ? AND f.path = ?',
  /** PostgreSQL's: the paths as one array, one round trip. */
  storedFiles: 'SELECT f.path, f.size, f.mtime_ns, r.notes, r.record FROM files f JOIN runs r ON r.digest = f.digest WHERE f.host_id = ? AND f.path = ANY(?)',
  insertRun: 'INSERT INTO runs (digest, run_id, machine, suite, started_at, git_commit, notes, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING',
  insertArm: 'INSERT INTO arms (digest, variant_id, runtime, version, engine, engine_version, binary_sha256) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  insertFigure: 'INSERT INTO figures (digest, case_id, variant_id, unit, median, ci_low, ci_high) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  upsertFile:
    'INSERT INTO files (host_id, path, size, mtime_ns, digest) VALUES (?, ?, ?, ?, ?) ON CONFLICT (host_id, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, digest = excluded.digest',
} as const;
