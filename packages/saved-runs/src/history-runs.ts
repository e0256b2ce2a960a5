/**
 * The runs a history reads: every run file the paths name, each run once; a
 * file that is not a readable run, or whose run cannot be summarised, is
 * named in one line and left out, and the others are read.
 * A run is known by its id: a copy of it (the same id, the same record) is
 * read once; two files that say they are the same run but hold different
 * records (one was edited) are both left out, said in one line, so an edited
 * copy never shadows the run it claims to be, whichever name sorts first.
 */
import { resolve } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import type { HistoryEntry, HistoryRead } from '@rtbench/verdicts';
import { childOf, runFileNames } from './run-files.ts';

/** A line for stderr: `info` may be silenced (--quiet), a warning or a skipped file never is. */
interface HistoryLine {
  level: 'info' | 'warning' | 'skipped';
  text: string;
}

export interface HistoryRuns {
  inputs: HistoryEntry[];
  /** What was said, in the order it was found. */
  lines: HistoryLine[];
}

/** The run files the paths name, as named and as absolute paths, in the same order. */
export interface HistoryFiles {
  named: string[];
  absolute: string[];
}

/** The run files the paths name (a folder's `*.json`, sorted), each once, as named. */
export const historyFiles = (paths: readonly string[]): string[] => historyFileList(paths).named;

/** historyFiles with each file's absolute path, made once (a store keeps files by it). */
export function historyFileList(paths: readonly string[]): HistoryFiles {
  // By absolute path: a file named twice (a folder and a file in it) is read once.
  const files = new Map<string, string>();
  const add = (absolute: string, named: string): void => void (files.has(absolute) || files.set(absolute, named));
  for (const path of paths) {
    const names = runFileNames(path);
    if (!names) {
      add(resolve(path), path);
      continue;
    }
    const named = childOf(path);
    const absolute = childOf(resolve(path));
    for (const name of names) add(absolute(name), named(name));
  }
  return { named: [...files.values()], absolute: [...files.keys()] };
}

/**
 * `load`: how a file is read (the results store's reader answers from the
 * store; saved-run.ts readForHistory through the loader). `files`: the
 * paths' run files when the caller listed them already (historyFiles), a
 * folder of thousands listed once.
 */
export function readHistoryRuns(paths: readonly string[], load: (file: string) => HistoryRead, files: readonly string[] = historyFiles(paths)): HistoryRuns {
  const inputs: HistoryEntry[] = [];
  const lines: HistoryLine[] = [];
  const byId = new Map<string, { file: string; digest: string }>();
  const contested = new Set<string>();
  for (const file of files) {
    let read;
    try {
      read = load(file);
    } catch (error) {
      // A run the loader cannot summarise (a round whose figures its rounds cannot give) costs that run, not the history.
      const why = error instanceof UsageError ? error.message : `it cannot be summarised (${(error as Error).message})`;
      lines.push({ level: 'skipped', text: `skipped ${why.startsWith(file) ? why : `${file}: ${why}`}` });
      continue;
    }
    const { id } = read.record;
    const first = byId.get(id);
    if (first?.digest === read.digest) {
      lines.push({ level: 'info', text: `${file} is the same run as ${first.file} (id ${id}): read once` });
      continue;
    }
    if (first !== undefined) {
      contested.add(id);
      lines.push({ level: 'skipped', text: `skipped ${file} and ${first.file}: both say they are run ${id} but hold different records (one was edited), so neither is read` });
      continue;
    }
    byId.set(id, { file, digest: read.digest });
    for (const note of read.notes ?? []) lines.push({ level: 'warning', text: `warning: ${file}: ${note}` });
    inputs.push({ record: read.record, file: read.file });
  }
  return { inputs: inputs.filter((x) => !contested.has(x.record.id)), lines };
}
