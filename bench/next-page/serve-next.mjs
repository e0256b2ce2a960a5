/**
 * Runs inside the runtime (node, bun, deno), as it is: Next.js's own server
 * for a built app, on node:http at 127.0.0.1 and a port the kernel picks,
 * printed first as `listening <port>`, as rtbench's request rounds expect
 * (packages/host-timed/src/request/). Next's request handler is its
 * production server (`next({ dev: false })`, the one `next start` runs, as
 * its custom-server API gives it); rtbench's reserved paths are answered
 * beside it: an empty answer (this server's own cost), a spin of fixed work
 * (which thread runs JavaScript), how each of Next's calls ended (its
 * status, or `threw`), and node's thread clock read after each response.
 * Plain JavaScript: no runtime needs a transform to run it.
 */
import { createRequire } from 'node:module';
// The Node.js server every framework app is served by, with rtbench's reserved paths beside it.
import { serveNodeHandler } from '../../packages/suite-loader/src/serve-app.mjs';

/** Serves the built app in `dir` with the Next.js at `nextPath` (the one it was built with). */
export async function serveNext(dir, nextPath) {
  // Next.js writes its own lines ("Running next.config.mjs took …") while it prepares: to stderr until the port is printed, which must be the first line.
  const log = console.log;
  const info = console.info;
  console.log = console.info = (...args) => console.error(...args);
  // The build's folder is the app's root: named, Next.js does not look for a workspace in every folder above it at start,
  // so deno's reads can be limited to the build and its toolchain (servers.ts).
  process.env.NEXT_PRIVATE_OUTPUT_TRACE_ROOT = dir;
  const next = createRequire(import.meta.url)(nextPath);
  const app = (next.default ?? next)({ dev: false, dir, quiet: true, hostname: '127.0.0.1' });
  await app.prepare();
  const handle = app.getRequestHandler();
  serveNodeHandler((req, res) => handle(req, res), (port) => {
    log(`listening ${port}`);
    console.log = log;
    console.info = info;
  });
}
