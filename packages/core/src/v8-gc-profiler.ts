/**
 * Engine metrics from inside a V8 runtime that has `node:v8` (Node.js, Deno):
 * v8.GCProfiler records every collection during sampling with its kind, its
 * cost and the heap before and after; getHeapStatistics and
 * getHeapSpaceStatistics give allocation and the heap's state.
 *
 * Runtime-neutral: the entry passes its `node:v8` module in, so this file
 * imports nothing a runtime might lack.
 */
import type { EngineMetrics, GcKindCounts } from './engine-metrics.ts';
import type { MetricsProbe } from './execute.ts';

interface HeapStatistics {
  used_heap_size: number;
  total_heap_size: number;
  heap_size_limit: number;
  /** Node ≥ 26 and Deno 2.9; absent in Node 20–24. */
  total_allocated_bytes?: number;
  /** Bytes outside the heap V8 was told of (ArrayBuffers' backing stores among them). */
  external_memory?: number;
}

interface SpaceStatistics {
  space_name: string;
  space_size: number;
  space_used_size: number;
}

interface ProfiledHeap {
  heapStatistics: { usedHeapSize: number };
  heapSpaceStatistics: { spaceName: string; spaceSize: number }[];
}

import { max, objectKeys } from './primordials.ts';
export interface GcProfilerStatistic {
  gcType: string;
  cost: number;
  beforeGC: ProfiledHeap;
  afterGC: ProfiledHeap;
}

/** The part of `node:v8` the probe uses. */
export interface V8Module {
  getHeapStatistics(): HeapStatistics;
  getHeapSpaceStatistics(): SpaceStatistics[];
  GCProfiler?: new () => { start(): void; stop(): { statistics: GcProfilerStatistic[] } | undefined };
}

export interface V8ProbeOptions {
  source: string;
  /** Milliseconds per unit of GCProfiler's `cost`: Node reports µs (1e-3), Deno 2.9 ns (1e-6). */
  costUnitMs: number;
}

type Kind = 'minor' | 'major' | 'incremental' | 'other';

/** GCProfiler's gcType names (V8's GCType) by the kind rtbench reports. */
export function gcKindOf(gcType: string): Kind {
  if (gcType === 'Scavenge' || gcType.startsWith('MinorMark')) return 'minor';
  if (gcType === 'MarkSweepCompact') return 'major';
  if (gcType === 'IncrementalMarking') return 'incremental';
  return 'other';
}

/** The first item `pick` accepts (a loop: this runs after case code, which may have replaced Array.prototype.find). */
function firstOf<T>(items: readonly T[], pick: (item: T) => boolean): T | undefined {
  for (let i = 0; i < items.length; i++) if (pick(items[i]!)) return items[i];
  return undefined;
}

function newSpaceSize(heap: ProfiledHeap): number | undefined {
  return firstOf(heap.heapSpaceStatistics, (s) => s.spaceName === 'new_space')?.spaceSize;
}

/** Pure: GC counts by kind, freed bytes and the peak young size from GCProfiler statistics. */
export function summarizeProfile(statistics: readonly GcProfilerStatistic[], costUnitMs: number): {
  gc: NonNullable<EngineMetrics['gc']>;
  freedBytes: number;
  youngPeakSizeBytes: number | undefined;
} {
  const counts: Record<Kind, GcKindCounts> = {
    minor: { count: 0, timeMs: 0 },
    major: { count: 0, timeMs: 0 },
    incremental: { count: 0, timeMs: 0 },
    other: { count: 0, timeMs: 0 },
  };
  let freedBytes = 0;
  let youngPeakSizeBytes: number | undefined;
  for (let i = 0; i < statistics.length; i++) {
    const s = statistics[i]!;
    const kind = counts[gcKindOf(s.gcType)];
    kind.count++;
    kind.timeMs = (kind.timeMs ?? 0) + s.cost * costUnitMs;
    freedBytes += max(0, s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize);
    const young = newSpaceSize(s.afterGC);
    if (young !== undefined) youngPeakSizeBytes = max(youngPeakSizeBytes ?? 0, young);
  }
  return { gc: counts, freedBytes, youngPeakSizeBytes };
}

export function v8MetricsProbe(v8: V8Module, options: V8ProbeOptions): MetricsProbe {
  let before: HeapStatistics | undefined;
  let profiler: InstanceType<NonNullable<V8Module['GCProfiler']>> | undefined;
  return {
    start() {
      before = v8.getHeapStatistics();
      if (v8.GCProfiler) {
        profiler = new v8.GCProfiler();
        profiler.start();
      }
    },
    stop() {
      const profile = profiler?.stop();
      const after = v8.getHeapStatistics();
      const spaces = v8.getHeapSpaceStatistics();
      const space = (name: string): SpaceStatistics | undefined => firstOf(spaces, (s) => s.space_name === name);
      const metrics: EngineMetrics = { source: options.source };
      const unavailable: Record<string, string> = {};
      const summary = profile ? summarizeProfile(profile.statistics, options.costUnitMs) : undefined;
      if (summary) metrics.gc = summary.gc;
      else unavailable.gc = 'this runtime has no v8.GCProfiler';

      if (before?.total_allocated_bytes !== undefined && after.total_allocated_bytes !== undefined) {
        metrics.allocation = { bytes: after.total_allocated_bytes - before.total_allocated_bytes, method: 'v8.getHeapStatistics().total_allocated_bytes', estimate: false };
      } else if (before && summary) {
        // What is in use now, minus what was in use before, plus what each GC freed.
        metrics.allocation = {
          bytes: max(0, after.used_heap_size - before.used_heap_size + summary.freedBytes),
          method: 'heap used at the end − at the start + bytes freed by each GC (GCProfiler)',
          estimate: true,
        };
      } else unavailable.allocation = 'neither total_allocated_bytes nor GCProfiler in this runtime';

      const young = space('new_space');
      const old = space('old_space');
      metrics.heap = {
        ...(young ? { youngSizeBytes: young.space_size, youngUsedBytes: young.space_used_size } : {}),
        ...(summary?.youngPeakSizeBytes !== undefined ? { youngPeakSizeBytes: max(summary.youngPeakSizeBytes, young?.space_size ?? 0) } : {}),
        ...(old ? { oldSizeBytes: old.space_size, oldUsedBytes: old.space_used_size } : {}),
        heapSizeBytes: after.total_heap_size,
        heapUsedBytes: after.used_heap_size,
        heapLimitBytes: after.heap_size_limit,
        ...(after.external_memory !== undefined ? { externalBytes: after.external_memory } : {}),
      };
      if (objectKeys(unavailable).length) metrics.unavailable = unavailable;
      return metrics;
    },
    youngGeneration() {
      const allocatedBytes = v8.getHeapStatistics().total_allocated_bytes;
      const young = firstOf(v8.getHeapSpaceStatistics(), (s) => s.space_name === 'new_space');
      // V8's new space is two semi-spaces, and a scavenge comes when the one allocated into is full: half its size.
      return allocatedBytes === undefined || !young ? undefined : { allocatedBytes, cycleBytes: young.space_size / 2 };
    },
    heldBytes() {
      const now = v8.getHeapStatistics();
      return now.external_memory === undefined ? undefined : now.used_heap_size + now.external_memory;
    },
  };
}
