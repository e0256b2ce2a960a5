/**
 * Inside the worker: heap statistics read as zeros in workerd, so the probe
 * only marks the sampling phase in workerd's stdout, where V8's
 * --trace-gc-nvp lines go too (console.log lands there in order); the host
 * counts the collections between the markers (gc-trace.ts).
 */
import type { MetricsProbe } from '@rtbench/core/execute';

// Kept equal to @rtbench/process's SAMPLING_START_MARKER / SAMPLING_END_MARKER (the bundle does not import it).
const START = '@@rtbench-gc sampling-start';
const END = '@@rtbench-gc sampling-end';

export function gcProbe(): MetricsProbe {
  return {
    start: () => console.log(START),
    stop: () => {
      console.log(END);
      return undefined;
    },
  };
}
