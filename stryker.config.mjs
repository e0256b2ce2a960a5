// Stryker's options shared by every area of `pnpm test:mutation`; the areas (which
// files are mutated, which tests run against them) are in scripts/mutation.ts.
// docs/tests.md, "Mutation testing".
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // The pure list's set-up: a test that starts a process fails, as in `pnpm test:fast`.
  vitest: { configFile: 'vitest.fast.config.ts' },
  coverageAnalysis: 'perTest',
  // Mutants in code that runs at import (module constants) would need every test
  // each; the tests that cover them by name are run instead, and those mutants
  // are left out of the score (a constant's effect is seen by the tests of the
  // code that reads it).
  ignoreStatic: true,
  incremental: true,
  // The machine is shared: two test processes at most.
  concurrency: 2,
  timeoutMS: 20000,
  // The first run (every test, with coverage per test) on a loaded 2-core machine.
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress'],
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
