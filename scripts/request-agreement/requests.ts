/**
 * The request side of scripts/request-agreement.ts: request-tail's steady
 * handler, the same work without reading the body, and a handler that only
 * reads the body, so the body read and the work show apart.
 */
import { requestSuite, type RequestKind } from '@rtbench/core';

const here = (file: string): string => new URL(file, import.meta.url).pathname;
/** request-tail's request: a small JSON body. */
const MIX: RequestKind[] = [{ name: 'small post', weight: 1, request: { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{"note":"hello"}' } }];
const REQUESTS = 251;

export default requestSuite('request-agreement-requests', [
  { name: 'steady handler', handler: here('../../bench/request-tail/steady.ts'), mix: MIX, requests: REQUESTS },
  { name: 'work without body', handler: here('./handlers/work-only.ts'), mix: MIX, requests: REQUESTS },
  { name: 'empty reads body', handler: here('./handlers/empty-reads-body.ts'), mix: MIX, requests: REQUESTS },
]);
