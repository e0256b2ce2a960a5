/**
 * A history's points read from a store without holding its runs: one
 * ordered query over the runs' walk rows (a row per run, its figures'
 * comparison numbers packed; a cursor: SQLite's statement stepped row by
 * row, a PostgreSQL server-side cursor) feeds verdicts' ChangeWalk, which keeps per series only the previous point and
 * per comparison a p-value — read from the walk row where an earlier history
 * kept it (neighbours.ts), else computed and kept for the next; then only the runs the window reads (its runs
 * and their series' previous points) are read whole. The history's other
 * runs are their facts alone (read-through.ts without figures): order keys,
 * machine, cases, arms.
 */
import { ChangeWalk, type ArmSummary, type HistoryEntry, type HistoryResult, type PrewalkedHistory, type RatioOptions, type WalkedSeries } from '@rtbench/verdicts';
import { RunNeighbours } from './neighbours.ts';
import { historyReadOf, internedStrings, layoutOf, resultOf, walkHasArm, walkLength, WalkRowArm } from './records.ts';
import type { RunStore } from './store.ts';
import { checkpointKey, packCheckpoint, prefixDigest, unpackCheckpoint, type WalkCheckpoint } from './walk-checkpoint.ts';

/** Which points a history reads: its --filter and --runtime. */
export interface SeriesFilter {
  caseFilter?: (caseId: string) => boolean;
  /** The case ids caseFilter picks, where the caller knows them: a walk with a caseFilter is kept (walk-checkpoint.ts) only then. */
  pickedCases?: ReadonlySet<string>;
  variants?: readonly string[];
}

/** A store's runs as a history reads them, open until closed. */
export interface StoredSeries {
  /** The first walk over the runs of `ordered` (entries this store answered), in that order. */
  walk(ordered: readonly HistoryEntry[], filter: SeriesFilter, options: RatioOptions, last?: number): Promise<PrewalkedHistory>;
  /** Each series' results in run order, one series at a time (a history's JSON written as it is read); open until closed. */
  results(ordered: readonly HistoryEntry[]): Promise<SeriesResults>;
  /** `ordered` with the runs at the places `read` names (every one when absent) read whole, with their results. */
  complete(ordered: readonly HistoryEntry[], read?: ReadonlySet<number>): Promise<HistoryEntry[]>;
}

/** A series' results by run (StoredSeries.results). */
interface SeriesResults {
  /** Read as it is iterated, once: a series' results are not all held at once. */
  of(series: Pick<WalkedSeries, 'suite' | 'caseId' | 'variantId'>): Promise<Iterable<{ run: number; result: HistoryResult }>>;
  close(): Promise<void>;
}

/**
 * The walk kept under `key` when these runs, in this order, begin with the
 * runs it walked; a checkpoint that cannot be read is walked past as if none
 * were kept (the walk keeps its own in its place).
 */
