/**
 * @rtbench/profile: CPU profiles of a case × variant in an extra process,
 * restricted to the sampling phase, and what they say in text.
 *
 * - profileCase(options): take one profile, write the .cpuprofile, return its summary
 * - summarize(profile, { bundlePath }): top functions by self time, by category
 * - diffProfiles(a, b): the functions whose share of self time moved most
 * - callTree(profile, { bundlePath }): a compact call tree (flame graphs)
 * - renderTop / renderDiff: terminal or markdown text
 */
export { profileCase, profileJob, cpuProfFlags, DEFAULT_PROFILE_INTERVAL_US, DEFAULT_PROFILE_TIME_MS, DEFAULT_PROFILE_WARMUP_MS, PROFILE_DIR_PREFIX, type ProfileArm, type ProfileCaseOptions, type ProfileCaseResult } from './capture.ts';
export { parseCpuProfile, restrictToSampling, sampleTimes, type CallFrame, type CpuProfile, type ProfileNode, type SamplingWindow } from './cpuprofile.ts';
export { bundleLocator, type FrameLocation, type FrameLocator } from './source-map.ts';
export { categorize, diffProfiles, nodeFrames, summarize, CATEGORIES, CATEGORY_NOTES, type Category, type DiffEntry, type FunctionStat, type NodeFrame, type ProfileDiff, type ProfileSummary, type SummarizeOptions } from './summary.ts';
export { callTree, DEFAULT_TREE_MAX_NODES, DEFAULT_TREE_MIN_SHARE, type CallTreeOptions } from './tree.ts';
export { manifestDiff, manifestEntry, profileManifest, MANIFEST_MOVERS } from './manifest.ts';
export { categoryLine, renderDiff, renderTop, type DiffRenderOptions, type RenderOptions, type TextFormat } from './render.ts';
