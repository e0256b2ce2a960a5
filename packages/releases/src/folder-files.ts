/**
 * What a matrix reads from its folder, through @rtbench/saved-runs' readers: its
 * runs, read as `report` and `compare` read a saved run (the
 * saved-run loader: the schema, the run's own consistency, statistics that
 * its samples no longer give), each file once. A file the state names is
 * read only when it lies inside the folder, links resolved: a state that
 * names one elsewhere is refused in one line, without a byte of it.
 */
import { existsSync } from 'node:fs';
import type { RunRecord } from '@rtbench/core/schema';
import { campaignFilePath } from '@rtbench/campaign';
import { loadSavedRun } from '@rtbench/saved-runs';
import type { RunReader } from './analysis.ts';
import { MatrixRefused } from './refused.ts';

/** A run the state names whose file is not there (a sitting stopped before its first save): no sets yet. */
function unsaved(file: string): RunRecord {
  return { schema: 'rtbench.run', schemaVersion: 1, id: file, status: 'interrupted', startedAt: '', finishedAt: '', command: [], suite: '', mode: 'compare', options: {} as RunRecord['options'], host: {} as RunRecord['host'], variants: [], cases: [], results: [], digestMismatches: [] };
}

/** The path of `file` in `dir`, refused when it (or a link on the way) leads outside the folder. */
export function pathInFolder(dir: string, file: string): string {
  return campaignFilePath(dir, file, 'releases.state', (message) => new MatrixRefused(message));
}

export interface FolderRuns {
  read: RunReader;
  /** What the loader found worth saying about a run (statistics its samples no longer give), one line each. */
  notes: string[];
}

/** Reads the folder's runs once each. */
export function folderRuns(dir: string): FolderRuns {
  const cache = new Map<string, RunRecord>();
  const notes: string[] = [];
  const read = (file: string): RunRecord => {
    let run = cache.get(file);
    if (!run) {
      const path = pathInFolder(dir, file);
      if (existsSync(path)) {
        const saved = loadSavedRun(path);
        for (const note of saved.notes ?? []) notes.push(`${path}: ${note}`);
        run = saved.run;
      } else run = unsaved(file);
      cache.set(file, run);
    }
    return run;
  };
  return { read, notes };
}
