/**
 * relay-served's handlers on node, as the host would call them: the same
 * record read from a JSON body and from a binary frame gives the same
 * response, the upstream's error comes back as a verbose 502, a long note
 * is relayed, and a note with a control character is refused.
 */
import { describe, expect, it } from 'vitest';
import { drawRequests } from '@rtbench/core/request';
import { type RequestShape } from '@rtbench/core';
import { encodeBody } from '../../shared/relay/body.ts';
import { makeFields } from '../../shared/relay/fields.ts';
import { encodeFrame } from '../../shared/relay/frame.ts';
import frameHandler from '../../shared/relay/frame-handler.ts';
import jsonHandler from '../../shared/relay/json-handler.ts';
import { relayMix } from '../mix.ts';
import { FAIL_HEADER } from '../../shared/relay/upstream-reply.ts';

const asRequest = (r: RequestShape): Request => new Request(`http://127.0.0.1${r.path}`, { method: r.method ?? 'GET', headers: r.headers ?? {}, body: (r.body ?? null) as BodyInit | null });

async function answer(handler: { fetch(r: Request): Promise<Response> }, shape: RequestShape): Promise<{ status: number; body: string }> {
  const response = await handler.fetch(asRequest(shape));
  return { status: response.status, body: await response.text() };
}

const post = (body: Uint8Array, headers: Record<string, string> = {}): RequestShape => ({ method: 'POST', path: '/relay', headers: { authorization: 'Bearer t1', ...headers }, body });

describe('relay-served handlers', () => {
  it('a JSON body and a binary frame of one record get the same response; an upstream error comes back verbose', async () => {
    const f = makeFields(7);
    const ok = await answer(jsonHandler, post(encodeBody(f)));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ route: f.route, usage: { input: f.attachment.length } });
    expect(await answer(frameHandler, post(encodeFrame(f)))).toEqual(ok);
    const failed = await answer(jsonHandler, post(encodeBody(f), { [FAIL_HEADER]: '100' }));
    expect(failed.status).toBe(502);
    expect(JSON.parse(failed.body).error.stack).toHaveLength(100);
    expect(failed.body.length).toBeGreaterThan(8_000);
    expect(await answer(frameHandler, post(encodeFrame(f), { [FAIL_HEADER]: '100' }))).toEqual(failed);
  });

  it('a long note is relayed and one with a control character is refused', async () => {
    const f = makeFields(8);
    const long = { ...f, note: 'déjà vu '.repeat(4000) };
    expect((await answer(frameHandler, post(encodeFrame(long)))).status).toBe(200);
    const bad = { ...f, note: 'ring the bell \u0007' };
    expect(await answer(jsonHandler, post(encodeBody(bad)))).toMatchObject({ status: 400 });
  });

  it('the mix draws short notes, long notes and error bodies, in both encodings the handlers read', async () => {
    for (const [encoding, handler] of [['json', jsonHandler], ['frame', frameHandler]] as const) {
      const drawn = drawRequests({ name: encoding, handler: '', mix: relayMix(encoding) }, 400).map((d) => ({ kind: d.kind, shape: d.request }));
      const byKind = new Map<string, typeof drawn>();
      for (const d of drawn) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d]);
      expect([...byKind.keys()].sort()).toEqual(['error body', 'long note', 'short note']);
      for (const [kind, statuses] of [['short note', [200]], ['long note', [200]], ['error body', [502]]] as const) {
        for (const d of byKind.get(kind)!.slice(0, 3)) expect(statuses).toContain((await answer(handler, d.shape)).status);
      }
      expect(Math.min(...byKind.get('long note')!.map((d) => (d.shape.body as Uint8Array).length))).toBeGreaterThan(8_000);
    }
  });
});
