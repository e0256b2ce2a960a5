/**
 * A request case's server in a runtime that runs programs as processes
 * (request/listen.ts): the handler, wrapped, is served by the fetch server
 * the plug-in declares when it declares one. On a stand-in server: nothing
 * listens, no process is started.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServeFetch } from '@rtbench/runtime-kit';
import { serveRequests } from '../src/request/listen.ts';
import { RESERVED } from '../src/request/paths.ts';

describe('serveRequests', () => {
  // The wrapper counts the handler's console lines by replacing console's
  // methods for the server's life; this file shares its worker with other
  // pure tests, so the methods are put back after it.
  const consoleMethods = { ...console };
  // A served process exits on SIGTERM (so a profiled server writes its profile); that handler would end
  // the shared worker when another file emits SIGTERM, so the ones added here are taken off again.
  const sigtermBefore = process.listeners('SIGTERM');
  afterEach(() => {
    Object.assign(console, consoleMethods);
    for (const added of process.listeners('SIGTERM').filter((l) => !sigtermBefore.includes(l))) process.off('SIGTERM', added);
  });

  it("hands the plug-in's fetch server the wrapped handler: the module's answers, the reserved paths, no thread clock", async () => {
    const served: Array<(request: Request) => Promise<Response>> = [];
    const serveFetch: ServeFetch = (handler) => void served.push(handler);
    serveRequests({ fetch: (request: Request) => new Response(`answered ${new URL(request.url).pathname}`) }, serveFetch);
    expect(served).toHaveLength(1);
    expect(process.listenerCount('SIGTERM')).toBe(sigtermBefore.length + 1);
    const handler = served[0]!;
    const at = (path: string) => handler(new Request(`http://127.0.0.1${path}`));
    expect(await (await at('/users/42')).text()).toBe('answered /users/42');
    expect(await (await at(RESERVED.empty)).text()).toBe('');
    expect(await (await at(RESERVED.outcomes)).json()).toEqual([200]);
    expect((await at(RESERVED.threadClock)).status).toBe(404);
  });
});
