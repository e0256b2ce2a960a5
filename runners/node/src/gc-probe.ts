/**
 * GC by kind, allocation and heap state on Node.js, from inside: node:v8's
 * GCProfiler (every collection with its type and cost in µs) and heap
 * statistics. Allocation is V8's own counter on Node ≥ 26
 * (total_allocated_bytes); on 20–24 it is derived from heap-used deltas and
 * the bytes each GC freed (marked as an estimate).
 */
import v8 from 'node:v8';
import type { MetricsProbe } from '@rtbench/core/execute';
import { v8MetricsProbe, type V8Module } from '@rtbench/core/v8-gc-profiler';

export function gcProbe(): MetricsProbe {
  return v8MetricsProbe(v8 as unknown as V8Module, { source: 'node:v8 GCProfiler', costUnitMs: 1e-3 });
}
