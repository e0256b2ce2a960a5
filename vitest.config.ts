import { defineConfig } from 'vitest/config';

// Tests start real runtime processes; on a shared 2-core machine a few seconds per
// test is normal, so the timeouts are generous. No test asserts on wall time.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'runtimes/*/test/**/*.test.ts', 'bench/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Real runtime processes compete for 2 cores; keep test files from piling on.
    fileParallelism: false,
    // picocolors turns colours on when CI is set; tests read plain text.
    env: { NO_COLOR: '1' },
  },
});
