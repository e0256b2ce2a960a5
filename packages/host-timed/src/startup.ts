/**
 * Start-up, timed by the host: from just before spawn to the first complete
 * stdout line (node, deno, bun) or to the end of the first HTTP response
 * (a new `workerd serve`). The process is then stopped by PID.
 *
 * workerd's worker loader (an experimental binding, `workerd serve
 * --experimental`) can load a new worker into a running server: timing one
 * request that loads the program as a fresh worker measures isolate start on
 * its own, without workerd's process start and config parsing.
 */
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardDir, killTree, removeGuardedDir, spawnTracked, Tail } from '@rtbench/runtime-kit';
import { capnpString, compatibilityDateFor, COMPATIBILITY_FLAGS, JOB_DIR_PREFIX, SOCKET_NAME, startWorkerd, workerdEnv, writeJobConfig } from '@rtbench/runtime-workerd/host-api';
import { TOP_LEVEL_HEADER, TOP_LEVEL_LINE } from './bundle.ts';
import { fail, within, type RoundOutcome } from './outcome.ts';
import type { HostVariant, ProgramCommand } from './variant.ts';

export interface TimingLimits {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Spawn → first stdout line. */
export async function timeFirstLine(cmd: ProgramCommand, limits: TimingLimits): Promise<RoundOutcome> {
  const output = new Tail();
  const started = performance.now();
  const { child, exited } = spawnTracked({ command: cmd.command, args: cmd.args, env: cmd.env });
  let stdout = '';
  let firstAt: number | undefined;
  let resolveSecond: (line: string | undefined) => void = () => {};
  const secondLine = new Promise<string | undefined>((resolve) => (resolveSecond = resolve));
  const firstLine = new Promise<{ line: string; at: number } | undefined>((resolve) => {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      const at = performance.now();
      stdout += chunk;
      const lines = stdout.split('\n');
      if (lines.length > 1 && firstAt === undefined) {
        firstAt = at;
        resolve({ line: lines[0]!, at });
      }
      if (lines.length > 2) resolveSecond(lines[1]);
      if (firstAt === undefined) output.push(chunk);
    });
    void exited.then(() => {
      resolve(undefined);
      resolveSecond(undefined);
    });
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => output.push(chunk));
  const stop = (): void => killTree(child);
  limits.signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, limits.timeoutMs);
  try {
    const first = await firstLine;
    // The program prints its top level's duration right after its value; give it a moment, then stop it.
    const second = first ? await within(secondLine, 2_000, undefined) : undefined;
    const exit = await (first ? (stop(), exited) : exited);
    if (limits.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if (first) return { ok: true, values: { startupMs: first.at - started, ...topLevelFrom(second) }, answer: first.line, wallMs: performance.now() - started };
    if (performance.now() - started >= limits.timeoutMs) return fail('timeout', `no first line within ${limits.timeoutMs} ms; the process was killed`, output.toString());
    const how = exit.spawnError ? `could not be started (${exit.spawnError.message})` : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return fail('crash', `the process ${how} before printing a line`, output.toString());
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', stop);
  }
}

/** Measured: the worker's performance.now() reads the same before and after a 1 MB bundle's top level. */
const WORKERD_TOP_LEVEL = { topLevelMs: "workerd's clocks do not advance while a module's top level runs" };

/** The top level's duration from the program's second line ("rtbench-top-level <ms>") or its response header. */
function topLevelFrom(text: string | null | undefined): { topLevelMs?: number } {
  const ms = Number(text?.startsWith(TOP_LEVEL_LINE) ? text.slice(TOP_LEVEL_LINE.length) : text ?? NaN);
  return text && Number.isFinite(ms) && ms >= 0 ? { topLevelMs: ms } : {};
}

/** GET / with a time limit; the body as text, or the reason there is none. */
export async function getText(url: string, timeoutMs: number, signal?: AbortSignal): Promise<{ status: number; body: string; topLevel: string | null } | { error: string }> {
  try {
    const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs) });
    return { status: response.status, body: await response.text(), topLevel: response.headers.get(TOP_LEVEL_HEADER) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { error: `${(error as Error).message}${cause ? ` (${cause})` : ''}` };
  }
}

