import { defineConfig } from 'vitest/config';

/**
 * `pnpm test:fast`: the tests that start no process — statistics, views and
 * reporters, parsers, the run loop on a fake measurer — for the inner loop of
 * work on rtbench. They run in parallel. A set-up file makes any attempt to
 * start a process fail, so a test that needs a runtime cannot stay on this
 * list. The full suite (`pnpm test`, vitest.config.ts) runs these too.
 */
export default defineConfig({
  test: {
    include: [
      'packages/stats/test/**/*.test.ts',
      'packages/bisect/test/**/*.test.ts',
      'packages/core/test/**/*.test.ts',
      'packages/report/test/**/*.test.ts',
      'packages/profile/test/{alloc-summary,alloc-tree,cdp,summary,tree}.test.ts',
      'packages/runtime-kit/test/{job,program-cache,protocol-reader,releases,v8-flags}.test.ts',
      'packages/runtime-registry/test/**/*.test.ts',
      'packages/host-timed/test/**/*.test.ts',
      'packages/bisect/test/**/*.test.ts',
      'runtimes/*/test/{gc-trace,edge-timing}.test.ts',
      'bench/*/test/**/*.test.ts',
      'test/{bisect-parts,cli-args,deno-config,cli-names,compare-analyze,digest-tolerance,host-timed-direction,plan,profile-manifest,progress}.test.ts',
      'test/faults/parsers.property.test.ts',
    ],
    exclude: ['packages/report/test/html-reporter.test.ts', 'packages/host-timed/test/code.test.ts', 'bench/http-hello/test/**'],
    setupFiles: ['test/helpers/no-processes.ts'],
    // Pure tests, but a shared 2-core machine can be slow: no test may fail on time.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    env: { NO_COLOR: '1' },
  },
});
