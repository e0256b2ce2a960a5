/**
 * http-hello: how many requests per second does a server do on each runtime?
 * Each on 127.0.0.1 with a port the kernel picks, loaded by wrk (autocannon
 * when wrk is not installed) in its own process on loopback:
 *
 * - the runtime's own minimal server (node:http, Deno.serve, Bun.serve, a
 *   workerd fetch handler): hello world, and a JSON echo of a ~1.6 KB body;
 * - a small framework app (Hono: a router, a timing middleware, an error
 *   handler; src/app/), the same app on all four runtimes: a route with a
 *   parameter that answers JSON.
 *
 * Server and load generator are pinned to different cores with taskset.
 */
import type { RuntimeKind } from '@rtbench/core';
import { hostTimedSuite, type LoadMeasurement, type Unsupported } from '@rtbench/host-timed';
import { echoBody } from './src/echo-body.ts';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

const SERVERS: Partial<Record<RuntimeKind, string>> = {
  node: here('./src/node-server.ts'),
  deno: here('./src/deno-server.ts'),
  bun: here('./src/bun-server.ts'),
  workerd: here('./src/workerd-server.ts'),
};

/** The Hono app, served as Hono's docs serve it on each runtime. */
const HONO_SERVERS: Partial<Record<RuntimeKind, string>> = {
  node: here('./src/app/hono-node.ts'),
  deno: here('./src/app/hono-deno.ts'),
  bun: here('./src/app/hono-bun.ts'),
  workerd: here('./src/app/hono-workerd.ts'),
};

/** The server written for this runtime, or why there is none. */
const serverIn = (servers: Partial<Record<RuntimeKind, string>>) => (rt: RuntimeKind): string | Unsupported => servers[rt] ?? { unsupported: `no server is written for ${rt} in this suite` };

/**
 * Connections the load generator keeps open. On loopback 10 keep one server
 * core busy; more give no more requests/s, only queueing latency.
 */
const CONNECTIONS = 10;

const measurements: LoadMeasurement[] = [
  { kind: 'load', name: 'hello world', params: {}, server: serverIn(SERVERS), request: { method: 'GET', path: '/' }, connections: CONNECTIONS },
  {
    kind: 'load',
    name: 'json echo',
    params: { body: `${(echoBody().length / 1024).toFixed(1)}kb` },
    server: serverIn(SERVERS),
    request: { method: 'POST', path: '/echo', body: echoBody(), headers: { 'content-type': 'application/json' } },
    connections: CONNECTIONS,
  },
  // The route a framework app spends its time on: the router matches a parameter, the middleware times the request, the handler answers JSON.
  { kind: 'load', name: 'framework app', params: { framework: 'hono' }, server: serverIn(HONO_SERVERS), request: { method: 'GET', path: '/users/42' }, connections: CONNECTIONS },
];

export default hostTimedSuite('http-hello', measurements);
export { claims } from './claims.ts';
