/**
 * knip: files, exports and dependencies nothing uses. Its report is empty, and
 * `pnpm lint:arch` (run by `pnpm test`) keeps it so.
 *
 * Entry points are the files something runs that no import reaches: the CLI's
 * bin and every package's exports (knip reads package.json), the scripts, the
 * tests and their fixtures (suites and programs the tests hand the CLI by
 * path), the programs host-timed suites start by path (bench/*\/src), the HTML
 * page esbuild bundles from page/main.ts, the load generator's worker
 * process, and the brought-over example files CI runs.
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  // System programs rtbench, its scripts and tests spawn (CPU pinning, the native profiler's control fifo, load, a C compiler, perf,
  // the PostgreSQL test server's programs run as its own user, the build output keeper's hole punching), not npm packages.
  ignoreBinaries: ['taskset', 'mkfifo', 'uptime', 'cc', 'perf', 'runuser', 'fallocate'],
  // A Deno workspace: its bare imports resolve through its own deno.json import maps (deno types it, not the project).
  // The framework apps the tests build: their imports resolve through their own node_modules, installed from their own lockfiles;
  // the app templates' shapes only their detection reads.
  ignore: ['test/fixtures/brought/deno-workspace/**', 'test/fixtures/apps/**', 'packages/suite-loader/test/fixtures/templates/**'],
  workspaces: {
    '.': {
      entry: ['scripts/**/*.{ts,mjs}', 'test/**/*.{ts,mjs,js}', 'examples/**/*.{ts,mjs,js}'],
      project: ['scripts/**/*.{ts,mjs}', 'test/**/*.{ts,mjs,js}', 'examples/**/*.{ts,mjs,js}'],
      // Files brought over unchanged import mitata or tinybench; rtbench's bundler resolves them to its adapters (suite-loader bundle.ts).
      paths: { mitata: ['packages/adapters/src/mitata.ts'], tinybench: ['packages/adapters/src/tinybench.ts'] },
      // Node core's benchmark files import their harness as ../common.js, which rtbench's bundler provides (adapters node-common.ts).
      ignoreUnresolved: ['../common.js'],
      // The workflow test runs action-validator's binary from node_modules/.bin; lint:arch runs dependency-cruiser's.
      // The claims-library and library-registry/versions fixtures import libraries their tests install beside a copy of them
      // (test/claims-across-versions.test.ts, test/library-releases.test.ts).
      ignoreDependencies: ['@action-validator/cli', 'rtbench-claims-lib', 'rtbench-versions-lib', 'rtbench-versions-view'],
    },
    'packages/*': {
      entry: ['test/**/*.{ts,mjs}'],
      project: ['src/**/*.{ts,mjs}', 'test/**/*.{ts,mjs}'],
    },
    'packages/cli': {
      // write-reference.ts rewrites the command reference, run by hand (npx tsx).
      entry: ['bin/*.mjs', 'src/write-reference.ts', 'test/**/*.{ts,mjs}'],
      project: ['bin/*.mjs', 'src/**/*.{ts,mjs}', 'test/**/*.{ts,mjs}'],
      // Imported by the CLI's bundle, kept under this package's node_modules/.cache (package.json says why), not by a source file.
      ignoreDependencies: ['esbuild'],
    },
    'packages/suite-loader': {
      // A framework app's entry, written to the program cache, imports appSuite by path; its Node.js server program (and
      // Next.js's, which mounts on it) is run, and the Cache API its Worker imports first is bundled, by path.
      entry: ['src/apps/app-suite.ts', 'src/serve-app.mjs', 'src/serve-next.mjs', 'src/workers-cache.ts', 'test/**/*.{ts,mjs}'],
      project: ['src/**/*.{ts,mjs}', 'test/**/*.{ts,mjs}'],
    },
    'packages/host': {
      // The CLI's launcher (packages/cli/bin/rtbench.mjs) loads the bundle's builder by path through tsx, only when the bundle is missing.
      entry: ['src/cli-bundle.ts', 'test/**/*.{ts,mjs}'],
      project: ['src/**/*.{ts,mjs}', 'test/**/*.{ts,mjs}'],
    },
    'packages/report': {
      // The pages esbuild bundles when a report is written (html/bundle.ts).
      entry: ['src/html/page/main.ts', 'src/html/page/history.ts', 'src/html/page/releases.ts', 'test/**/*.ts'],
      project: ['src/**/*.ts', 'test/**/*.ts'],
    },
    'packages/host-timed': {
      entry: ['src/load-worker.mjs', 'test/**/*.ts'],
      project: ['src/**/*.{ts,mjs}', 'test/**/*.ts'],
    },
    'runners/*': {
      entry: ['test/**/*.ts'],
      project: ['src/**/*.ts', 'test/**/*.ts'],
      // The runtime packages are dependencies for the binaries inside them, found by path, never imported.
      ignoreDependencies: ['node-20', 'node-22', 'node-24', 'node-26', 'deno', 'bun', 'workerd'],
    },
    'bench/*': {
      entry: ['*.ts', 'src/**/*.ts', 'test/**/*.ts'],
      project: ['*.ts', 'src/**/*.ts', 'test/**/*.ts'],
    },
    'bench/next-page': {
      // The Next.js server program the runtimes run by path; the smoke job's config and tests. The app (app/) is compiled by
      // next build against the toolchain installed on first use (toolchain.ts), not against this workspace's packages.
      entry: ['*.ts', 'serve-next.mjs', 'test/**/*.ts', 'smoke/**/*.ts'],
      project: ['*.ts', '*.mjs', 'test/**/*.ts', 'smoke/**/*.ts'],
    },
    'bench/shared': {
      // Suites import these by relative path; the handlers a runtime serves are named by path (relay-served's and http-hello's index.ts).
      entry: ['*/*-handler.ts'],
      project: ['**/*.ts'],
    },
  },
};

export default config;
