/**
 * @rtbench/host/apps: what every framework app's build is made of (its
 * cache key, its folder's proof, its steps with telemetry off, a failure's
 * one line, the app copied in, each edition built once) and an app with an
 * arm's versions of its packages installed in a copy. Each framework's own
 * build sits in its home, packages/suite-loader/src/apps/<framework>/.
 */
export {
  AppBuildFailed,
  appBuildKey,
  buildAfresh,
  buildEditions,
  bundleNodeServer,
  cachedBuildProblem,
  copyAppFiles,
  copyAppInto,
  EditionsFailed,
  failedEditions,
  isAppBuildFailure,
  modulesDigest,
  nodePrefixed,
  recordBuild,
  runBuildStep,
  servedPluginConfig,
  type AppBuildInput,
  type Edition,
  type EditionsBuild,
} from './app-build.ts';
export { appWithVersions } from './app-versions.ts';
export { shownPath } from './file-name.ts';
