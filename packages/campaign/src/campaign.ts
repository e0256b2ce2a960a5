/**
 * One campaign: what a command that plans many runs (bisect, a release
 * matrix, claims) shares. Its folder, named by a slug of what it measures,
 * opened and locked against a second invocation, with the machine it
 * measures on; each run it asks for measured into that folder and saved as
 * it goes, so a stopped campaign resumes from what it saved; its budget and
 * the exit code that says the budget stopped it (a signal's stop exits as
 * any run's does: @rtbench/run stop.ts); and the tones its lines
 * take. A planner asks the command for each run through the run's plan port
 * (@rtbench/run plan-port.ts). The loop that holds a planner
 * with these is campaign-loop.ts; the planners (@rtbench/bisect,
 * @rtbench/releases, @rtbench/claims) keep their own state, defaults and
 * decisions.
 */
import { mkdirSync, statSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { slug } from '@rtbench/host/files';
import { UsageError } from '@rtbench/core/usage-error';
import { executeRun, takeLock, type RunHooks, type RunRequest } from '@rtbench/run';
import { tryCreatingIn, writeRunAtomically } from '@rtbench/saved-runs';

/** Exit code of a campaign stopped by its budget: the same command continues. */
export const BUDGET_EXIT = 75;

/** How a campaign's line reads, which the command shows as it shows its own (colours): a heading, a quiet note, a warning, or why it stopped short (said even when quiet). */
export type LineTone = 'heading' | 'note' | 'warning' | 'ending';

/** A campaign's progress lines, said to the command: plain when no tone is given; `aside`, a quiet note after it (a clock, an ETA). */
export type CampaignSay = (line: string, tone?: LineTone, aside?: string) => void;

/** A campaign's folder: the one given (--dir), else results/<kind>/ named by a slug of what it measures, then `suffix` (a shard's). */
export function campaignFolder(resultsDir: string, kind: string, named: readonly string[], given?: string, suffix = ''): string {
  return given ?? join(resultsDir, kind, slug(named.join('-')) + suffix);
}

/**
 * Checks, before anything is asked or measured, that a campaign's folder can
 * be made and written (`option` names where the path came from: --dir,
 * --save): a folder, or a place where one can be made, in which files can be
 * created. Tried, not read from permission bits, in the folder or the nearest
 * part of the path that exists, so /proc and /sys (where a recursive mkdir
 * fails or never returns), a file in the way and a read-only place are each
 * one line, and nothing is made.
 */
export function assertWritableFolder(path: string, option: string): void {
  const full = resolve(path);
  const isDir = (p: string): boolean | undefined => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return undefined;
    }
  };
  if (full.split('/').some((part) => Buffer.byteLength(part) > 255)) throw new UsageError(`${option} ${path}: a name in it is longer than 255 bytes, which the file system refuses`);
  let existing = full;
  while (isDir(existing) === undefined && dirname(existing) !== existing) existing = dirname(existing);
  if (isDir(existing) === false) throw new UsageError(existing === full ? `${option} ${path} is a file, not a folder` : `${option} ${path}: ${existing} is a file, not a folder`);
  tryCreatingIn(existing, `${option} ${path}`);
}

/**
 * Opens a campaign's folder to work in: checked (one line, not a trace or a
 * hang, for a place that takes no folder), made, and locked against a second
 * invocation (released by the function returned, or when this process
 * exits), or refused in one line naming who holds it and the option
 * (`option`) that names another folder.
 */
export function openCampaignFolder(dir: string, lockFile: string, what: string, option = '--dir'): () => void {
  assertWritableFolder(dir, `the ${what} folder`);
  mkdirSync(dir, { recursive: true });
  return takeLock(join(dir, lockFile), (pid) => `another ${what} (pid ${pid}) is working in ${dir}; two at once would overwrite each other's runs: wait for it, or name another ${option}`);
}

/** The machine a campaign measures on, named in its state: host and CPU model (each run records its host in full). */
export function campaignMachine(): string {
  return `${hostname()}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`;
}

/** One run a campaign asked for, measured into its folder: saved at `path` after every job and at its end, so a stop keeps what it measured. */
export async function runIntoFile(request: RunRequest, path: string, hooks: Pick<RunHooks, 'signal' | 'onProgress'>): Promise<RunRecord> {
  const run = await executeRun(request, { ...hooks, save: (r) => writeRunAtomically(path, r) });
  writeRunAtomically(path, run);
  return run;
}

/** A campaign's wall-time budget from the moment it started (or was started again: once its folder is open and its plan said). */
export class CampaignBudget {
  private startedAt = Date.now();
  constructor(readonly budgetMs: number) {}

  get started(): number {
    return this.startedAt;
  }

  /** Counts from now: what opening took (listing, installing the ends) is not spent. */
  restart(): void {
    this.startedAt = Date.now();
  }

  spentMs(): number {
    return Date.now() - this.started;
  }

  leftMs(): number {
    return this.budgetMs - this.spentMs();
  }

  /** Whether work estimated to take this long would end within the budget. */
  fits(estimateMs: number): boolean {
    return this.spentMs() + estimateMs <= this.budgetMs;
  }
}
