/** A response body read within a bound and digested by one function, and how the wrapper's record classes each request. */
import { describe, expect, it } from 'vitest';
import { digestResponse, readBoundedBody } from '../src/request/body.ts';
import { parseServed, requestEnd } from '../src/request/outcomes.ts';
import { wrapHandler } from '../src/request/handler.ts';
import { RESERVED } from '../src/request/paths.ts';

/** A stream that never ends, counting the chunks it was asked for. */
function endless(chunkBytes: number): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(chunkBytes));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

describe('readBoundedBody', () => {
  it('stops a body that never ends once it passes the bound, cancels it, and keeps none of it', async () => {
    const body = endless(1000);
    expect(await readBoundedBody(body.stream, 10_000)).toEqual({ tooLong: true });
    expect(body.cancelled()).toBe(true);
    // The chunks up to the bound and the one over it, and the one the stream queued ahead: never more.
    expect(body.pulled()).toBeLessThanOrEqual(13);
  });

  it('gives a body within the bound whole, its chunks in order, and a missing body as no bytes', async () => {
    const parts = [new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5, 6])];
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) });
    expect(await readBoundedBody(stream, 6)).toEqual({ bytes: new Uint8Array([1, 2, 3, 4, 5, 6]) });
    expect(await readBoundedBody(null)).toEqual({ bytes: new Uint8Array(0) });
  });
});

describe('digestResponse', () => {
  it('tells responses apart by status and by body, and gives the same digest for the same response', () => {
    const body = new TextEncoder().encode('hello');
    expect(digestResponse(200, body)).toBe(digestResponse(200, new TextEncoder().encode('hello')));
    expect(digestResponse(200, body)).not.toBe(digestResponse(201, body));
    expect(digestResponse(200, body)).not.toBe(digestResponse(200, new TextEncoder().encode('hellp')));
    expect(digestResponse(200, body)).toMatch(/^200 [0-9a-f]{64}$/);
  });
});

describe("the wrapper's record of how each call ended", () => {
  const call = async (wrapped: ReturnType<typeof wrapHandler>, path: string): Promise<Response> => wrapped.fetch(new Request(`http://127.0.0.1${path}`));

  it('records what the handler did, whatever headers its response claims, and answers it on the outcomes path', async () => {
    let n = 0;
    const wrapped = wrapHandler({
      fetch() {
        n++;
        if (n === 1) return new Response('chose', { status: 503, headers: { 'x-rtbench-outcome': 'threw' } });
        if (n === 2) throw new Error('thrown');
        if (n === 3) return 'a string';
        return new Response('fine');
      },
    });
    for (let i = 0; i < 4; i++) await call(wrapped, '/x');
    const served = parseServed(await (await call(wrapped, RESERVED.outcomes)).text());
    expect(served).toEqual([503, 'threw', 'not-a-response', 200]);
    expect(['a', 'b', 'c', 'd'].map((_, i) => requestEnd({ status: i === 3 ? 200 : i === 0 ? 503 : 500 }, served, i))).toEqual(['serverError', 'threw', 'notAResponse', 'ok']);
  });

  it('a call that never returned is no answer from the handler, whoever answered; no record leaves the status alone', () => {
    expect(requestEnd({ status: 500 }, [200, null], 1)).toBe('noAnswer');
    expect(requestEnd({ status: 500 }, [200], 1)).toBe('noAnswer');
    expect(requestEnd({ none: 'timed out' }, [200], 0)).toBe('noAnswer');
    expect(requestEnd({ none: 'body too long' }, undefined, 0)).toBe('noAnswer');
    expect(requestEnd({ status: 500 }, undefined, 0)).toBe('serverError');
    expect(requestEnd({ status: 204 }, undefined, 0)).toBe('ok');
  });

  it('a handler that returned a 500 chose a 5xx, the first status that is one; a 499 is an answer', () => {
    expect(requestEnd({ status: 500 }, [500], 0)).toBe('serverError');
    expect(requestEnd({ status: 499 }, [499], 0)).toBe('ok');
    expect(requestEnd({ status: 499 }, undefined, 0)).toBe('ok');
  });

  it('refuses a record that is not one', () => {
    // One entry that is not an outcome spoils the record, wherever it stands.
    for (const text of ['', '{', '{"0":200}', '[1.5]', '["ok"]', '[true]', '[200,"ok"]', '["ok",200]', '[200,"200"]']) expect(parseServed(text), text).toBeUndefined();
    expect(parseServed('[200,null,"threw"]')).toEqual([200, null, 'threw']);
  });
});
