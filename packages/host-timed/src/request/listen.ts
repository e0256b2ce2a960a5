/**
 * Runs inside a runtime that runs programs as processes: serves the wrapped
 * handler with the runtime's own server on 127.0.0.1, a port the kernel
 * picks, printed first as `listening <port>`. The server is found by what
 * the runtime offers (Deno.serve, Bun.serve, else node:http through
 * @hono/node-server's fetch adapter, as Hono serves a fetch handler on Node.js).
 * On node:http the thread's own CPU clock (process.threadCpuUsage) is read
 * once each response has been written and the thread has nothing left to
 * do for it: the host's cross-check of what it reads from outside.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { wrapHandler, type WorkersModule } from './handler.ts';

type Handler = (request: Request) => Promise<Response>;
declare const Deno: { serve(options: { hostname: string; port: number; onListen(addr: { port: number }): void }, handler: Handler): unknown } | undefined;
declare const Bun: { serve(options: { hostname: string; port: number; fetch: Handler }): { port: number } } | undefined;

const print = (port: number): void => console.log(`listening ${port}`);

function serveOnNode(module: WorkersModule): void {
  const threadCpuUsage = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;
  const readings: number[] = [];
  const wrapped = wrapHandler(module, threadCpuUsage ? () => JSON.stringify(readings) : undefined);
  // overrideGlobalObjects off: the adapter's own lighter Response would replace the global one the handler
  // builds its answers with, and it drops the standard's default content type when headers are given.
  const listener = getRequestListener((request) => wrapped.fetch(request), { overrideGlobalObjects: false });
  const server = createServer((req, res) => {
    // After the response's last write, once the event loop has run what it queued: the request's work is done.
    if (threadCpuUsage) res.on('finish', () => setImmediate(() => {
      const { user, system } = threadCpuUsage();
      readings.push(user + system);
    }));
    void listener(req, res);
  });
  server.listen(0, '127.0.0.1', () => print((server.address() as AddressInfo).port));
}

export function serveRequests(module: WorkersModule): void {
  const wrapped = wrapHandler(module);
  const handler: Handler = (request) => wrapped.fetch(request);
  if (typeof Deno !== 'undefined' && typeof Deno.serve === 'function') Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => print(port) }, handler);
  else if (typeof Bun !== 'undefined' && typeof Bun.serve === 'function') print(Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler }).port);
  else serveOnNode(module);
}