async function resumable(store: RunStore, key: string, digests: readonly string[]): Promise<WalkCheckpoint | undefined> {
  const kept = await store.checkpoint(key);
  if (!kept || kept.runs > digests.length || kept.prefix !== prefixDigest(digests, kept.runs)) return undefined;
  try {
    return unpackCheckpoint(kept.state);
  } catch {
    return undefined;
  }
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
      const digests = ordered.map(digest);
      const keptUnder = checkpointKey({
        caseFiltered: filter.caseFilter !== undefined,
        ...(filter.pickedCases ? { pickedCases: filter.pickedCases } : {}),
        ...(filter.variants ? { variants: filter.variants } : {}),
        confidence: options.confidence,
        windowed: last !== undefined,
      });
      const kept = keptUnder === undefined ? undefined : await resumable(store, keptUnder, digests);
      const walk = kept ? ChangeWalk.resumed(kept.snapshot, ordered.length, options, last) : new ChangeWalk(ordered.length, options, last);
      // The runs before `start` were walked by the checkpoint's walk: their series are its series, in its order.
      const start = kept?.snapshot.runs ?? 0;
      const series: WalkedSeries[] = kept?.series ?? [];
      if (start === digests.length) return { walked: walk.finish(), series };
      const index = new Map<string, number>(series.map((s, i) => [`${s.suite}\u0000${s.caseId}\u0000${s.variantId}`, i]));
      const variants = filter.variants ? new Set(filter.variants) : undefined;
      const cases = new Map<string, boolean>();
      const wantedCase = (caseId: string): boolean => {
        let wanted = cases.get(caseId);
        if (wanted === undefined) cases.set(caseId, (wanted = !filter.caseFilter || filter.caseFilter(caseId)));
        return wanted;
      };
      const strings = internedStrings();
      const layouts = await store.layouts();
      // Per suite and layout: each position's series (−1: not read) and its work, made when the layout is first met.
      const shapes = new Map<string, { series: Int32Array; works: ArmSummary['work'][] }>();
      const shapeOf = (run: number, layoutId: string) => {
        const suite = ordered[run]!.record.suite;
        const key = `${suite}\u0000${layoutId}`;
        let shape = shapes.get(key);
        if (shape) return shape;
        const text = layouts.get(layoutId);
        if (text === undefined) throw new Error(`${store.place}: a run names layout ${layoutId}, which it does not hold`);
        const positions = layoutOf(text, strings);
        shape = { series: new Int32Array(positions.length), works: positions.map((p) => p.work) };
        positions.forEach(({ caseId, variantId }, at) => {
          if ((variants && !variants.has(variantId)) || !wantedCase(caseId)) return void (shape!.series[at] = -1);
          const seriesKey = `${suite}\u0000${caseId}\u0000${variantId}`;
          let s = index.get(seriesKey);
          if (s === undefined) {
            s = series.length;
            index.set(seriesKey, s);
            series.push({ suite, caseId, variantId, firstRun: run });
          }
          shape!.series[at] = s;
        });
        shapes.set(key, shape);
        return shape;
      };
      // The runs whose walk rows gained p-values this walk computed: written back once it is over.
      const completed = new Map<string, Uint8Array>();
      await store.walks(start ? digests.slice(start) : digests, (rows) => {
        for (const [runCell, layoutCell, bytes, neighbourCell] of rows) {
          const run = start + Number(runCell);
          const shape = shapeOf(run, String(layoutCell));
          const numbers = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          if (walkLength(bytes) !== shape.series.length) throw new Error(`${store.place}: a run's walk row does not fit its layout`);
          const neighbours = new RunNeighbours(neighbourCell, shape.series.length);
          for (let at = 0; at < shape.series.length; at++) {
            const s = shape.series[at]!;
            if (s < 0) continue;
            // A point with a figure has an arm unless its rounds' costs gave none; without a figure it is never compared.
            const arm = walkHasArm(numbers, at) ? new WalkRowArm(numbers, at, shape.works[at]!) : undefined;
            const from = arm ? walk.lastRun(s) : -1;
            const computed = walk.add(s, run, arm, from >= 0 ? neighbours.known(digests[from]!, at) : undefined);
            if (computed !== undefined) neighbours.keep(digests[from]!, at, computed);
          }
          if (neighbours.dirty) completed.set(digests[run]!, neighbours.bytes());
        }
      });
      if (completed.size) await store.putNeighbours(completed);
      if (keptUnder !== undefined) {
        const state = packCheckpoint({ snapshot: walk.snapshot(), series });
        await store.keepCheckpoint(keptUnder, { runs: digests.length, prefix: prefixDigest(digests, digests.length), state });
      }
      return { walked: walk.finish(), series };
    },
    async results(ordered) {
      const reading = await store.series(ordered.map((entry) => ({ digest: digest(entry), suite: entry.record.suite })));
      const strings = internedStrings();
      return {
        async of({ suite, caseId, variantId }) {
          const rows = await reading.of(suite, caseId, variantId);
          return (function* () {
            for (const row of rows) yield { run: Number(row.run), result: resultOf(row, strings) };
          })();
        },
        close: () => reading.close(),
      };
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
