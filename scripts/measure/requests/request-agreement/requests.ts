/**
 * The request side of scripts/measure/requests/request-agreement.ts: request-tail's steady
 * handler, the same work without reading the body, the work twice, and a
 * handler that only reads the body, so the body read, the work and the
 * server's part around it show apart.
 */
import { requestSuite } from '@rtbench/core';
import { REQUESTS, SMALL_POST } from '../../../../bench/request-tail/request.ts';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

export default requestSuite('request-agreement-requests', [
  { name: 'steady handler', handler: here('../../../../bench/request-tail/steady.ts'), mix: SMALL_POST, requests: REQUESTS },
  { name: 'work without body', handler: here('./handlers/work-only.ts'), mix: SMALL_POST, requests: REQUESTS },
  { name: 'work twice without body', handler: here('./handlers/work-twice.ts'), mix: SMALL_POST, requests: REQUESTS },
  { name: 'empty reads body', handler: here('./handlers/empty-reads-body.ts'), mix: SMALL_POST, requests: REQUESTS },
]);
