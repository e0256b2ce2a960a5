/**
 * What an allocation profile says without opening a tool: the functions by
 * the bytes allocated with them on top of the stack (self), in the same
 * categories as CPU time (summary.ts), with bytes per operation when the
 * number of the case's calls in the window is known. Between two arms,
 * diffProfiles() (summary.ts) compares the shares of allocated bytes.
 */
import { MEASURE_FRAMES } from '@rtbench/core/measure';
import type { HeapProfile } from './heapprofile.ts';
import { flattenHeapProfile } from './heapprofile.ts';
import { bundleLocator, type FrameLocation, type FrameLocator } from './source-map.ts';
import type { ProfileNode } from './cpuprofile.ts';
import { CATEGORIES, nodeFrames, weighFunctions, type Category, type NodeFrame, type NodeFramesOptions } from './summary.ts';

interface AllocationStat {
  key: string;
  name: string;
  location?: string;
  category: Category;
  /** Bytes allocated with this function on top of the stack, and on the stack. */
  selfBytes: number;
  totalBytes: number;
  /** Fractions of the profile's bytes (0..1). */
  selfShare: number;
  totalShare: number;
  /** selfBytes per call of the case, when the calls are known. */
  selfBytesPerOp?: number;
}

export interface AllocationSummary {
  /** Bytes the profile accounts for (V8's estimate from its samples). */
  totalBytes: number;
  /** Samples the profile holds. */
  samples: number;
  /** Calls of the case while the profiler ran, when known; then bytes per call. */
  ops?: number;
  bytesPerOp?: number;
  byCategory: Record<Category, { bytes: number; share: number }>;
  /** Every allocating function, by self bytes, largest first. */
  functions: AllocationStat[];
}

/**
 * The harness's timed path (core's MEASURE_FRAMES): the batch loops and the
 * batch timers' closures around them. V8's sampling heap profiler records
 * machine frames, so the case and the helpers the JIT inlined into these are
 * reported as them; their own code allocates only the box of a result that is
 * not a small integer, so their self bytes are shown as the case's. Native
 * profiles name them the same way, or the engine code the case calls would be
 * the harness's (summary.ts nodeFrames). packages/profile/README.md "Inlining".
 */
const TIMED_PATH: ReadonlySet<string> = new Set(MEASURE_FRAMES.timedPath);
const INLINED_SUFFIX = ' (case code inlined into it)';

export interface SummarizeAllocationsOptions {
  bundlePath?: string;
  locate?: FrameLocator;
  /** Calls of the case in the window (for bytes per operation). */
  ops?: number;
}

/** How an allocation profile's frames are named and categorised: the timed path's frames are the case's code inlined into them. */
export const inlinedIntoTimedPath = (name: string, where: FrameLocation): string | undefined => (where.source === MEASURE_FRAMES.source && TIMED_PATH.has(name) ? `${name}${INLINED_SUFFIX}` : undefined);
const ALLOCATION_FRAMES: NodeFramesOptions = { inlined: inlinedIntoTimedPath };

/** Each node's frame as the allocation summary (and the allocation call tree, tree.ts) shows it. */
export function allocationFrames(profile: { nodes: ProfileNode[] }, locate: FrameLocator): Map<number, NodeFrame> {
  return nodeFrames(profile, locate, ALLOCATION_FRAMES);
}

export function summarizeAllocations(profile: HeapProfile, options: SummarizeAllocationsOptions = {}): AllocationSummary {
  const locate = options.locate ?? bundleLocator(options.bundlePath);
  const { nodes, selfBytes } = flattenHeapProfile(profile);
  const { total, byCategory: bytesByCategory, stats } = weighFunctions({ nodes }, selfBytes, locate, ALLOCATION_FRAMES);
  const ops = options.ops !== undefined && options.ops > 0 ? options.ops : undefined;
  const functions = stats.map(({ self, total: all, ...s }): AllocationStat => ({
    ...s,
    selfBytes: self,
    totalBytes: all,
    selfShare: total ? self / total : 0,
    totalShare: total ? all / total : 0,
    ...(ops ? { selfBytesPerOp: self / ops } : {}),
  }));
  const byCategory = {} as Record<Category, { bytes: number; share: number }>;
  for (const c of CATEGORIES) {
    const bytes = bytesByCategory.get(c) ?? 0;
    byCategory[c] = { bytes, share: total ? bytes / total : 0 };
  }
  return { totalBytes: total, samples: profile.samples.length, ...(ops ? { ops, bytesPerOp: total / ops } : {}), byCategory, functions };
}
