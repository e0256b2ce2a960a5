/**
 * GC by kind, allocation and heap state on Deno, from inside: Deno's node:v8
 * has a working GCProfiler and real heap statistics (PerformanceObserver
 * 'gc' entries never arrive in Deno 2.9). Deno's GCProfiler reports `cost`
 * in ns where Node's is in µs (measured against --trace-gc pauses).
 */
import v8 from 'node:v8';
import type { MetricsProbe } from '@rtbench/core/execute';
import { v8MetricsProbe, type V8Module } from '@rtbench/core/v8-gc-profiler';

export function gcProbe(): MetricsProbe {
  return v8MetricsProbe(v8 as unknown as V8Module, { source: 'node:v8 GCProfiler (Deno)', costUnitMs: 1e-6 });
}
