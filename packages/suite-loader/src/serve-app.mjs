/**
 * Runs inside the runtime (node, bun, deno), as it is: a framework app's
 * Node.js server for its built output, on node:http at 127.0.0.1 and a port
 * the kernel picks, printed first as `listening <port>`, as rtbench's
 * request rounds expect (packages/host-timed/src/request/). The app's
 * request handler is the one its Node adapter builds (adapter-node's
 * `handler`, the middleware its own server mounts); rtbench's reserved
 * paths are answered beside it: an empty answer (this server's own cost), a
 * spin of fixed work (which thread runs JavaScript), how each of the app's
 * calls ended (its status, or `threw`), and the thread clock read after each
 * response (where the runtime's counts finer than a millisecond). Plain
 * JavaScript: no runtime needs a transform to run it.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

/** The host's reserved paths (packages/host-timed/src/request/paths.ts; a test checks they agree). */
export const RESERVED = {
  empty: '/.rtbench/empty',
  spin: '/.rtbench/spin',
  threadClock: '/.rtbench/thread-clock',
  outcomes: '/.rtbench/outcomes',
  consoleLines: '/.rtbench/console-lines',
  profileMarkBegin: '/.rtbench/profile-mark/begin',
  profileMarkEnd: '/.rtbench/profile-mark/end',
};

/** Fixed work for the spin path: enough CPU to stand out from every other thread's. */
function spin() {
  let x = 0;
  for (let i = 0; i < 4_000_000; i++) x += Math.sqrt(i) % 3;
  return x;
}

/**
 * A CPU profile's marks (host-timed paths.ts PROFILE_MARKS): tens of
 * milliseconds of work under a name for each edge, integer arithmetic only
 * (a sampler may lose what optimized code spends in a C call), each run once.
 */
const MARK_STEPS = 32_000_000;

function rtbenchProfileMarkBegin() {
  let x = 1;
  for (let i = 0; i < MARK_STEPS; i++) x = (Math.imul(x ^ i, 0x5bd1e995) + 0x6b) | 0;
  return x;
}

function rtbenchProfileMarkEnd() {
  let x = 3;
  for (let i = 0; i < MARK_STEPS; i++) x = (Math.imul(x ^ i, 0x5bd1e995) + 0x6b) | 0;
  return x;
}

function answer(res, status, body) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}

/**
 * The thread's own CPU clock (`process.threadCpuUsage`), when it counts
 * finer than a millisecond, else undefined. deno's counts whole 10 ms ticks
 * of the scheduler: a request of a few milliseconds reads 0 on it, and the
 * report would print its clock as 0.000× the host's, a tick's step and not a
 * disagreement. Read until it moves (at most 50 ms): the step it moved by.
 */
export function fineThreadClock(read = process.threadCpuUsage, now = () => performance.now()) {
  if (typeof read !== 'function') return undefined;
  const total = () => {
    const { user, system } = read();
    return user + system;
  };
  const first = total();
  const started = now();
  let moved = first;
  while (moved === first && now() - started < 50) moved = total();
  return moved !== first && moved - first < 1000 ? read : undefined;
}

/**
 * Serves `handler(req, res, next)`, a Node.js middleware (`next` is called
 * for what it does not answer: a 404 here, as the adapter's own server
 * answers it). `listening(port)` prints the port line; a server whose
 * framework redirected stdout's console methods while it prepared passes
 * one that writes it and puts them back.
 */
export function serveNodeHandler(handler, listening = (port) => process.stdout.write(`listening ${port}\n`)) {
  // An exit of its own on SIGTERM: a runtime that writes a CPU profile at exit (--cpu-prof) writes it.
  process.on('SIGTERM', () => process.exit(0));
  const outcomes = [];
  const threadCpuUsage = fineThreadClock();
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
    if (url === RESERVED.profileMarkBegin) return answer(res, 200, String(rtbenchProfileMarkBegin()));
    if (url === RESERVED.profileMarkEnd) return answer(res, 200, String(rtbenchProfileMarkEnd()));
    const call = outcomes.push(null) - 1;
    res.on('finish', () => {
      if (outcomes[call] === null) outcomes[call] = res.statusCode;
    });
    const failed = () => {
      outcomes[call] = 'threw';
      if (!res.headersSent) answer(res, 500, 'the app threw');
      else res.end();
    };
    try {
      Promise.resolve(handler(req, res, () => answer(res, 404, 'Not found'))).catch(failed);
    } catch {
      failed();
    }
  });
  server.listen(0, '127.0.0.1', () => listening(server.address().port));
}

/** Content types of the files a framework's client build holds. */
const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * A handler with the files of `dir` (a framework's client build) answered
 * first, as the framework's own Node.js server serves them
 * (react-router-serve) and as `wrangler dev` serves a Worker's assets: a GET
 * or HEAD whose path is a file there (none under a dot-folder or above
 * `dir`); anything else goes to `handler`.
 */
export function staticFilesFirst(dir, handler) {
  const root = normalize(dir + sep);
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      let path;
      try {
        path = decodeURIComponent((req.url ?? '/').split('?')[0]);
      } catch {
        path = undefined;
      }
      const file = path !== undefined && !/(^|\/)\./.test(path) ? normalize(join(root, path)) : undefined;
      let stat;
      try {
        stat = file?.startsWith(root) ? statSync(file) : undefined;
      } catch {
        stat = undefined;
      }
      if (stat?.isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': stat.size });
        if (req.method === 'HEAD') return res.end();
        return createReadStream(file).pipe(res);
      }
    }
    return handler(req, res, next);
  };
}
