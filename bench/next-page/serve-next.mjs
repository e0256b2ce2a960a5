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
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

/** The host's reserved paths (packages/host-timed/src/request/paths.ts; a test checks they agree). */
export const RESERVED = {
  empty: '/.rtbench/empty',
  spin: '/.rtbench/spin',
  threadClock: '/.rtbench/thread-clock',
  outcomes: '/.rtbench/outcomes',
  consoleLines: '/.rtbench/console-lines',
};

/** Fixed work for the spin path: enough CPU to stand out from every other thread's. */
function spin() {
  let x = 0;
  for (let i = 0; i < 4_000_000; i++) x += Math.sqrt(i) % 3;
  return x;
}

function answer(res, status, body) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}

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
  const outcomes = [];
  const threadCpuUsage = process.threadCpuUsage;
  const readings = [];
  const server = createServer((req, res) => {
    // After the response's last write, once the event loop has run what it queued: the request's work is done.
    if (typeof threadCpuUsage === 'function') res.on('finish', () => setImmediate(() => {
      const { user, system } = threadCpuUsage();
      readings.push(user + system);
    }));
    const url = req.url ?? '/';
    if (url === RESERVED.empty) return answer(res, 200, '');
    if (url === RESERVED.spin) return answer(res, 200, String(spin()));
    if (url === RESERVED.outcomes) return answer(res, 200, JSON.stringify(outcomes));
    if (url === RESERVED.threadClock) return typeof threadCpuUsage === 'function' ? answer(res, 200, JSON.stringify(readings)) : answer(res, 404, '');
    if (url === RESERVED.consoleLines) return answer(res, 404, '');
    const call = outcomes.push(null) - 1;
    res.on('finish', () => {
      if (outcomes[call] === null) outcomes[call] = res.statusCode;
    });
    Promise.resolve(handle(req, res)).catch(() => {
      outcomes[call] = 'threw';
      if (!res.headersSent) answer(res, 500, 'Next.js threw');
      else res.end();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    log(`listening ${server.address().port}`);
    console.log = log;
    console.info = info;
  });
}
