/**
 * GC by kind, allocation and heap state on Node.js, from inside: node:v8's
 * GCProfiler (every collection with its type and cost in µs) and heap
 * statistics. Allocation is V8's own counter on Node ≥ 26
 * (total_allocated_bytes); on 20–24 it is derived from heap-used deltas and
 * the bytes each GC freed (marked as an estimate).
 */
import type { MetricsProbe } from '@rtbench/core/execute';
import { v8MetricsProbe, type V8Module } from '@rtbench/core/v8-gc-profiler';
import { nodeBuiltin } from './builtins.ts';

export function gcProbe(): MetricsProbe {
  return v8MetricsProbe(nodeBuiltin('node:v8') as V8Module, { source: 'node:v8 GCProfiler', costUnitMs: 1e-3 });
}
