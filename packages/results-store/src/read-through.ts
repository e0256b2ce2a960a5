/**
 * Reading run files through a store for a history: each file whose size and
 * modification time are those it had when it was stored is answered from the
 * store's rows, never opened; any other is loaded (the loader checks it and
 * computes its figures from its rounds) and stored. A file the loader refuses
 * is not stored: it is refused again, in the loader's words, each time it is
 * read. In a folder unchanged since its own store last read it, a file the
 * store holds is answered without even a stat (folder-stamp.ts).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { historyRead, type HistoryRead, type SavedRun } from '@rtbench/verdicts';
import { historyFactsOf, historyReadOf, internedStrings, shapesOf, storedRun, type RunFacts } from './records.ts';
import type { FolderCheck } from './folder-stamp.ts';
import type { FileStamp, RunStore, StoredFile } from './store.ts';

export type RunLoader = (file: string) => SavedRun;

/**
 * The loader, imported when a file is first loaded: a history its store
 * answers whole never imports it (the loader brings the run schema and
 * every measurer's record).
 */
interface LoaderImport {
  import(): Promise<RunLoader>;
}

/** A loader, or how to import it. */
export type RunLoading = RunLoader | LoaderImport;

/** The loader `loading` gives, imported once, at the first call. */
export function loaderOf(loading: RunLoading): () => Promise<RunLoader> {
  if (typeof loading === 'function') return async () => loading;
  let imported: Promise<RunLoader> | undefined;
  return () => (imported ??= loading.import());
}

/** A run file as a history reads it. */
export type HistoryReader = (file: string) => HistoryRead;

function stampOf(file: string): FileStamp | undefined {
  try {
    const stat = statSync(file, { bigint: true });
    // A FIFO, a folder named *.json: the loader refuses it in its own words.
    return stat.isFile() ? { path: resolve(file), size: String(stat.size), mtimeNs: String(stat.mtimeNs) } : undefined;
  } catch {
    return undefined;
  }
}

/** A file as the loader reads it for a history, or the loader's refusal. */
function loadedOrRefused(loader: RunLoader, file: string): HistoryRead | Error {
  try {
    return historyRead(loader(file));
  } catch (error) {
    return error as Error;
  }
}

/** How many runs' rows are asked for at once: a store of ten thousand runs is never held as rows at once. */
const RUNS_PER_READ = 256;

/**
 * How readThrough reads: `figures` false to answer each run without its
 * results; `folder` the check of the folder all the files are in (its own
 * store); `resolved` each file's absolute path, in the order of the files,
 * where the caller made them already.
 */
export interface ReadOptions {
  figures?: boolean;
  folder?: FolderCheck;
  resolved?: readonly string[];
}

/** Files read through a store: each as a history reads it, and the digest of the stored run each holds. */
export interface ReadThrough {
  read: HistoryReader;
  digestOf: ReadonlyMap<string, string>;
}

/**
 * Reads `files` (as named) through `store` for the machine `hostId`, storing
 * those it had not; the reader it returns answers each of them as the loader
 * would for a history, without opening a stored file. A file loaded now is
 * stored and dropped, and answered from the store like the others: ingesting
 * ten thousand files holds one at a time. `options.figures`: false to
 * answer each run without its results (a history whose points the store's
 * cursor reads: its facts, arms and order keys only).
 */
