/**
 * @rtbench/results-store: saved runs read once and kept in a database, so a
 * command that reads many runs (history) reads each file once. By default a
 * folder's runs are indexed in one SQLite file inside it; a fleet shares one
 * on a PostgreSQL server (places.ts). The tables (schema.ts) are the same on
 * both; a run as rows (records.ts); reading files through a store
 * (read-through.ts); a history's points read by a cursor over their numbers
 * (series.ts), its first walk kept where it stopped (walk-checkpoint.ts). The run files stay what is exchanged and kept: a store is
 * rebuilt from them.
 */
export { openHistoryReading, readStored, STORE_FILE, type HistoryReading, type StoredReading } from './places.ts';
export type { SeriesFilter, StoredSeries } from './series.ts';
