/**
 * Inside Bun: marks the sampling phase on stderr, where JavaScriptCore's GC
 * log goes (BUN_JSC_logGC=1, set by the plugin), with the heap in use at each
 * end; the host counts the collections in between (gc-trace.ts). The heap's
 * state at the end comes from bun:jsc's heapStats(), which brings JSC's
 * figures up to date (process.memoryUsage() alone may read them stale, even
 * 0): its heap size counts the extra memory (ArrayBuffers' backing stores and
 * other memory outside the cells) reported since the last collection, which
 * is taken out of the heap in use. Between collections that extra memory
 * is not what is held outside the heap (garbage counts in it until the next
 * collection), so the bytes outside the heap when sampling ends are not
 * reported. Right after a full collection (Bun.gc(true)) it is what
 * survived, so what the engine holds then (heldBytes) is the heap size with
 * it. JSC has no young/old split to report.
 */
import { writeSync } from 'node:fs';
import type { MetricsProbe } from '@rtbench/core/execute';

// Kept equal to @rtbench/process's SAMPLING_START_MARKER / SAMPLING_END_MARKER (the bundle does not import it).
const START = '@@rtbench-gc sampling-start';
const END = '@@rtbench-gc sampling-end';

function mark(marker: string): number {
  const { heapUsed } = process.memoryUsage();
  writeSync(2, `${marker} heapUsed=${heapUsed}\n`);
  return heapUsed;
}

/** The part of bun:jsc's heapStats() the probe reads (the entry passes it in: only the entry is typed against Bun). */
export type HeapStats = () => { heapSize: number; extraMemorySize: number };

export function gcProbe(heapStats: HeapStats): MetricsProbe {
  return {
    start: () => {
      mark(START);
    },
    stop: () => {
      mark(END);
      const usage = process.memoryUsage();
      const stats = heapStats();
      return {
        source: 'process.memoryUsage and bun:jsc heapStats (JSC)',
        heap: { heapSizeBytes: usage.heapTotal, heapUsedBytes: Math.max(0, stats.heapSize - stats.extraMemorySize) },
        unavailable: { gc: 'JSC has no collection counter in-process', external: "JSC counts the memory outside its heap only since its last collection, not what is held" },
      };
    },
    // Read by the harness right after Bun.gc(true): the heap size counts the extra memory that survived it.
    heldBytes: () => heapStats().heapSize,
  };
}
