import { defineConfig } from 'vitest/config';
import { NO_PROCESSES_SETUP, PURE_EXCLUDE, PURE_TESTS } from './vitest.fast.config.ts';

const ALL_TESTS = ['packages/*/test/**/*.test.ts', 'runtimes/*/test/**/*.test.ts', 'bench/*/test/**/*.test.ts', 'test/**/*.test.ts'];

// Tests start real runtime processes; on a shared 2-core machine a few seconds per
// test is normal, so the timeouts are generous. No test asserts on wall time.
//
// Three projects: first the pure tests (test:fast's list) and the few that only
// run esbuild, two files at a time (vitest's default on 2 cores is one); then the
// files that start runtimes, one at a time: they look for leftover processes in
// /proc and share rtbench's cache, so two at once would see each other's. Files
// that can overlap their own runs do so inside the file (describe.concurrent
// with runCliAsync). vitest runs projects of different worker counts in turn.
export default defineConfig({
  test: {
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // picocolors turns colours on when CI is set; tests read plain text.
    env: { NO_COLOR: '1' },
    projects: [
      { extends: true, test: { name: 'runtimes', include: ALL_TESTS, exclude: PURE_TESTS, fileParallelism: false } },
      { extends: true, test: { name: 'pure', include: PURE_TESTS, exclude: PURE_EXCLUDE, setupFiles: [NO_PROCESSES_SETUP], maxWorkers: 2 } },
      { extends: true, test: { name: 'esbuild', include: PURE_EXCLUDE.map((p) => (p.endsWith('/**') ? `${p}/*.test.ts` : p)), maxWorkers: 2 } },
    ],
  },
});
