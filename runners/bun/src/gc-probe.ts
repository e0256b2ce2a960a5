/**
 * Inside Bun: marks the sampling phase on stderr, where JavaScriptCore's GC
 * log goes (BUN_JSC_logGC=1, set by the plugin when the run asks for the
 * collection counts: gc-trace.ts readsGcLog), with the heap in use at each
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
import type { Job } from '@rtbench/core/protocol';

/** The environment variable that turns JavaScriptCore's GC log on; a variant that sets it itself (--logGC, --no-logGC) decides alone. */
export const GC_LOG_ENV = 'BUN_JSC_logGC';

/**
 * Whether the plugin turns JavaScriptCore's GC log on and reads it (and the
 * probe marks it): only for a job whose run asked for the collection counts
 * (--metrics gc: the job's `collectionLog`), and not when the variant set the
 * variable itself. The log writes lines at every collection, which a program
 * does not pay: in a table of Node core's text-encoder `encode` (a collection
 * every few hundred µs) bun read 1.11× slower with it
 * (docs/how-a-number-is-made.md, "Counting bun's collections").
 */
export function readsGcLog(job: Job, variantSetsLog: boolean): boolean {
  return !variantSetsLog && job.kind !== 'list' && job.options.collectionLog === true;
}

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

/** The probe; `logged`: the GC log is on (readsGcLog), so the sampling phase is marked in it. */
export function gcProbe(heapStats: HeapStats, logged: boolean): MetricsProbe {
  return {
    start: () => {
      if (logged) mark(START);
    },
    stop: () => {
      if (logged) mark(END);
      const usage = process.memoryUsage();
      const stats = heapStats();
      return {
        source: 'process.memoryUsage and bun:jsc heapStats (JSC)',
        heap: { heapSizeBytes: usage.heapTotal, heapUsedBytes: Math.max(0, stats.heapSize - stats.extraMemorySize) },
        unavailable: { gc: "JSC counts its collections only in its GC log, read when the run asks for them (--metrics gc)", external: "JSC counts the memory outside its heap only since its last collection, not what is held" },
      };
    },
    // Read by the harness right after Bun.gc(true): the heap size counts the extra memory that survived it.
    heldBytes: () => heapStats().heapSize,
  };
}
