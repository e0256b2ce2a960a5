/**
 * @rtbench/profile: CPU profiles of a case × variant in an extra process,
 * restricted to the sampling phase, and what they say as tables.
 *
 * - profileCase(options): take one profile, write the .cpuprofile, return its summary
 * - summarize(profile, { bundlePath }): top functions by self time, by category
 * - diffProfiles(a, b): the functions whose share of self time moved most
 * - callTree(profile, { bundlePath }): a compact call tree (flame graphs)
 * - allocationTree(heapProfile, { bundlePath }): the same by allocated bytes (allocation flame graphs)
 * - topTable / diffTable: their top functions and movers as tables, for the reporters to draw
 * - profileAllocations(options): an allocation profile (V8's sampling heap profiler over the inspector), its .heapprofile and summary
 * - summarizeAllocations(profile, { bundlePath, ops }): top functions by self bytes; diffProfiles and diffTable take it too
 * - allocTopTable: its table
 * - profileNative(options): a native profile (perf, the engine's C++ frames and named JIT code) as a .cpuprofile, its summary and call tree
 */
export { profileCase, profileJob, DEFAULT_PROFILE_INTERVAL_US, DEFAULT_PROFILE_TIME_MS, DEFAULT_PROFILE_WARMUP_MS, PROFILE_DIR_PREFIX, type ProfileArm, type ProfileCaseOptions, type ProfileCaseResult } from './capture.ts';
export { parseCpuProfile, restrictToSampling, sampleTimes, type CallFrame, type CpuProfile, type ProfileNode, type SamplingWindow } from './cpuprofile.ts';
export { bundleLocator, type FrameLocation, type FrameLocator } from './source-map.ts';
export { categorize, diffProfiles, nodeFrames, summarize, weighFunctions, CATEGORIES, CATEGORY_NOTES, type Category, type DiffEntry, type FunctionStat, type NodeFrame, type NodeFramesOptions, type ProfileDiff, type ProfileSummary, type Shares, type SummarizeOptions } from './summary.ts';
export { allocationTree, callTree, DEFAULT_TREE_MAX_NODES, DEFAULT_TREE_MIN_SHARE, type CallTreeOptions } from './tree.ts';
export { allocationEntry, manifestDiff, manifestEntry, profileManifest, MANIFEST_MOVERS } from './manifest.ts';
export { allocTopTable, diffTable, topTable, type DiffTableOptions, type TableOptions } from './tables.ts';
export { profileAllocations, DEFAULT_ALLOC_INTERVAL_BYTES, type AllocationCaseOptions, type AllocationCaseResult } from './alloc-capture.ts';
export { allocationFrames, summarizeAllocations, type AllocationStat, type AllocationSummary, type SummarizeAllocationsOptions } from './alloc-summary.ts';
export { checkHeapProfile, flattenHeapProfile, parseHeapProfile, type HeapProfile, type HeapProfileNode, type HeapProfileSample } from './heapprofile.ts';
export { profileNative, DEFAULT_NATIVE_PERIOD_US, type NativeCaseOptions, type NativeCaseResult, type NativeResolution, type NativeTimings } from './native-capture.ts';
export { foldTemplateArguments, harnessFrames, nameFrame, nestedName, nativeCategory, nativeSymbolsOf, nativeToCpuProfile, NO_SYMBOLS, TIMED_LOOP, type HarnessFrameKind, type NamedFrame, type NativeProfile } from './native-frames.ts';
export { parsePerfScript, PERF_SCRIPT_FIELDS, type PerfFrame, type PerfSample } from './perf-script.ts';
export { parseJitdump, perfMapLines, type JitCode } from './jitdump.ts';
