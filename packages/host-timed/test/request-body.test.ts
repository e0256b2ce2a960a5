/** A response body read within a bound and digested by one function, and how the wrapper's record classes each request. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BodyBudget, digestResponse, readBoundedBody } from '../src/request/body.ts';
import { ownOriginOff, requestInit } from '../src/request/round.ts';
import { everyAnswerAnError, parseServed, requestEnd, type EndedRequest } from '../src/request/outcomes.ts';
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

describe('BodyBudget', () => {
  it('holds readers past the budget until bytes are given back; the first holder always goes on', async () => {
    const budget = new BodyBudget(100);
    const [a, b] = [{}, {}];
    await budget.take(a, 60);
    let bTook = false;
    const bWaits = budget.take(b, 50).then(() => (bTook = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(bTook).toBe(false);
    // The first holder goes on past the budget: the reads never wait on each other in a circle.
    await budget.take(a, 60);
    expect(budget.heldBytes).toBe(120);
    budget.give(a);
    await bWaits;
    expect(bTook).toBe(true);
    expect(budget.heldBytes).toBe(50);
    budget.give(b);
    expect(budget.heldBytes).toBe(0);
    // Within the budget no one waits.
    await budget.take(a, 100);
    expect(budget.heldBytes).toBe(100);
  });

  it('a body read within a budget takes each chunk before keeping it', async () => {
    const taken: number[] = [];
    const parts = [new Uint8Array(3), new Uint8Array(5)];
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) });
    await readBoundedBody(stream, 100, async (n) => void taken.push(n));
    expect(taken).toEqual([3, 5]);
  });
});

describe("a redirect is the handler's answer", () => {
  it('is never followed', () => {
    expect(requestInit({ path: '/' }, 1000).redirect).toBe('manual');
    expect(requestInit({ path: '/', method: 'POST', body: 'x' }, 1000)).toMatchObject({ method: 'POST', body: 'x', redirect: 'manual' });
  });

  it('to another host, a name or the same host by another port, is answered as it is and nothing else is asked', async () => {
    let reached = 0;
    const other = createServer((_req, res) => {
      reached++;
      res.end('elsewhere');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    const targets = [`http://127.0.0.1:${otherPort}/`, `//127.0.0.1:${otherPort}/x`, 'http://rtbench-nowhere.invalid/', `http://localhost:${otherPort}/`];
    let n = 0;
    const own = createServer((_req, res) => {
      res.writeHead([301, 302, 303, 307, 308][n % 5]!, { location: targets[n++ % targets.length]! });
      res.end();
    });
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const port = (own.address() as AddressInfo).port;
    try {
      for (let i = 0; i < 10; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/`, requestInit({ path: '/', method: i % 2 ? 'POST' : 'GET', ...(i % 2 ? { body: 'x' } : {}) }, 5000));
        expect(response.status).toBe([301, 302, 303, 307, 308][i % 5]);
        expect(ownOriginOff(response.headers.get('location'), port)).toBe(targets[i % targets.length]);
        await response.arrayBuffer();
      }
      expect(reached).toBe(0);
    } finally {
      await new Promise((resolve) => own.close(resolve));
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("where it points is digested, the server's own origin taken off (its port is the run's)", () => {
    const body = new TextEncoder().encode('moved');
    expect(digestResponse(302, body, { location: '/heavy' })).not.toBe(digestResponse(302, body, { location: '/light' }));
    expect(digestResponse(302, body, { location: '/heavy' })).not.toBe(digestResponse(302, body));
    expect(digestResponse(302, body, {})).toBe(digestResponse(302, body));
    expect(digestResponse(302, body, { location: '/heavy' })).toMatch(/^302 → \/heavy [0-9a-f]{64}$/);
    expect(ownOriginOff('http://127.0.0.1:4100/heavy?x=1', 4100)).toBe('/heavy?x=1');
    expect(ownOriginOff('http://127.0.0.1:4100', 4100)).toBe('/');
    expect(ownOriginOff('http://127.0.0.1:41000/heavy', 4100)).toBe('http://127.0.0.1:41000/heavy');
    expect(ownOriginOff('http://127.0.0.2:4100/', 4100)).toBe('http://127.0.0.2:4100/');
    expect(ownOriginOff(null, 4100)).toBeNull();
  });
});

describe('digestResponse', () => {
  it('tells responses apart by status and by body, and gives the same digest for the same response', () => {
    const body = new TextEncoder().encode('hello');
    expect(digestResponse(200, body)).toBe(digestResponse(200, new TextEncoder().encode('hello')));
    expect(digestResponse(200, body)).not.toBe(digestResponse(201, body));
    expect(digestResponse(200, body)).not.toBe(digestResponse(200, new TextEncoder().encode('hellp')));
    expect(digestResponse(200, body)).toMatch(/^200 [0-9a-f]{64}$/);
    // Its media type is what it means: a restated default charset is none, another type is.
    expect(digestResponse(200, body, undefined, 'application/json')).toBe(digestResponse(200, body, undefined, 'application/json; charset=UTF-8'));
    expect(digestResponse(200, body, undefined, 'application/json')).not.toBe(digestResponse(200, body, undefined, 'text/plain'));
  });

  it('with the headers a suite declared, by name in a fixed order, beside where a redirect points', () => {
    const body = new TextEncoder().encode('hello');
    expect(digestResponse(200, body, { etag: '"a"', 'x-cache': 'HIT' }, 'text/plain')).toMatch(/^200 text\/plain etag: "a" x-cache: HIT [0-9a-f]{64}$/);
    expect(digestResponse(200, body, { 'x-cache': 'HIT', etag: '"a"' })).toBe(digestResponse(200, body, { etag: '"a"', 'x-cache': 'HIT' }));
    expect(digestResponse(200, body, { 'x-cache': 'HIT' })).not.toBe(digestResponse(200, body, { 'x-cache': 'MISS' }));
    expect(digestResponse(301, body, { location: '/a', 'x-cache': 'HIT' })).toMatch(/^301 → \/a x-cache: HIT [0-9a-f]{64}$/);
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

describe('a server that answered every request with an error', () => {
  const error = (status: number, said?: string): EndedRequest => ({ end: 'serverError', status, ...(said ? { said } : {}) });

  it('fails in one line: the runtime, the status, how many of how many, the first answer', () => {
    expect(everyAnswerAnError('node', [error(503, 'the database is down'), error(503, 'later'), { end: 'noAnswer' }], 3)).toBe('the node server answered 503 to 2 of 3 requests and none with a status below 500 (the database is down)');
  });

  it("counts the wrapper's 500 for a throw or a non-Response as an error answer, and names every status once", () => {
    const ended: EndedRequest[] = [error(502), { end: 'threw', status: 500, said: 'the handler threw' }, { end: 'notAResponse', status: 500 }, error(502)];
    expect(everyAnswerAnError('deno', ended, 4)).toBe('the deno server answered 500/502 to 4 of 4 requests and none with a status below 500');
  });

  it('leaves a round with one answer below 500 to be measured, and one with no answer to its own failure', () => {
    expect(everyAnswerAnError('bun', [error(500), { end: 'ok', status: 404 }], 2)).toBeUndefined();
    expect(everyAnswerAnError('bun', [{ end: 'noAnswer' }, { end: 'noAnswer' }], 2)).toBeUndefined();
    expect(everyAnswerAnError('bun', [], 2)).toBeUndefined();
  });
});
