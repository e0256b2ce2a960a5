/**
 * @rtbench/profile: CPU, allocation and native profiles of a case × variant in
 * an extra process, restricted to the sampling phase, and what they say.
 *
 * - profileCase / profileAllocations / profileNative: take one (.cpuprofile,
 *   .heapprofile, perf as a .cpuprofile), write it, return its summary
 * - summarize / summarizeAllocations: top functions by self time or bytes
 * - diffProfiles: the functions whose share moved most
 * - callTree / allocationTree: compact call trees for the flame graphs
 * - topTable / allocTopTable / diffTable: tables for the reporters to draw
 */
export { profileCase, profileJob, profileWindow, DEFAULT_PROFILE_INTERVAL_US, DEFAULT_PROFILE_TIME_MS, DEFAULT_PROFILE_WARMUP_MS, PROFILE_DIR_PREFIX, type ProfileArm, type ProfileCaseOptions, type ProfileCaseResult } from './capture.ts';
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
export { profileServer, type ServerProfileOptions } from './server-capture.ts';
