/**
 * wrk (C, epoll) as the load generator: it costs far less CPU per request than
 * autocannon, which capped the faster runtimes' hello world at its own
 * ceiling (README.md, "Why wrk"). Each run gets a Lua script that sets the
 * request and whose done() prints the one JSON line LoadReport declares, from
 * wrk's own histogram (corrected for coordinated omission). wrk's durations
 * are whole seconds: a window shorter than one is a run of a second stopped
 * by SIGINT (load.ts), on which wrk still calls done().
 */
import { accessSync, constants, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { HttpRequestSpec } from './suite.ts';

/** RTBENCH_WRK names the wrk binary; RTBENCH_LOAD_GENERATOR=autocannon forces the node generator. */
export type Generator = { kind: 'wrk'; binary: string } | { kind: 'autocannon'; why: string };

let chosen: Generator | undefined;

/** A file this process may run (a folder is not). */
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** What is wrong with the wrk RTBENCH_WRK names, in one line, or undefined (unset, or a file this process may run): said before a run, not by each case failing with exit code 127. */
export function namedWrkProblem(): string | undefined {
  const named = process.env.RTBENCH_WRK;
  return named && !isExecutable(named) ? `RTBENCH_WRK=${named}: no executable file there (unset it to use wrk from PATH)` : undefined;
}

/**
 * The load generator for this host: wrk from PATH (or RTBENCH_WRK), else autocannon with the reason.
 * A benchmark never installs system packages itself; the tests install wrk
 * before any test runs (test/helpers/install-programs.ts).
 */
export function chooseGenerator(): Generator {
  if (chosen) return chosen;
  if (process.env.RTBENCH_LOAD_GENERATOR === 'autocannon') return (chosen = { kind: 'autocannon', why: 'RTBENCH_LOAD_GENERATOR=autocannon' });
  const named = process.env.RTBENCH_WRK;
  if (named) {
    const problem = namedWrkProblem();
    if (problem) throw new Error(problem);
    return (chosen = { kind: 'wrk', binary: named });
  }
  const binary = onPath('wrk');
  if (binary) return (chosen = { kind: 'wrk', binary });
  const why = 'wrk is not on PATH (install it with `sudo apt-get install -y wrk`, or name it with RTBENCH_WRK=/path/to/wrk)';
  process.stderr.write(`http load: ${why}; autocannon generates the load (its own ceiling is lower)\n`);
  return (chosen = { kind: 'autocannon', why });
}

/** A Lua string literal for any bytes: printable ASCII as is, everything else as decimal escapes (LuaJIT has no \u). */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/**
 * The Lua script: the request (written `pipelining` times per turn when
 * pipelined, the way wrk's own pipeline example does it), and done() printing
 * LoadReport's JSON line (latencies in ms, wrk's own CPU time). wrk counts a
 * response with a status of 400 or more as a status error.
 */
function wrkScript(request: HttpRequestSpec, pipelining: number): string {
  const headers = Object.entries(request.headers ?? {}).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}\n`);
  const pipelined =
    pipelining > 1
      ? [
          'local batch\n',
          `function init(args)\n  local r = {}\n  for i = 1, ${pipelining} do r[i] = wrk.format() end\n  batch = table.concat(r)\nend\n`,
          'function request()\n  return batch\nend\n',
        ]
      : [];
  return [
    `wrk.method = ${luaString(request.method)}\n`,
    request.body !== undefined ? `wrk.body = ${luaString(request.body)}\n` : '',
    ...headers,
    ...pipelined,
    'function done(summary, latency, requests)\n',
    '  local e = summary.errors\n',
    '  local ms = summary.duration / 1000\n',
    '  local p = function(q) return latency:percentile(q) / 1000 end\n',
    // os.clock(): the process's CPU time (all its threads): how busy the generator was.
    '  io.write(string.format(\'{"requests":%d,"windowMs":%.3f,"requestsPerSecond":%.3f,"latencyP2_5Ms":%.6f,"latencyP50Ms":%.6f,"latencyP97_5Ms":%.6f,"latencyP99Ms":%.6f,"latencyMaxMs":%.6f,"errors":%d,"timeouts":%d,"non2xx":%d,"generatorCpuMs":%.3f}\\n\',\n',
    '    summary.requests, ms, summary.requests / ms * 1000, p(2.5), p(50), p(97.5), p(99), latency.max / 1000,\n',
    '    e.connect + e.read + e.write, e.timeout, e.status, os.clock() * 1000))\n',
    'end\n',
  ].join('');
}

/** Writes the script for a request into a fresh temporary directory; returns its path. */
export function writeWrkScript(request: HttpRequestSpec, pipelining: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-wrk-'));
  const path = join(dir, 'load.lua');
  writeFileSync(path, wrkScript(request, pipelining));
  return path;
}

/** wrk's arguments for one run: one thread (its core is one), the connections, whole seconds. */
export function wrkArgs(url: string, script: string, connections: number, durationMs: number): string[] {
  return ['-t1', `-c${connections}`, `-d${Math.max(1, Math.ceil(durationMs / 1000))}s`, '--timeout', '10s', '-s', script, url];
}
