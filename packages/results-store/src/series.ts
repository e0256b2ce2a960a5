/**
 * A history's points read from a store without holding its runs: one
 * ordered query over the figures' numeric columns (a cursor: SQLite's
 * statement stepped row by row, a PostgreSQL server-side cursor) feeds
 * verdicts' ChangeWalk, which keeps per series only the previous point and
 * per comparison a p-value; then only the runs the window reads (its runs
 * and their series' previous points) are read whole. The history's other
 * runs are their facts alone (read-through.ts without figures): order keys,
 * machine, cases, arms.
 */
import { ChangeWalk, type HistoryEntry, type PrewalkedHistory, type RatioOptions, type WalkedSeries } from '@rtbench/verdicts';
import { historyReadOf, internedStrings, pointArms, pointOf } from './records.ts';
import type { RunStore } from './store.ts';

/** Which points a history reads: its --filter and --runtime. */
export interface SeriesFilter {
  caseFilter?: (caseId: string) => boolean;
  variants?: readonly string[];
}

/** A store's runs as a history reads them, open until closed. */
export interface StoredSeries {
  /** The first walk over the runs of `ordered` (entries this store answered), in that order. */
  walk(ordered: readonly HistoryEntry[], filter: SeriesFilter, options: RatioOptions, last?: number): Promise<PrewalkedHistory>;
  /** `ordered` with the runs at the places `read` names (every one when absent) read whole, with their results. */
  complete(ordered: readonly HistoryEntry[], read?: ReadonlySet<number>): Promise<HistoryEntry[]>;
}

/** How many runs are read whole at once. */
const RUNS_PER_READ = 256;

export function storedSeries(store: RunStore, digestOf: ReadonlyMap<string, string>): StoredSeries {
  const digest = (entry: HistoryEntry): string => {
    const known = entry.file === undefined ? undefined : digestOf.get(entry.file);
    if (known === undefined) throw new Error(`${entry.file ?? entry.record.id} is not a run of ${store.place}`);
    return known;
  };
  return {
    async walk(ordered, filter, options, last) {
      const walk = new ChangeWalk(ordered.length, options, last);
      const series: WalkedSeries[] = [];
      const index = new Map<string, number>();
      const variants = filter.variants ? new Set(filter.variants) : undefined;
      const cases = new Map<string, boolean>();
      const wantedCase = (caseId: string): boolean => {
        let wanted = cases.get(caseId);
        if (wanted === undefined) cases.set(caseId, (wanted = !filter.caseFilter || filter.caseFilter(caseId)));
        return wanted;
      };
      const arms = pointArms();
      await store.points(ordered.map(digest), (rows) => {
        for (const row of rows) {
          const { run, caseId, variantId, figure } = pointOf(row);
          if ((variants && !variants.has(variantId)) || !wantedCase(caseId)) continue;
          const suite = ordered[run]!.record.suite;
          const key = `${suite}\u0000${caseId}\u0000${variantId}`;
          let s = index.get(key);
          if (s === undefined) {
            s = series.length;
            index.set(key, s);
            series.push({ suite, caseId, variantId, firstRun: run });
          }
          // A point with a figure has an arm unless its rounds' costs gave none; without a figure it is never compared.
          walk.add(s, run, figure ? arms(row) : undefined);
        }
      });
      return { walked: walk.finish(), series };
    },
    async complete(ordered, read) {
      const places = read ? [...read].sort((a, b) => a - b) : ordered.map((_, i) => i);
      const out = [...ordered];
      const strings = internedStrings();
      for (let i = 0; i < places.length; i += RUNS_PER_READ) {
        const batch = places.slice(i, i + RUNS_PER_READ);
        const rows = await store.runs(batch.map((at) => digest(ordered[at]!)));
        for (const at of batch) {
          const entry = ordered[at]!;
          const whole = rows.get(digest(entry));
          if (!whole) throw new Error(`${entry.file ?? entry.record.id}: its run is no longer in ${store.place}`);
          out[at] = { ...entry, record: historyReadOf(entry.file!, whole, strings).record };
        }
      }
      return out;
    },
  };
}