/** Spawn `workerd serve` → end of the first response to GET /. */
export async function timeWorkerdFirstResponse(v: HostVariant, bundlePath: string, limits: TimingLimits): Promise<RoundOutcome> {
  const { dir, configPath } = writeJobConfig({ bundle: { path: bundlePath }, v8Flags: v.flags.args, workerdVersion: v.target.version, env: v.flags.env });
  return withWorkerd(v, dir, configPath, [], limits, async (port, output, started) => {
    const answer = await getText(`http://127.0.0.1:${port}/`, limits.timeoutMs, limits.signal);
    const at = performance.now();
    if (limits.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if ('error' in answer) return fail('crash', `workerd listened on ${port} but the first request failed: ${answer.error}`, output());
    if (answer.status !== 200) return fail('error', `the first response had status ${answer.status}: ${answer.body.slice(0, 200)}`, output());
    return { ok: true, values: { startupMs: at - started }, unsupported: WORKERD_TOP_LEVEL, answer: answer.body, wallMs: at - started };
  });
}

/**
 * Starts `workerd serve` on a job directory (the clock starts with the spawn),
 * waits until it listens, hands the port to `exchange`, and always stops the
 * server and removes the directory; a timeout or an interrupt stops it early.
 */
async function withWorkerd(
  v: HostVariant,
  dir: string,
  configPath: string,
  serveOptions: readonly string[],
  limits: TimingLimits,
  exchange: (port: number, output: () => string, started: number) => Promise<RoundOutcome>,
): Promise<RoundOutcome> {
  const started = performance.now();
  const server = startWorkerd(v.target.binary, configPath, workerdEnv({}), dir, 8_000, undefined, serveOptions);
  const stop = (): void => server.kill();
  limits.signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, limits.timeoutMs);
  try {
    const port = await server.listening;
    if (port === undefined) {
      if (limits.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
      return fail(server.killed ? 'timeout' : 'crash', server.killed ? `workerd did not listen within ${limits.timeoutMs} ms` : 'workerd exited before listening', server.output.toString());
    }
    return await exchange(port, () => server.output.toString(), started);
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', stop);
    server.kill();
    await within(server.exited, 5_000, undefined);
    removeGuardedDir(dir);
  }
}

/** The running server's worker: loads the program as a new worker per request to /load, a tiny one for /warm. */
const LOADER_MODULE = `
let n = 0;
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const warm = url.pathname === '/warm';
    const code = warm ? 'export default { fetch: () => new Response("warm") };' : env.PROGRAM;
    const worker = env.LOADER.get(\`w\${++n}\`, () => ({
      compatibilityDate: env.COMPATIBILITY_DATE,
      compatibilityFlags: JSON.parse(env.COMPATIBILITY_FLAGS),
      mainModule: 'program.js',
      modules: { 'program.js': code },
      globalOutbound: null,
    }));
    return worker.getEntrypoint().fetch('http://program/');
  },
};
`;

function loaderConfig(programRelativePath: string, v: HostVariant): string {
  const date = compatibilityDateFor(v.target.version);
  const list = (items: readonly string[]): string => `[${items.map(capnpString).join(', ')}]`;
  return `# Written by rtbench: one server whose worker loads the program as a new worker per request.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "loader", worker = .loader) ],
  sockets = [ (name = ${capnpString(SOCKET_NAME)}, address = "127.0.0.1:0", http = (), service = "loader") ],
  v8Flags = ${list(v.flags.args)},
);

const loader :Workerd.Worker = (
  modules = [ (name = "loader.mjs", esModule = ${capnpString(LOADER_MODULE)}) ],
  compatibilityDate = ${capnpString(date)},
  compatibilityFlags = ${list(COMPATIBILITY_FLAGS)},
  bindings = [
    (name = "LOADER", workerLoader = ()),
    (name = "PROGRAM", text = embed ${capnpString(programRelativePath)}),
    (name = "COMPATIBILITY_DATE", text = ${capnpString(date)}),
    (name = "COMPATIBILITY_FLAGS", text = ${capnpString(JSON.stringify(COMPATIBILITY_FLAGS))}),
  ],
);
`;
}

/**
 * A running workerd with a worker loader (started, and its loader warmed with
 * a tiny worker, untimed) → one request that loads the program as a new
 * worker, timed from the host.
 */
export async function timeWorkerdIsolateStart(v: HostVariant, workerModulePath: string, limits: TimingLimits): Promise<RoundOutcome> {
  const dir = mkdtempSync(join(tmpdir(), `${JOB_DIR_PREFIX}${process.pid}-`));
  // The warden removes it if the host dies before withWorkerd does.
  guardDir(dir);
  writeFileSync(join(dir, 'program.mjs'), readFileSync(workerModulePath));
  const configPath = join(dir, 'config.capnp');
  writeFileSync(configPath, loaderConfig('program.mjs', v));
  return withWorkerd(v, dir, configPath, ['--experimental'], limits, async (port, output, started) => {
    const warm = await getText(`http://127.0.0.1:${port}/warm`, limits.timeoutMs, limits.signal);
    if ('error' in warm || warm.body !== 'warm') return fail('error', `the worker loader did not answer: ${'error' in warm ? warm.error : warm.body.slice(0, 200)}`, output());
    const t0 = performance.now();
    const answer = await getText(`http://127.0.0.1:${port}/load`, limits.timeoutMs, limits.signal);
    const at = performance.now();
    if (limits.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if ('error' in answer) return fail('crash', `loading the program as a new worker failed: ${answer.error}`, output());
    if (answer.status !== 200) return fail('error', `loading the program as a new worker answered ${answer.status}: ${answer.body.slice(0, 200)}`, output());
    return { ok: true, values: { startupMs: at - t0 }, unsupported: WORKERD_TOP_LEVEL, answer: answer.body, wallMs: at - started };
  });
}
