import { describe, expect, it } from 'vitest';
import { engineMetricsSchema, mergeEngineMetrics } from '../src/engine-metrics.ts';
import { gcKindOf, summarizeProfile, v8MetricsProbe, type GcProfilerStatistic, type V8Module } from '../src/v8-gc-profiler.ts';

const heap = (used: number, young = 1_048_576) => ({ heapStatistics: { usedHeapSize: used }, heapSpaceStatistics: [{ spaceName: 'new_space', spaceSize: young }] });
const stat = (gcType: string, cost: number, before: number, after: number, young?: number): GcProfilerStatistic => ({ gcType, cost, beforeGC: heap(before), afterGC: heap(after, young) });

describe('V8 GCProfiler summary', () => {
  it('splits collections by kind and converts cost to ms', () => {
    expect(['Scavenge', 'MinorMarkSweep', 'MarkSweepCompact', 'IncrementalMarking', 'ProcessWeakCallbacks'].map(gcKindOf)).toEqual(['minor', 'minor', 'major', 'incremental', 'other']);
    const s = summarizeProfile([stat('Scavenge', 500, 10, 4, 2_097_152), stat('Scavenge', 300, 12, 5), stat('MarkSweepCompact', 4000, 20, 8)], 1e-3);
    expect(s.gc.minor).toEqual({ count: 2, timeMs: 0.8 });
    expect(s.gc.major).toEqual({ count: 1, timeMs: 4 });
    expect(s.freedBytes).toBe(6 + 7 + 12);
    expect(s.youngPeakSizeBytes).toBe(2_097_152);
  });

  it('uses total_allocated_bytes where V8 has it, and GC deltas (an estimate) where not', () => {
    const make = (withCounter: boolean): V8Module => {
      let call = 0;
      return {
        getHeapStatistics: () => {
          call++;
          const used = call === 1 ? 1000 : 1500;
          return { used_heap_size: used, total_heap_size: 4000, heap_size_limit: 1e9, ...(withCounter ? { total_allocated_bytes: call === 1 ? 10_000 : 90_000 } : {}) };
        },
        getHeapSpaceStatistics: () => [{ space_name: 'new_space', space_size: 1_048_576, space_used_size: 100 }],
        GCProfiler: class {
          start(): void {}
          stop() {
            return { statistics: [stat('Scavenge', 100, 3000, 1000)] };
          }
        },
      };
    };
    for (const [withCounter, bytes, estimate] of [[true, 80_000, false], [false, 500 + 2000, true]] as const) {
      const probe = v8MetricsProbe(make(withCounter), { source: 'test', costUnitMs: 1e-3 });
      probe.start();
      const m = probe.stop() as ReturnType<typeof engineMetricsSchema.parse>;
      expect(engineMetricsSchema.parse(m)).toEqual(m);
      expect(m.allocation).toMatchObject({ bytes, estimate });
      expect(m.gc?.minor.count).toBe(1);
      expect(m.heap?.youngSizeBytes).toBe(1_048_576);
      // The young generation's cycle: half the new space (one semi-space), beside the allocation counter where V8 has one.
      expect(probe.youngGeneration?.()).toEqual(withCounter ? { allocatedBytes: expect.any(Number), cycleBytes: 524_288 } : undefined);
    }
  });

  it('says no young generation without a new space', () => {
    const probe = v8MetricsProbe(
      { getHeapStatistics: () => ({ used_heap_size: 1, total_heap_size: 2, heap_size_limit: 3, total_allocated_bytes: 7 }), getHeapSpaceStatistics: () => [{ space_name: 'old_space', space_size: 8, space_used_size: 1 }] },
      { source: 'test', costUnitMs: 1e-3 },
    );
    expect(probe.youngGeneration?.()).toBeUndefined();
  });
});

describe('mergeEngineMetrics', () => {
  it('takes collections from the trace and the heap from inside, dropping reasons that no longer apply', () => {
    const merged = mergeEngineMetrics(
      { source: 'inside', heap: { heapUsedBytes: 5 }, unavailable: { gc: 'no counter in-process' } },
      { source: 'trace', gc: { minor: { count: 3 }, major: { count: 0 } }, allocation: { bytes: 10, method: 'm', estimate: true }, heap: { heapUsedBytes: 4, youngSizeBytes: 8 } },
    );
    expect(merged).toEqual({
      source: 'inside + trace',
      gc: { minor: { count: 3 }, major: { count: 0 } },
      allocation: { bytes: 10, method: 'm', estimate: true },
      heap: { heapUsedBytes: 5, youngSizeBytes: 8 },
    });
  });
});
