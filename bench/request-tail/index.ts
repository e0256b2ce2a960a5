/**
 * request-tail: a handler whose every 50th request spends about 6 ms more
 * CPU, beside the same handler without it and a handler that does nothing.
 * What CPU per request shows of a tail: p50 the same, p99 and the share of
 * requests over a CPU limit (--cpu-limit 5ms) moved. README.md.
 */
import { requestSuite } from '@rtbench/core';
import { REQUESTS, SMALL_POST } from './request.ts';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

export default requestSuite('request-tail', [
  { name: 'steady handler', handler: here('./steady.ts'), mix: SMALL_POST, requests: REQUESTS },
  { name: 'planted tail', params: { every: 50 }, handler: here('./tail.ts'), mix: SMALL_POST, requests: REQUESTS },
  { name: 'empty handler', handler: here('./empty.ts'), mix: SMALL_POST, requests: REQUESTS },
]);
