/**
 * One temporary folder for a whole test run (vitest globalSetup): TMPDIR
 * points into it for the tests, the CLIs they start and those CLIs'
 * runtimes, and it is removed when the run ends. Tests make hundreds of
 * scratch folders (saved runs, fixtures' caches, workerd job folders); none
 * outlives the run, whether or not a test cleaned up after itself.
 * RTBENCH_KEEP_TEST_TMP=1 keeps it, to read what a failing test left.
 *
 * vitest calls a global setup once per project as well as for the root: the
 * first call makes the folder and the others find it (RTBENCH_TEST_TMP), so
 * paths stay short (Chromium refuses a socket path over 107 characters).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  if (process.env.RTBENCH_TEST_TMP) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'rtbench-tests-'));
  process.env.RTBENCH_TEST_TMP = root;
  process.env.TMPDIR = root;
  return () => {
    if (process.env.RTBENCH_KEEP_TEST_TMP === '1') console.log(`test files kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };
}
