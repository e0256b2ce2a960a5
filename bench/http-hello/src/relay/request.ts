/**
 * The one request the relay is loaded with: the shared relay's record (bench/shared/relay/fields.ts) for a
 * fixed seed (a short note, as most of the relay's mix is) as its JSON
 * body, so every runtime reads the same bytes and answers the same JSON.
 */
import { encodeBody } from '../../../shared/relay/body.ts';
import { makeFields } from '../../../shared/relay/fields.ts';
import type { HttpRequestSpec } from '@rtbench/host-timed';

const SEED = 66;

export function relayRequest(): HttpRequestSpec {
  const fields = makeFields(SEED);
  const body = new TextDecoder().decode(encodeBody(fields));
  return { method: 'POST', path: '/relay', body, headers: { 'content-type': 'application/json', authorization: `Bearer t${fields.userId}` } };
}
