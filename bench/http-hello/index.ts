/**
 * http-hello: how many requests per second does a server do on each runtime?
 * Each on 127.0.0.1 with a port the kernel picks, loaded by wrk (autocannon
 * when wrk is not installed) in its own process on loopback:
 *
 * - the runtime's own minimal server (the fetch handler in src/routes.ts on
 *   the server each runtime's plug-in declares: Deno.serve, Bun.serve, workerd
 *   itself; node:http as a Node.js user writes it in src/node-server.ts):
 *   hello world, and a JSON echo of a ~1.6 KB body;
 * - a small framework app (Hono: a router, a timing middleware, an error
 *   handler; src/app/), the same app on all four runtimes: a route with a
 *   parameter that answers JSON;
 * - a CPU-heavy handler: the shared relay (its JSON-body handler in bench/shared/relay/,
 *   imported as it is), served by each runtime's own server (src/relay/).
 *
 * Server and load generator are pinned to different cores with taskset.
 */
import { hostTimedSuite, LOAD_PROFILES, type LoadMeasurement, type LoadServer } from '@rtbench/host-timed';
import { echoBody } from './src/echo-body.ts';
import { relayRequest } from './src/relay/request.ts';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

/** The minimal server: the routes as a fetch handler, and node:http as a Node.js user writes it, served where the runtime has no fetch server of its own. */
const MINIMAL: LoadServer = { handler: here('./src/routes.ts'), nodeHttp: here('./src/node-server.ts') };

/** The Hono app, its fetch handler served by each runtime's own server (on node:http through @hono/node-server, as Hono's docs serve it). */
const HONO: LoadServer = { handler: here('./src/app/hono.ts') };

/** The shared relay's handler module as it is, on each runtime's own server. */
const RELAY: LoadServer = { handler: here('../shared/relay/json-handler.ts') };

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
  ...HELLO_LOADS.map((load): LoadMeasurement => ({ kind: 'load', name: 'hello world', params: {}, server: MINIMAL, request: { method: 'GET', path: '/' }, load })),
  {
    kind: 'load',
    name: 'json echo',
    params: { body: `${(echoBody().length / 1024).toFixed(1)}kb` },
    server: MINIMAL,
    request: { method: 'POST', path: '/echo', body: echoBody(), headers: { 'content-type': 'application/json' } },
    load: LOAD_PROFILES.c10,
  },
  // The route a framework app spends its time on: the router matches a parameter, the middleware times the request, the handler answers JSON.
  { kind: 'load', name: 'framework app', params: { framework: 'hono' }, server: HONO, request: { method: 'GET', path: '/users/42' }, load: LOAD_PROFILES.c10 },
  ...RELAY_LOADS.map((load): LoadMeasurement => ({ kind: 'load', name: 'relay', params: { body: 'json' }, server: RELAY, request: relayRequest(), load })),
];

export default hostTimedSuite('http-hello', measurements);
export { claims } from './claims.ts';
