/**
 * What the tests keep between runs on one machine, outside any checkout:
 * installs and builds that are not the behaviour under test (a fixture
 * app's dependencies from its own lockfile, its builds keyed by all they are
 * made from, the arm64 runtimes' npm packages), so a fresh clone on a
 * machine that ran the tests before installs and builds nothing. Runs are
 * never kept here: each test run makes its own.
 *
 * The folder is $RTBENCH_TEST_CACHE, else $XDG_CACHE_HOME/rtbench/tests
 * (~/.cache/rtbench/tests); removing it (or pointing RTBENCH_TEST_CACHE at
 * an empty folder) gives a machine that never ran the tests. Each entry is
 * named by what it was made from (a lockfile and files, a version) and
 * touched when used; an entry unused for a day is removed by the next test
 * that keeps one of its kind (pruneUnused), so the folder holds what the
 * checkouts of the last day used.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** An entry unused for this long is removed. */
const UNUSED_MS = 24 * 3600_000;

/** The machine's test cache, or its folder `sub`, made (owner-only) when missing. */
export function machineCache(sub: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = env.RTBENCH_TEST_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rtbench', 'tests');
  const dir = join(root, sub);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Marks an entry as used now (its folder's time), so pruning keeps it. */
export function touchEntry(entry: string): void {
  const now = new Date();
  utimesSync(entry, now, now);
}

/**
 * Removes the entries of `dir` whose names `ofKind` takes, other than
 * those in `keep`, unused (their folder's time) for a day. An entry in use by a test
 * of another checkout was touched when it began, so none is removed under
 * it. Returns the names removed.
 */
export function pruneUnused(dir: string, ofKind: (name: string) => boolean, keep: readonly string[], now = Date.now()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    if (keep.includes(name) || !ofKind(name)) continue;
    const path = join(dir, name);
    let mtime: number;
    try {
      mtime = statSync(path).mtimeMs;
    } catch {
      continue; // removed meanwhile by another run
    }
    if (now - mtime < UNUSED_MS) continue;
    // Moved aside first, so another run never reads half of it.
    const aside = `${path}.removing-${process.pid}`;
    try {
      renameSync(path, aside);
    } catch {
      continue;
    }
    rmSync(aside, { recursive: true, force: true, maxRetries: 5 });
    removed.push(name);
  }
  return removed;
}
