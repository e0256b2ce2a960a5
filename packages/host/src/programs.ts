/**
 * @rtbench/host/programs: the programs a runtime runs, made on the host: the
 * bundler (one esbuild for every program), NODE_ENV written into bundles, the
 * packages a bundle holds, the program cache, and a bundle's source map.
 */
export { bundleOptions, bundleProgramFor, type BundledProgram } from './bundler.ts';
export { DEFAULT_NODE_ENV, type NodeEnvUse } from './node-env.ts';
export type { BundledPackage } from './bundled-packages.ts';
export { mapBeside, readBundleMap, type BundleSourceMap } from './source-map-file.ts';
export { contentHash, ownerOnlyDir, storeGeneratedModule, storeNamedFile } from './program-cache.ts';
