/**
 * Where a claims invocation saves its runs: the folder given (--save), else
 * results/claims/<slug> named by the suites and the columns it checks,
 * as a bisect's and a release matrix's folders are named (@rtbench/run
 * campaign.ts), with the time it started, so that a second invocation keeps
 * its own folder (one stopped continues when --save names its folder). Folders saved before under
 * results/claims-<time> are read back as any folder is.
 */
import { existsSync, statSync } from 'node:fs';
import { assertWritableFolder, campaignFolder } from '@rtbench/campaign';
import { UsageError } from '@rtbench/core/usage-error';

export function claimsFolder(resultsDir: string, suites: readonly string[], columns: readonly { label: string }[], stamp: string, given?: string): string {
  return campaignFolder(resultsDir, 'claims', [...suites, ...columns.flatMap((c) => (c.label ? [c.label] : [])), stamp], given);
}

/**
 * Refuses, in one line before anything runs, a folder the runs cannot be
 * saved in: a named one made here that exists already (another invocation's),
 * a file in the way, a place no file can be created (/proc, /sys, read-only).
 */
export function assertClaimsFolder(dir: string, given: boolean): void {
  if (existsSync(dir) && (!given || !statSync(dir).isDirectory())) throw new UsageError(`--save ${dir}: ${given ? 'is not a folder (the runs of one invocation are saved as files in a folder)' : 'exists already'}`);
  assertWritableFolder(dir, '--save');
}
