/** What request-tail sends, shared with the scripts that read its handlers beside the loop. */
import type { RequestKind } from '@rtbench/core';

/** One kind of request: a small JSON body posted to the handler. */
export const SMALL_POST: RequestKind[] = [{ name: 'small post', weight: 1, request: { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{"note":"hello"}' } }];

/** 251 requests a process: the first, then 250 warm ones of which five (2%) are planted tails. */
export const REQUESTS = 251;
