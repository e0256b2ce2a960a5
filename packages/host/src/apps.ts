/**
 * @rtbench/host/apps: a framework app's build (its cache key, its folder's
 * proof, its steps with telemetry off, a failure's one line), one module per
 * framework (Next.js, SvelteKit, React Router, Astro), and an app with an
 * arm's versions of its packages installed in a copy.
 */
export { AppBuildFailed, appBuildKey, buildAfresh, cachedBuildProblem, modulesDigest, nodePrefixed, recordBuild, runBuildStep, type Edition } from './app-build.ts';
export { appWithVersions } from './app-versions.ts';
export { buildNextApp, usesGoogleFonts, type NextBuild } from './next-build.ts';
export { buildSvelteKit, packageEntry, svelteConfigOf, viteConfigNaming, wrappedConfig, type EditionAdapter } from './sveltekit-build.ts';
export { buildReactRouter, REACT_ROUTER_OUT, viteConfigOf } from './react-router-build.ts';
export { ASTRO_OUT, astroConfigOf, buildAstro, type AstroAdapter } from './astro-build.ts';
