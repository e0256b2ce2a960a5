/**
 * relay-served: the relay request-relay times in parts, as whole requests, served by each
 * runtime's own server and read by CPU per request (docs/requests.md): the
 * body read (`await request.json()`, or the binary frame's bytes), the
 * upstream Request and Headers built, a ~400 B upstream reply parsed, the
 * response serialized and built, over a mix of short notes, long notes
 * and verbose upstream errors. README.md.
 */
import { requestSuite } from '@rtbench/core';
import { relayMix } from './mix.ts';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

/** Requests per process: the first, then 150 warm ones. */
const REQUESTS = 151;

export default requestSuite('relay-served', [
  { name: 'JSON body', handler: here('../shared/relay/json-handler.ts'), mix: relayMix('json'), requests: REQUESTS },
  { name: 'binary frame', handler: here('../shared/relay/frame-handler.ts'), mix: relayMix('frame'), requests: REQUESTS },
]);

export { claims } from './claims.ts';
