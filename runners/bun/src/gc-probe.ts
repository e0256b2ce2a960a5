/**
 * Inside Bun: marks the sampling phase on stderr, where JavaScriptCore's GC
 * log goes (BUN_JSC_logGC=1, set by the plugin), with the heap in use at each
 * end; the host counts the collections in between (gc-trace.ts). The heap's
 * state comes from process.memoryUsage() (JSC's heap size and capacity; JSC
 * has no young/old split to report).
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

export function gcProbe(): MetricsProbe {
  return {
    start: () => {
      mark(START);
    },
    stop: () => {
      mark(END);
      const usage = process.memoryUsage();
      return {
        source: 'process.memoryUsage (JSC)',
        heap: { heapSizeBytes: usage.heapTotal, heapUsedBytes: usage.heapUsed },
        unavailable: { gc: 'JSC has no collection counter in-process' },
      };
    },
  };
}
