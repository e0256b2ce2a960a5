/**
 * The store on a PostgreSQL server, for a fleet: several CI runners or
 * benchmark machines write one history. The same tables as a folder's SQLite
 * file (schema.ts); each machine's files are its own (`files.host_id`), and a
 * run measured on one machine and read on another is one row (its record's
 * digest). Through `pg` (node-postgres: pure JavaScript, no native build),
 * required when a store opens, as the SQLite binding is.
 */
import { createRequire } from 'node:module';
import type { Client as PgClient, ClientConfig } from 'pg';
import { UsageError } from '@rtbench/core/usage-error';
import { figuresByRun, rowsByRun, shapeCellsOfRows, valuesOf, walkOf, type ArmRow, type FigureRow, type RunFacts, type RunRow, type RunRows, type ShapeRow, type WalkCursorRow } from './records.ts';
import { addNeighbours, ARM_COLUMNS, FIGURE_COLUMNS, LAYOUT_COLUMNS, META_TABLE, MIGRATED_FORMATS, NEIGHBOURLESS_FORMAT, RUN_COLUMNS, SHAPE_COLUMNS, SHAPE_RUN_COLUMNS, SQL, STORE_FORMAT, storeTables, WALKLESS_FORMAT } from './schema.ts';
import type { RunStore, SeriesRow, StoredFile } from './store.ts';

/** Whether a `--store` value names a PostgreSQL server. */
export const isPostgresUrl = (place: string): boolean => /^postgres(ql)?:\/\//i.test(place);

/** PostgreSQL's placeholders for the shared statements' `?`. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The URL without its password, for the lines that name the store. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** How many walk rows the cursor fetches at once, and how many runs a migration reads at once. */
const WALKS_PER_BATCH = 256;

/** One lock for making the tables, so that two machines starting together do not both make them. */
const SCHEMA_LOCK = 0x72746265;

