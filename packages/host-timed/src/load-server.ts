/**
 * Runs inside a runtime that runs programs as processes: serves a load
 * measurement's fetch handler (a module whose default export is
 * `{ fetch }`) on 127.0.0.1, a port the kernel picks, printed first as
 * `listening <port>`. The server is the one the runtime's plug-in declares
 * (`programs.fetchServer`, bundled in beside this module), else node:http
 * through @hono/node-server, as Hono's docs serve a fetch handler on
 * Node.js. Nothing is wrapped or read inside: under load the host reads the
 * server's threads from outside.
 */
import { serve } from '@hono/node-server';
import type { ServeFetch } from '@rtbench/runtime-kit';

interface FetchModule {
  fetch(request: Request): Response | Promise<Response>;
}

export function serveUnderLoad(module: FetchModule, serveFetch?: ServeFetch): void {
  const print = (port: number): void => console.log(`listening ${port}`);
  const handler = async (request: Request): Promise<Response> => module.fetch(request);
  if (serveFetch) serveFetch(handler, print);
  else serve({ fetch: handler, hostname: '127.0.0.1', port: 0 }, (info) => print(info.port));
}
