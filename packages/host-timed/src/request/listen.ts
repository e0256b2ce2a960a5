/**
 * Runs inside a runtime that runs programs as processes: serves the wrapped
 * handler with the runtime's own server on 127.0.0.1, a port the kernel
 * picks, printed first as `listening <port>`. The server is the one the
 * runtime's plug-in declares (`programs.fetchServer`, bundled in beside this
 * module), else node:http through @hono/node-server's fetch adapter, as Hono
 * serves a fetch handler on Node.js.
 * On node:http the thread's own CPU clock (process.threadCpuUsage) is read
 * once each response has been written and the thread has nothing left to
 * do for it: the host's cross-check of what it reads from outside.
 * SIGTERM ends it with an exit of its own, so a runtime that writes a CPU
 * profile at exit (`--cpu-prof`) writes it; a measured server is killed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { ServeFetch } from '@rtbench/runtime-kit';
import { wrapHandler, type WorkersModule } from './handler.ts';

const print = (port: number): void => console.log(`listening ${port}`);

function serveOnNodeHttp(module: WorkersModule): void {
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

/** `serveFetch`: the runtime's own server, as its plug-in declares it; absent, node:http. */
export function serveRequests(module: WorkersModule, serveFetch?: ServeFetch): void {
  process.on('SIGTERM', () => process.exit(0));
  if (!serveFetch) return serveOnNodeHttp(module);
  const wrapped = wrapHandler(module);
  serveFetch((request) => wrapped.fetch(request), print);
}
