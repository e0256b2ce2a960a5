/**
 * The runs a history reads: every run file the paths name, each run once.
 * A run is known by its id: a copy of it (the same id, the same record) is
 * read once; two files that say they are the same run but hold different
 * records (one was edited) are both left out, said in one line, so an edited
 * copy never shadows the run it claims to be, whichever name sorts first.
 */
import { resolve } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import type { HistoryInput } from '@rtbench/verdicts';
import { loadSavedRun, runFilesIn } from './saved-run.ts';

/** A line for stderr: `info` may be silenced (--quiet), a warning or a skipped file never is. */
interface HistoryLine {
  level: 'info' | 'warning' | 'skipped';
  text: string;
}

export interface HistoryRuns {
  inputs: HistoryInput[];
  /** What was said, in the order it was found. */
  lines: HistoryLine[];
}

export function readHistoryRuns(paths: readonly string[]): HistoryRuns {
  const files = new Map<string, string>();
  for (const file of paths.flatMap(runFilesIn)) if (!files.has(resolve(file))) files.set(resolve(file), file);
  const inputs: HistoryInput[] = [];
  const lines: HistoryLine[] = [];
  const byId = new Map<string, { file: string; record: string }>();
  const contested = new Set<string>();
  for (const file of files.values()) {
    let saved;
    try {
      saved = loadSavedRun(file);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      lines.push({ level: 'skipped', text: `skipped ${error.message.startsWith(file) ? error.message : `${file}: ${error.message}`}` });
      continue;
    }
    const { id } = saved.run;
    const record = JSON.stringify(saved.run);
    const first = byId.get(id);
    if (first?.record === record) {
      lines.push({ level: 'info', text: `${file} is the same run as ${first.file} (id ${id}): read once` });
      continue;
    }
    if (first !== undefined) {
      contested.add(id);
      lines.push({ level: 'skipped', text: `skipped ${file} and ${first.file}: both say they are run ${id} but hold different records (one was edited), so neither is read` });
      continue;
    }
    byId.set(id, { file, record });
    for (const note of saved.notes ?? []) lines.push({ level: 'warning', text: `warning: ${file}: ${note}` });
    inputs.push({ run: saved.run, file: saved.file });
  }
  return { inputs: inputs.filter((x) => !contested.has(x.run.id)), lines };
}
