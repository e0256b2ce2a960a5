/**
 * http-hello: how many requests per second does a server do on each runtime?
 * Each on 127.0.0.1 with a port the kernel picks, loaded by wrk (autocannon
 * when wrk is not installed) in its own process on loopback:
 *
 * - the runtime's own minimal server (node:http, Deno.serve, Bun.serve, a
 *   workerd fetch handler): hello world, and a JSON echo of a ~1.6 KB body;
 * - a small framework app (Hono: a router, a timing middleware, an error
 *   handler; src/app/), the same app on all four runtimes: a route with a
 *   parameter that answers JSON;
 * - a CPU-heavy handler: the shared relay (its JSON-body handler in bench/shared/relay/,
 *   imported as it is), served by each runtime's own server (src/relay/).
 *
 * Server and load generator are pinned to different cores with taskset.
 */
import type { RuntimeKind } from '@rtbench/core';
import { hostTimedSuite, LOAD_PROFILES, type LoadMeasurement, type Unsupported } from '@rtbench/host-timed';
import { echoBody } from './src/echo-body.ts';
import { relayRequest } from './src/relay/request.ts';

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

/** The relay on each runtime's own server; workerd serves the shared relay's handler module as it is. */
const RELAY_SERVERS: Partial<Record<RuntimeKind, string>> = {
  node: here('./src/relay/node.ts'),
  deno: here('./src/relay/deno.ts'),
  bun: here('./src/relay/bun.ts'),
  workerd: here('../shared/relay/json-handler.ts'),
};

/** The server written for this runtime, or why there is none. */
const serverIn = (servers: Partial<Record<RuntimeKind, string>>) => (rt: RuntimeKind): string | Unsupported => servers[rt] ?? { unsupported: `no server is written for ${rt} in this suite` };

/**
 * Hello world under every named load: one connection (no queueing), 10 (one
 * server core busy on loopback), 100, and 100 pipelined 10 deep. Past one
 * busy core more connections give no more requests/s, only queueing: latency
 * grows while the server's CPU per request stays put. The other routes run
 * at 10 connections.
 */
const HELLO_LOADS = [LOAD_PROFILES.c1, LOAD_PROFILES.c10, LOAD_PROFILES.c100, LOAD_PROFILES['c100-p10']];

/**
 * The relay under the loads without pipelining: a handler whose own CPU
 * dwarfs the server's, so its CPU per request should hold across
 * connection counts while latency grows with the queue.
 */
const RELAY_LOADS = [LOAD_PROFILES.c1, LOAD_PROFILES.c10, LOAD_PROFILES.c100];

const measurements: LoadMeasurement[] = [
  ...HELLO_LOADS.map((load): LoadMeasurement => ({ kind: 'load', name: 'hello world', params: {}, server: serverIn(SERVERS), request: { method: 'GET', path: '/' }, load })),
  {
    kind: 'load',
    name: 'json echo',
    params: { body: `${(echoBody().length / 1024).toFixed(1)}kb` },
    server: serverIn(SERVERS),
    request: { method: 'POST', path: '/echo', body: echoBody(), headers: { 'content-type': 'application/json' } },
    load: LOAD_PROFILES.c10,
  },
  // The route a framework app spends its time on: the router matches a parameter, the middleware times the request, the handler answers JSON.
  { kind: 'load', name: 'framework app', params: { framework: 'hono' }, server: serverIn(HONO_SERVERS), request: { method: 'GET', path: '/users/42' }, load: LOAD_PROFILES.c10 },
  ...RELAY_LOADS.map((load): LoadMeasurement => ({ kind: 'load', name: 'relay', params: { body: 'json' }, server: serverIn(RELAY_SERVERS), request: relayRequest(), load })),
];

export default hostTimedSuite('http-hello', measurements);
export { claims } from './claims.ts';
