/**
 * vitest globalSetup: what many test files would otherwise each make, made
 * once per test run before the first test. Now the CLI's bundle
 * (packages/cli/bin/rtbench.mjs builds it on the first start after a source
 * changed): on a fresh clone the first CLI of every file started at once
 * would each build it (about a CPU-second each), and the rest wait on none.
 * What it made stays in the checkout's caches, which the next run reuses
 * while the sources are unchanged. At the run's end it stops the browser
 * files' shared Chromium (test/helpers/shared-chromium.ts), if the CPU
 * reporter has not.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stopSharedChromium } from './shared-chromium.ts';

const repoRoot = join(import.meta.dirname, '..', '..');

export default function setup(): (() => Promise<void>) | undefined {
  // vitest calls a global set-up for the root and again per project: the first call does the work.
  if (process.env.RTBENCH_TEST_POOL_MADE) return undefined;
  process.env.RTBENCH_TEST_POOL_MADE = '1';
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), '--version'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  // A failure here is the CLI's: every test that starts it says so; the set-up only says it could not build first.
  if (r.status !== 0) process.stderr.write(`test set-up: the CLI's bundle was not built first (exit ${r.status}): ${r.stderr.trim().split('\n').at(-1) ?? ''}\n`);
  else if (Date.now() - started > 2_000) process.stderr.write(`test set-up: built the CLI's bundle once for every test (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return async () => {
    await stopSharedChromium();
  };
}