export async function readThrough(files: readonly string[], store: RunStore, hostId: string, loading: RunLoading, options: ReadOptions = {}): Promise<ReadThrough> {
  const { figures = true, folder, resolved } = options;
  const loader = loaderOf(loading);
  const paths = new Map(files.map((file, i) => [file, resolved?.[i] ?? resolve(file)] as const));
  // An unchanged folder's files as its last reading found them (folder-stamp.ts): neither their rows nor their runs' facts asked again.
  const kept = !figures && folder?.unchanged ? folder.keptFacts() : undefined;
  const asked = kept ? [...paths.values()].filter((path) => !kept.has(path)) : [...paths.values()];
  const stored = asked.length ? await store.storedFiles(hostId, asked) : new Map<string, StoredFile>();
  const unchanged = (stamp: FileStamp): string | undefined => {
    const known = stored.get(stamp.path);
    return known && known.size === stamp.size && known.mtimeNs === stamp.mtimeNs ? known.digest : undefined;
  };
  const read = new Map<string, HistoryRead | Error>();
  /** Loads a file and stores its run: its digest, or undefined when the loader refuses it (kept to throw when it is read). */
  const ingest = async (file: string, stamp: FileStamp): Promise<string | undefined> => {
    let saved: SavedRun;
    try {
      saved = (await loader())(file);
    } catch (error) {
      read.set(file, error as Error);
      return undefined;
    }
    const history = historyRead(saved);
    await store.put(hostId, stamp, storedRun(history, saved.run));
    return history.digest;
  };
  // The files that hold each run, by its digest, and each file's; each run's facts where the folder kept them.
  const holders = new Map<string, string[]>();
  const digestOf = new Map<string, string>();
  const factsOf = new Map<string, RunFacts>();
  for (const [file, path] of paths) {
    const keptFacts = kept?.get(path);
    if (keptFacts) factsOf.set(String(keptFacts.digest), keptFacts);
    // In an unchanged folder a file the store holds is the one it read (folder-stamp.ts): no stat.
    let digest = keptFacts ? String(keptFacts.digest) : folder?.unchanged ? stored.get(path)?.digest : undefined;
    if (digest === undefined) {
      const stamp = stampOf(file);
      // No stamp (no such file, a FIFO): the loader refuses it in its own words.
      if (!stamp) {
        read.set(file, loadedOrRefused(await loader(), file));
        continue;
      }
      digest = unchanged(stamp) ?? (await ingest(file, stamp));
      if (digest === undefined) continue;
    }
    digestOf.set(file, digest);
    const held = holders.get(digest);
    if (held) held.push(file);
    else holders.set(digest, [file]);
  }
  const strings = internedStrings();
  if (figures) {
    const digests = [...holders.keys()];
    for (let i = 0; i < digests.length; i += RUNS_PER_READ) {
      for (const [digest, rows] of await store.runs(digests.slice(i, i + RUNS_PER_READ))) for (const file of holders.get(digest) ?? []) read.set(file, historyReadOf(file, rows, strings));
    }
    folder?.settle();
  } else {
    // Without results, each run's own cells and its shape, which the runs of one suite, machine and arms share.
    const shapes = shapesOf(await store.shapes(), strings);
    const unknown = [...holders.keys()].filter((digest) => !factsOf.has(digest));
    for (let i = 0; i < unknown.length; i += RUNS_PER_READ) for (const [digest, facts] of await store.facts(unknown.slice(i, i + RUNS_PER_READ))) factsOf.set(digest, facts);
    for (const [digest, held] of holders) {
      const facts = factsOf.get(digest);
      if (facts) for (const file of held) read.set(file, historyFactsOf(file, facts, shapes));
    }
    // A folder whose every run was answered from what it kept keeps that (a file refused each time is not kept); any
    // other keeps what this reading found.
    const allKept = kept !== undefined && [...paths].every(([file, path]) => !digestOf.has(file) || kept.has(path));
    folder?.settle(allKept ? 'as kept' : () => new Map([...paths].flatMap(([file, path]) => {
      const digest = digestOf.get(file);
      const facts = digest === undefined ? undefined : factsOf.get(digest);
      return facts ? [[path, facts] as const] : [];
    })));
  }
  // A run the store no longer holds (its rows removed under it): read from its file.
  for (const [file] of paths) if (!read.has(file)) read.set(file, loadedOrRefused(await loader(), file));
  return {
    read: (file) => {
      const answer = read.get(file);
      if (answer === undefined) throw new Error(`${file} is not one of the files read through ${store.place}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    digestOf,
  };
}