async function prepare(client: PgClient, place: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await client.query(META_TABLE);
    const format = (await client.query<{ value: string }>(SQL.format)).rows[0]?.value;
    // Another rtbench's store is shared: its runs' files are on other machines, so it is refused, never emptied.
    if (format !== undefined && format !== STORE_FORMAT && !MIGRATED_FORMATS.includes(format)) throw new UsageError(`the store at ${place} holds runs of store format ${format}; this rtbench reads format ${STORE_FORMAT}`);
    for (const table of storeTables('postgres')) await client.query(table);
    // The format before walk rows: each run's walk row made from its figure rows (the same numbers, packed).
    if (format === WALKLESS_FORMAT) await addWalks(client);
    // The format before neighbour p-values: the column added, empty (the next histories fill it).
    if (format === NEIGHBOURLESS_FORMAT) await client.query(addNeighbours('postgres'));
    // Any format before run shapes: each run's shape made from its facts and arms.
    if (format !== undefined && MIGRATED_FORMATS.includes(format)) await addShapes(client);
    await client.query(numbered(SQL.setFormat), [STORE_FORMAT]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** A run's walk row and layout, from its figure rows. */
async function insertWalk(client: PgClient, digest: string, figures: readonly FigureRow[]): Promise<void> {
  const { walk, layout } = walkOf(digest, figures);
  await client.query(numbered(SQL.insertLayout), valuesOf(LAYOUT_COLUMNS, layout));
  await client.query(numbered(SQL.insertWalk), [walk.digest, walk.layout, Buffer.from(walk.numbers)]);
}

async function addWalks(client: PgClient): Promise<void> {
  const missing = (await client.query<{ digest: string }>(SQL.walklessRuns)).rows.map((r) => r.digest);
  for (let i = 0; i < missing.length; i += WALKS_PER_BATCH) {
    const figures = (await client.query<FigureRow>(numbered(SQL.figuresOf), [missing.slice(i, i + WALKS_PER_BATCH)])).rows;
    for (const [digest, rows] of figuresByRun(figures)) await insertWalk(client, digest, rows);
  }
}

async function addShapes(client: PgClient): Promise<void> {
  for (const column of SHAPE_RUN_COLUMNS) await client.query(column);
  const missing = (await client.query<{ digest: string }>(SQL.shapelessRuns)).rows.map((r) => r.digest);
  for (let i = 0; i < missing.length; i += WALKS_PER_BATCH) {
    for (const [digest, rows] of await rowsOf(client, missing.slice(i, i + WALKS_PER_BATCH), false)) {
      const { shape, git } = shapeCellsOfRows(rows);
      await client.query(numbered(SQL.insertShape), valuesOf(SHAPE_COLUMNS, shape));
      await client.query(numbered(SQL.setShape), [shape.id, git, digest]);
    }
  }
}

/** The rows of these runs, by digest; with `figures` false, their run and arm rows only. */
async function rowsOf(client: PgClient, digests: readonly string[], figures: boolean): Promise<Map<string, RunRows>> {
  const wanted = [digests];
  return rowsByRun(
    (await client.query<RunRow>(numbered(SQL.runsOf), wanted)).rows,
    (await client.query<ArmRow>(numbered(SQL.armsOf), wanted)).rows,
    figures ? (await client.query<FigureRow>(numbered(SQL.figuresOf), wanted)).rows : [],
  );
}

export async function openPostgresStore(url: string): Promise<RunStore> {
  const { Client } = createRequire(import.meta.url)('pg') as { Client: new (config: ClientConfig) => PgClient };
  const place = shownUrl(url);
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new UsageError(`--store ${place}: cannot connect (${(error as Error).message})`);
  }
  try {
    await prepare(client, place);
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    place,
    async storedFiles(hostId, paths) {
      const { rows } = await client.query<{ path: string; size: string; mtime_ns: string; digest: string }>(numbered(SQL.storedFiles), [hostId, paths]);
      return new Map(rows.map((r): [string, StoredFile] => [r.path, { path: r.path, size: r.size, mtimeNs: r.mtime_ns, digest: r.digest }]));
    },
    runs: (digests) => rowsOf(client, digests, true),
    async facts(digests) {
      return new Map((await client.query<RunFacts>(numbered(SQL.factsOf), [digests])).rows.map((r) => [String(r.digest), r]));
    },
    async shapes() {
      return new Map((await client.query<ShapeRow>(SQL.shapes)).rows.map(({ id, ...shape }) => [String(id), shape]));
    },
    async walks(ordered, take) {
      // A server-side cursor in one transaction: the server holds the result, the client a batch of it.
      await client.query('BEGIN');
      try {
        await client.query(SQL.walksOrder[0]);
        await client.query(numbered(SQL.walksOrder[1]), [ordered]);
        await client.query(SQL.walksCursor);
        for (;;) {
          const rows = (await client.query({ text: `FETCH ${WALKS_PER_BATCH} FROM rtbench_walks`, rowMode: 'array' })).rows as unknown as WalkCursorRow[];
          if (!rows.length) break;
          take(rows);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    async putNeighbours(cells) {
      const all = [...cells];
      // One statement a batch of runs (each UPDATE alone would be a round trip a run), one transaction for all.
      await client.query('BEGIN');
      try {
        for (let i = 0; i < all.length; i += WALKS_PER_BATCH) {
          const batch = all.slice(i, i + WALKS_PER_BATCH);
          await client.query(numbered(SQL.setNeighboursOf), [batch.map(([digest]) => digest), batch.map(([, cell]) => Buffer.from(cell))]);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    async checkpoint(key) {
      const row = (await client.query<{ runs: number; prefix: string; state: Buffer }>(numbered(SQL.checkpoint), [key])).rows[0];
      return row && { runs: Number(row.runs), prefix: row.prefix, state: row.state };
    },
    async keepCheckpoint(key, { runs, prefix, state }) {
      await client.query('BEGIN');
      try {
        await client.query(numbered(SQL.keepCheckpoint), [key, runs, prefix, Buffer.from(state.buffer, state.byteOffset, state.byteLength)]);
        await client.query(SQL.pruneCheckpoints);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    async layouts() {
      return new Map((await client.query<{ id: string; series: string }>(SQL.layouts)).rows.map((r) => [r.id, r.series]));
    },
    async series(ordered) {
      // One transaction holds the runs' order as a temporary table; each series is one query over it.
      await client.query('BEGIN');
      try {
        await client.query(SQL.seriesOrder[0]);
        await client.query(numbered(SQL.seriesOrder[1]), [ordered.map((r) => r.digest), ordered.map((r) => r.suite)]);
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      return {
        of: async (suite, caseId, variantId) => (await client.query<SeriesRow>(numbered(SQL.seriesOf), [suite, caseId, variantId])).rows,
        close: async () => void (await client.query('COMMIT')),
      };
    },
    async put(hostId, { path, size, mtimeNs }, run) {
      await client.query('BEGIN');
      try {
        if ((await client.query(numbered(SQL.insertRun), valuesOf(RUN_COLUMNS, run.run))).rowCount) {
          await client.query(numbered(SQL.insertShape), valuesOf(SHAPE_COLUMNS, run.shape));
          for (const arm of run.arms) await client.query(numbered(SQL.insertArm), valuesOf(ARM_COLUMNS, arm));
          for (const figure of run.figures) await client.query(numbered(SQL.insertFigure), valuesOf(FIGURE_COLUMNS, figure));
          await insertWalk(client, String(run.run.digest), run.figures);
        }
        await client.query(numbered(SQL.upsertFile), [hostId, path, size, mtimeNs, run.run.digest]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    close: () => client.end(),
  };
}
