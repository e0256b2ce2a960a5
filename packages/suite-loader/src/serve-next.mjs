/**
 * Runs inside the runtime (node, bun, deno), as it is: Next.js's own server
 * for a built app, on the Node.js server every framework app is served by
 * (serve-app.mjs, with rtbench's reserved paths beside it). Next's request
 * handler is its production server (`next({ dev: false })`, the one
 * `next start` and the standalone output's server.js run, as its
 * custom-server API gives it), given the config the build recorded
 * (`.next/required-server-files.json`) as the standalone server is, so the
 * app's next.config is not run again at start. Plain JavaScript: no runtime
 * needs a transform to run it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { serveNodeHandler } from './serve-app.mjs';

/** Serves the built app in `dir` with the Next.js at `nextPath` (the one it was built with). */
export async function serveNext(dir, nextPath) {
  // Next.js writes its own lines ("Running next.config.mjs took …") while it prepares: to stderr until the port is printed, which must be the first line.
  const log = console.log;
  const info = console.info;
  console.log = console.info = (...args) => console.error(...args);
  // The build's folder is the app's root: named, Next.js does not look for a workspace in every folder above it at start,
  // so deno's reads can be limited to the build and its toolchain (apps/next/server.ts).
  process.env.NEXT_PRIVATE_OUTPUT_TRACE_ROOT = dir;
  const recorded = join(dir, '.next', 'required-server-files.json');
  const conf = existsSync(recorded) ? JSON.parse(readFileSync(recorded, 'utf8')).config : undefined;
  if (conf) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(conf);
  const next = createRequire(import.meta.url)(nextPath);
  const app = (next.default ?? next)({ dev: false, dir, quiet: true, hostname: '127.0.0.1', ...(conf ? { conf } : {}) });
  await app.prepare();
  const handle = app.getRequestHandler();
  serveNodeHandler((req, res) => handle(req, res), (port) => {
    log(`listening ${port}`);
    console.log = log;
    console.info = info;
  });
}
