/**
 * Run files by name: which names in a folder are runs, and a folder's run
 * files listed. Nothing here reads a run, so a history that answers its
 * files from a store lists them without loading the run schema.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';

/** A run file's name in a folder: a run as saved (`.json`) or compressed with gzip (`.json.gz`). */
export const isRunFileName = (name: string): boolean => name.endsWith('.json') || name.endsWith('.json.gz');

/** The run files a path names: the file itself, or the .json and .json.gz files directly inside a directory (sorted). */
export function runFilesIn(path: string): string[] {
  const names = runFileNames(path);
  return names ? names.map(childOf(path)) : [path];
}

/** The names of the .json and .json.gz files directly inside `path` (sorted); undefined when it is not a directory. */
export function runFileNames(path: string): string[] | undefined {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file or directory`);
  }
  return stat.isDirectory() ? readdirSync(path).filter(isRunFileName).sort() : undefined;
}

/**
 * `join(folder, name)` for a plain name (no separator, not `.` or `..`), the
 * folder normalized once: a history lists ten thousand files, and join
 * normalizes each whole path again.
 */
export function childOf(folder: string): (name: string) => string {
  // What join puts before any plain name: the folder as it normalizes it, and a separator unless that is nothing.
  const prefix = join(folder, '_').slice(0, -1);
  return (name) => prefix + name;
}
