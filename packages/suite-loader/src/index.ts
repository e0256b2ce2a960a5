/**
 * @rtbench/suite-loader: from a name or a path to code a runtime runs. It
 * finds a suite (bench/<name>, a folder) or a benchmark file brought from
 * another harness, detects that file's format, loads a native suite's cases
 * on the host, and bundles a suite for each runtime.
 */
export { bundleCodeHash, bundleSuite, type ArmBuild, type Bundle } from './bundle.ts';
export {
  BROUGHT_FORMATS_IN_WORDS,
  RUN_TARGETS_IN_WORDS,
  broughtFileOf,
  broughtFileProblem,
  broughtFormatOfEntry,
  broughtIsolationOfEntry,
  checkBroughtFile,
  isBroughtEntry,
  locateBroughtFile,
} from './brought-file.ts';
export type { Isolation } from '@rtbench/adapters/formats';
export { caseFilter, exactFilter, filterCases } from './case-filter.ts';
export { appModulesHash } from './apps/app-suite.ts';
export { buildNextApp, type NextBuild } from './apps/next/build.ts';
export { normalizeNextPage } from './apps/next/pages.ts';
export { nextServer, nextServerSource } from './apps/next/server.ts';
export { buildToolNode, cacheDir, serveAppModule, inCheckout, projectDir, repoRoot } from './places.ts';
export { storePolicy } from './store-policy.ts';
export type { BroughtSettings, SuiteLocation } from './suite-location.ts';
export { listSuites, loadSuite, locateSuite, suiteLoadError, suiteSummary } from './suites.ts';
export { isWorkerTarget } from './worker.ts';
