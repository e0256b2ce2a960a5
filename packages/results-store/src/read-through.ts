/**
 * Reading run files through a store: each file whose size and modification
 * time are those it had when it was stored is answered from the store; any
 * other is loaded (the loader checks it and computes its figures from its
 * rounds) and stored. A file the loader refuses is not stored: it is refused
 * again, in the loader's words, each time it is read.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SavedRun } from '@rtbench/verdicts';
import { savedRunOf, storedRun } from './records.ts';
import type { FileStamp, RunStore } from './store.ts';

export type RunLoader = (file: string) => SavedRun;

function stampOf(file: string): FileStamp | undefined {
  try {
    const stat = statSync(file, { bigint: true });
    // A FIFO, a folder named *.json: the loader refuses it in its own words.
    return stat.isFile() ? { path: resolve(file), size: String(stat.size), mtimeNs: String(stat.mtimeNs) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads `files` (as named) through `store` for the machine `hostId`, storing
 * those it had not; the loader it returns answers each of them as the loader
 * would, without reading a stored file again.
 */
export async function readThrough(files: readonly string[], store: RunStore, hostId: string, loader: RunLoader): Promise<RunLoader> {
  const stamps = new Map(files.flatMap((file) => {
    const stamp = stampOf(file);
    return stamp ? [[file, stamp] as const] : [];
  }));
  const stored = await store.storedFiles(hostId, [...stamps.values()].map((s) => s.path));
  const read = new Map<string, SavedRun | Error>();
  for (const [file, stamp] of stamps) {
    const known = stored.get(stamp.path);
    if (known && known.size === stamp.size && known.mtimeNs === stamp.mtimeNs) {
      read.set(file, savedRunOf(file, known.notes, known.record));
      continue;
    }
    let saved: SavedRun;
    try {
      saved = loader(file);
    } catch (error) {
      read.set(file, error as Error);
      continue;
    }
    await store.put(hostId, stamp, storedRun(saved));
    read.set(file, saved);
  }
  return (file) => {
    const answer = read.get(file);
    if (answer === undefined) return loader(file);
    if (answer instanceof Error) throw answer;
    return answer;
  };
}
