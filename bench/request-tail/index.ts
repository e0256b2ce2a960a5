/**
 * request-tail: a handler whose every 50th request spends about 6 ms more
 * CPU, beside the same handler without it and a handler that does nothing.
 * What CPU per request shows of a tail: p50 the same, p99 and the share of
 * requests over a CPU limit (--cpu-limit 5ms) moved. README.md.
 */
import { requestSuite, type RequestKind } from '@rtbench/core';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

/** One kind of request: a small JSON body posted to the handler. */
const MIX: RequestKind[] = [{ name: 'small post', weight: 1, request: { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{"note":"hello"}' } }];

/** 251 requests: the first, then 250 warm ones of which five (2%) are planted tails. */
const REQUESTS = 251;

export default requestSuite('request-tail', [
  { name: 'steady handler', handler: here('./steady.ts'), mix: MIX, requests: REQUESTS },
  { name: 'planted tail', params: { every: 50 }, handler: here('./tail.ts'), mix: MIX, requests: REQUESTS },
  { name: 'empty handler', handler: here('./empty.ts'), mix: MIX, requests: REQUESTS },
]);
