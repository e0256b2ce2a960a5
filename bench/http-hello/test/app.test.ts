/** The framework app's three parts, through Hono's fetch handler in this process (no server, no runtime spawned). */
import { describe, expect, it } from 'vitest';
import { app } from '../src/app/hono.ts';
import { HELLO, TIMING_HEADER } from '../src/app/shape.ts';

const get = (path: string): Promise<Response> => Promise.resolve(app.fetch(new Request(`http://127.0.0.1${path}`)));

describe('http-hello framework app (Hono)', () => {
  it('routes by path and parameter, and the timing middleware stamps every answer', async () => {
    const hello = await get('/');
    expect(await hello.text()).toBe(HELLO);
    const user = await get('/users/42');
    expect(user.status).toBe(200);
    expect(await user.text()).toBe('{"id":"42","name":"user 42","roles":["reader"]}');
    for (const r of [hello, user]) expect(r.headers.get(TIMING_HEADER)).toMatch(/^\d+\.\d\dms$/);
  });

  it('the error handler turns a thrown error into a JSON 500, still timed', async () => {
    const r = await get('/boom');
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ error: 'boom' });
    expect(r.headers.get(TIMING_HEADER)).toMatch(/ms$/);
  });
});
