/**
 * @rtbench/arms: the arms a run compares, named and found before it runs.
 * The variant syntax and a variant resolved to its binary (variants.ts), the
 * runtime store that installs them (runtime-store.ts), what the store lists
 * (runtime-listing.ts: every known spec, and what a platform would use;
 * runtime-releases.ts: one runtime's releases that can be named, and which are here;
 * release-listing.ts: a runtime's releases or a package's versions over a
 * range, or the latest few, which bisect and the release matrix measure),
 * and the packages an arm pins, checked against the suite's imports and
 * installed (package-pins.ts). The CLI plans with it and the planners list
 * releases through it; the run measures what it resolved.
 */
export { numberRepeats, parseRuntimeList, parseVariant, pinsAlone, pinText, quotePart, resolveVariant, splitVariantList, VARIANT_SYNTAX } from './variants.ts';
export { isCacheEntryName, runtimeCacheDir, runtimeStore } from './runtime-store.ts';
export { listRuntimes, platformView, type PlatformView, type RuntimeRow } from './runtime-listing.ts';
export { listReleases, NEWEST_LISTED, type ReleasesListing } from './runtime-releases.ts';
export { listLatest, listRange, parseRange, releaseVariant, type ReleaseRange, type SkippedVersion } from './release-listing.ts';
export { listBundler, pinPackages } from './package-pins.ts';
