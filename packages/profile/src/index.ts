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
export { profileCase, profileWindow, type ProfileArm, type ProfileCaseResult } from './capture.ts';
export { parseCpuProfile, restrictToSampling, type CallFrame, type CpuProfile } from './cpuprofile.ts';
export { bundleLocator, type FrameLocator } from './source-map.ts';
export { categorize, diffProfiles, summarize, type NodeFramesOptions, type Shares } from './summary.ts';
export { allocationTree, callTree } from './tree.ts';
export { allocationEntry, manifestDiff, manifestEntry, profileManifest } from './manifest.ts';
export { allocTopTable, diffTable, topTable } from './tables.ts';
export { profileAllocations, type AllocationCaseResult } from './alloc-capture.ts';
export { summarizeAllocations } from './alloc-summary.ts';
export { parseHeapProfile, type HeapProfile, type HeapProfileNode } from './heapprofile.ts';
export { profileNative, type NativeCaseResult } from './native-capture.ts';
export { foldTemplateArguments, harnessFrames, nameFrame, nestedName, nativeCategory, nativeSymbolsOf, nativeToCpuProfile, TIMED_LOOP, type NamedFrame } from './native-frames.ts';
export { parsePerfScript, type PerfFrame, type PerfSample } from './perf-script.ts';
export { parseJitdump, perfMapLines } from './jitdump.ts';
export { profileServer } from './server-capture.ts';
