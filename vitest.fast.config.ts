import { defineConfig } from 'vitest/config';

/**
 * `pnpm test:fast`: the tests that start no process — statistics, views and
 * reporters, parsers, the run loop on a fake measurer — for the inner loop of
 * work on rtbench. They run in parallel. A set-up file makes any attempt to
 * start a process fail, so a test that needs a runtime cannot stay on this
 * list. The full suite (`pnpm test`, vitest.config.ts) runs these too, in
 * parallel beside the tests that start processes.
 */
export const PURE_TESTS: string[] = [
  'packages/stats/test/**/*.test.ts',
  'packages/verdicts/test/**/*.test.ts',
  'packages/bisect/test/**/*.test.ts',
  'packages/releases/test/**/*.test.ts',
  'packages/claims/test/**/*.test.ts',
  'packages/core/test/**/*.test.ts',
  'packages/report/test/**/*.test.ts',
  'packages/profile/test/{alloc-summary,alloc-tree,cdp,perf-refusal,profile-window,server-window,source-map,summary,tree}.test.ts',
  'packages/runtime-kit/test/{beside-bundle,code-cache,elf,file-facts,npm,releases,v8-flags}.test.ts',
  'packages/process/test/{bounded-output,host-sockets,cgroup-memory-peak,context-switches,host-lateness,job,protocol-reader,session}.test.ts',
  'packages/host/test/{app-build,barrel-imports,bundled-packages,callgrind,file-name,install-temp,local-releases,program-cache,source-map-file}.test.ts',
  'packages/adapters/test/**/*.test.ts',
  'packages/runtime-registry/test/**/*.test.ts',
  'packages/host-timed/test/**/*.test.ts',
  'packages/saved-runs/test/**/*.test.ts',
  'packages/measurer-records/test/**/*.test.ts',
  'packages/run/test/**/*.test.ts',
  'packages/measurers/test/**/*.test.ts',
  'packages/arms/test/**/*.test.ts',
  'packages/campaign/test/**/*.test.ts',
  'runners/*/test/{gc-trace,edge-timing}.test.ts',
  'runners/workerd/test/{v8-version,http-exchange,compatibility}.test.ts',
  'runners/deno/test/flags.test.ts',
  'bench/*/test/**/*.test.ts',
  'packages/cli/test/{history-cursor,usage-errors,leading-command,refused-inputs,report-saved,hostile-formats,hostile-text,bisect-threshold,brought-schedule,campaign-lines,claims-on-releases,claims-views,cli-args,command-reference,edited-run,findings,cli-names,compare-analyze,compare-saved,output-places,cache-advice,packed-places,plan,platforms,progress,refused-variants,releases-ranges,round-blocks,runtimes-releases,run-heading,saved-before-block,saved-load-run,shards-merge,terminal-width}.test.ts',
  'packages/cli/test/{plan,info}-*.test.ts',
  'packages/cli/test/faults/{forged-output,parsers.property,user-names.property}.test.ts',
  'packages/suite-loader/test/{brought-format,case-filter,declared-values,deno-config,framework-app,app-next,static-assets,suite-summary,suite-errors,worker}.test.ts',
  'test/{cli-shape,cpu-budget,cpu-view,digest-tolerance,doc-share,function-lengths,line-widths,package-faces,host-timed-direction,install-programs,kit-exports,layout-doc,long-loop-judge,named-paths,pool,profile-manifest,reference-docs,request-loop-gc-trace,request-loop-ratio,request-loop-worker,runtime-globals,runtime-pins,scripts-rooms,smoke-timing,stopping-simulation,suite-face,suite-folders}.test.ts',
  'packages/suite-loader/test/{app-suite,app-react-router,app-arms,app-astro}.test.ts',
  'test/faults/host-bounds.test.ts',
  'test/reading-closure.test.ts',
  'packages/cli/test/{output-formats,faults-wording,history-store,compact-save}.test.ts',
  'packages/results-store/test/{folder-store,format-3,neighbours}.test.ts',
  'packages/saved-runs/test/**/*.test.ts',
];

export const PURE_EXCLUDE: string[] = ['test/reading-closure.test.ts', 'packages/report/test/html-reporter.test.ts', 'packages/arms/test/pins-one-bundle.test.ts', 'packages/host-timed/test/code.test.ts', 'bench/http-hello/test/**'];

export const NO_PROCESSES_SETUP = 'test/helpers/no-processes.ts';

export default defineConfig({
  test: {
    include: PURE_TESTS,
    exclude: PURE_EXCLUDE,
    setupFiles: [NO_PROCESSES_SETUP],
    globalSetup: ['test/helpers/temp-root.ts'],
    // Two files at a time: vitest's default on 2 cores is one.
    maxWorkers: 2,
    // One module graph per worker for all its files, not one per file: half the time
    // (most of it was importing). The pure tests share no state: nothing is mocked or
    // stubbed, no global is replaced (checked: the list passes with its files shuffled).
    isolate: false,
    // Pure tests, but a shared 2-core machine can be slow: no test may fail on time.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    env: { NO_COLOR: '1' },
  },
});
