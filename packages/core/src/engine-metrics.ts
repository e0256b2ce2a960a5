/**
 * Engine metrics of one process over its sampling phase: collections by kind,
 * bytes allocated, and the heap's state when sampling ended. Declared once
 * here (zod); the protocol and the results file use the inferred type.
 *
 * Runtime bundles import this module for its type only (`import type`), so
 * zod never enters them.
 */
import { z } from 'zod';

const finite = z.number().finite();

/** Collections of one kind during sampling; `timeMs` is the main-thread pause they report. */
export const gcKindSchema = z.object({ count: z.number().int().nonnegative(), timeMs: finite.nonnegative().optional() });

export const engineMetricsSchema = z.object({
  /** Where the numbers come from, e.g. "v8.GCProfiler", "V8 --trace-gc-nvp", "JSC logGC". */
  source: z.string(),
  /** Absent (with `unavailable.gc`) when the runtime cannot say; never a made-up 0. */
  gc: z
    .object({
      /** Scavenges (V8), eden collections (JSC), minor mark-sweeps. */
      minor: gcKindSchema,
      /** Mark-compacts (V8), full collections (JSC). */
      major: gcKindSchema,
      /** Incremental marking steps, where the engine reports them apart from the major GC they belong to. */
      incremental: gcKindSchema.optional(),
      /** Other GC work the engine reports as its own event (V8: weak callbacks). */
      other: gcKindSchema.optional(),
    })
    .optional(),
  /** Bytes allocated on the engine's heap during sampling. */
  allocation: z
    .object({
      bytes: finite.nonnegative(),
      /** How they were counted, e.g. "total_allocated_bytes" or "heap used + freed by each GC". */
      method: z.string(),
      /** True when the count is derived (from GC deltas or trace lines), not an engine counter. */
      estimate: z.boolean(),
    })
    .optional(),
  /** The heap when sampling ended (bytes). */
  heap: z
    .object({
      /** Young generation: committed size (V8 new space; both semi-spaces' active half) and what is in use. */
      youngSizeBytes: finite.nonnegative().optional(),
      youngUsedBytes: finite.nonnegative().optional(),
      /** The largest young generation seen at a GC during sampling. */
      youngPeakSizeBytes: finite.nonnegative().optional(),
      oldSizeBytes: finite.nonnegative().optional(),
      oldUsedBytes: finite.nonnegative().optional(),
      /** V8: where the next major GC is due (old_gen_allocation_limit). */
      oldLimitBytes: finite.nonnegative().optional(),
      heapSizeBytes: finite.nonnegative().optional(),
      heapUsedBytes: finite.nonnegative().optional(),
      heapLimitBytes: finite.nonnegative().optional(),
      /** Bytes outside the heap the engine was told of: ArrayBuffers' backing stores and other external memory (V8 external_memory, JSC extra memory). */
      externalBytes: finite.nonnegative().optional(),
      /**
       * What the engine held for the program (its heap in use and the memory outside it that it was told of), read right
       * after the full collection forced before the first sample and after the one after the last: what the case kept
       * between them, no garbage (MetricsProbe.heldBytes).
       */
      heldReadyBytes: finite.nonnegative().optional(),
      heldEndBytes: finite.nonnegative().optional(),
    })
    .optional(),
  /** Why a part is missing: keys gc, allocation, heap. */
  unavailable: z.record(z.string(), z.string()).optional(),
});

export type EngineMetrics = z.infer<typeof engineMetricsSchema>;
export type GcKindCounts = z.infer<typeof gcKindSchema>;

/**
 * Combines what an entry saw from inside (heap statistics) with what the host
 * read from the engine's trace (collections): each part from whichever side
 * has it, an engine counter preferred over an estimate, and a reason kept
 * only for a part neither side has.
 */
export function mergeEngineMetrics(inside: EngineMetrics | undefined, trace: EngineMetrics): EngineMetrics {
  if (!inside) return trace;
  const allocation =
    inside.allocation && (!inside.allocation.estimate || !trace.allocation) ? inside.allocation : (trace.allocation ?? inside.allocation);
  const gc = inside.gc ?? trace.gc;
  const heap = inside.heap || trace.heap ? { ...trace.heap, ...inside.heap } : undefined;
  const unavailable: Record<string, string> = { ...trace.unavailable, ...inside.unavailable };
  if (gc) delete unavailable.gc;
  if (allocation) delete unavailable.allocation;
  if (heap) delete unavailable.heap;
  return {
    source: inside.source === trace.source ? inside.source : `${inside.source} + ${trace.source}`,
    ...(gc ? { gc } : {}),
    ...(allocation ? { allocation } : {}),
    ...(heap ? { heap } : {}),
    ...(Object.keys(unavailable).length ? { unavailable } : {}),
  };
}
