/**
 * Saved claims runs: a folder made by `rtbench claims` (or one run file in
 * it), read back for `rtbench report` (any format; `--format findings`
 * writes docs/measurements/findings.md).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { claimsView, type ClaimsView } from '@rtbench/report/views';
import { isRunFileName, loadSavedRun } from '@rtbench/saved-runs';
import { UsageError } from '@rtbench/core/usage-error';

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The runs of a claims folder, in the order they were made (their file names). */
export function loadClaimsFolder(dir: string): { run: RunRecord; file: string; notes?: string[] }[] {
  const files = readdirSync(dir)
    .filter(isRunFileName)
    .sort();
  const runs = files.map((f) => loadSavedRun(join(dir, f))).filter((s) => s.run.claims);
  if (!runs.length) throw new UsageError(`${dir} is a directory, not a run file, and holds no run that checked claims (a folder rtbench claims saved) either`);
  return runs.map((s) => ({ run: s.run, file: s.file, ...(s.notes ? { notes: s.notes.map((n) => `${basename(s.file)}: ${n}`) } : {}) }));
}

/** What `rtbench report` shows of a claims folder or of a run that checked claims; undefined for any other run. */
export function claimsReportView(path: string | undefined): ClaimsView | undefined {
  if (path !== undefined && isFolder(path)) {
    const runs = loadClaimsFolder(path);
    return claimsView(runs, runs.flatMap((r) => r.notes ?? []));
  }
  if (path === undefined) return undefined;
  const saved = loadSavedRun(path);
  return saved.run.claims ? claimsView([{ run: saved.run, file: saved.file }], saved.notes ?? []) : undefined;
}
