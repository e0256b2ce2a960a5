/** What a request-cpu run records: the CPU limit per request older runs kept as the measurer's option; its words. */
import { MAX_CPU_LIMIT_MS } from '@rtbench/core';
import { z } from 'zod';
import type { MeasurerRecord } from './record.ts';
import { timedMethod } from './timed-methods.ts';

const WHAT = "each round starts a fresh server of each variant (its runtime's own, as its plug-in declares it: a fetch server of its own, node:http with a fetch adapter where it declares none, or the socket of a runtime that serves modules) and sends the declared requests one at a time on 127.0.0.1 (with --concurrency N, N in flight, in waves); a request's CPU is read by the host from /proc/<pid>/task/<tid>/schedstat before it is sent and after its response, once the threads are idle (with N in flight: around the wave, shared by the requests answered in it); a sample is one request, the first the process's first";

/**
 * Runs saved when the CPU limit per request was this measurer's option kept
 * it among their options; it is now a view option (--cpu-limit), and such a
 * run is shown with the limit it was saved with unless another is given.
 */
export const REQUEST_CPU_RECORD: MeasurerRecord = {
  kind: 'request-cpu',
  schema: z.object({ cpuLimitMs: z.number().positive().max(MAX_CPU_LIMIT_MS).optional() }),
  olderKeys: ['cpuLimitMs'],
  older: (o) => (typeof o.cpuLimitMs === 'number' ? { cpuLimitMs: o.cpuLimitMs } : undefined),
  shownWith: (fields) => (typeof fields.cpuLimitMs === 'number' ? { cpuLimitMs: fields.cpuLimitMs } : {}),
  describe: () => timedMethod(WHAT),
};
