/**
 * http-hello: how many requests per second does a minimal server do on each
 * runtime? node:http, Deno.serve, Bun.serve and a workerd fetch handler, each
 * on 127.0.0.1 with a port the kernel picks, loaded by autocannon (in its own
 * process) on loopback: hello world, and a JSON echo of a ~1.6 KB body.
 * Server and load generator are pinned to different cores with taskset.
 */
import type { RuntimeKind } from '@rtbench/core';
import { hostTimedSuite, type LoadMeasurement } from '@rtbench/host-timed';
import { echoBody } from './src/echo-body.ts';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

const SERVERS: Record<RuntimeKind, string> = {
  node: here('./src/node-server.ts'),
  deno: here('./src/deno-server.ts'),
  bun: here('./src/bun-server.ts'),
  workerd: here('./src/workerd-server.ts'),
};

/** Connections autocannon keeps open: its default, and enough to keep one server core busy on loopback. */
const CONNECTIONS = 10;

const measurements: LoadMeasurement[] = [
  { kind: 'load', name: 'hello world', params: {}, server: (rt) => SERVERS[rt], request: { method: 'GET', path: '/' }, connections: CONNECTIONS },
  {
    kind: 'load',
    name: 'json echo',
    params: { body: `${(echoBody().length / 1024).toFixed(1)}kb` },
    server: (rt) => SERVERS[rt],
    request: { method: 'POST', path: '/echo', body: echoBody(), headers: { 'content-type': 'application/json' } },
    connections: CONNECTIONS,
  },
];

export default hostTimedSuite('http-hello', measurements);
