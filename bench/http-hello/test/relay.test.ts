/** The relay's load request, through the shared relay's JSON handler in this process (no server, no runtime spawned). */
import { describe, expect, it } from 'vitest';
import relay from '../../shared/relay/json-handler.ts';
import { relayRequest } from '../src/relay/request.ts';

const send = (): Promise<Response> => {
  const spec = relayRequest();
  return relay.fetch(new Request(`http://127.0.0.1${spec.path}`, { method: spec.method, body: spec.body ?? null, headers: spec.headers ?? {} }));
};

describe('http-hello relay request', () => {
  it('is relayed with a 2xx (a load round checks its first answer is one) and the same bytes each time', async () => {
    const first = await send();
    expect(first.status).toBe(200);
    const body = await first.text();
    expect(JSON.parse(body)).toMatchObject({ route: expect.stringMatching(/^\/v\d\/relay\//), upstreamBytes: expect.any(Number) });
    expect(await (await send()).text()).toBe(body);
  });
});
