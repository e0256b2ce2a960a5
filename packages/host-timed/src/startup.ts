/**
 * Start-up, timed by the host: from just before spawn to the first complete
 * stdout line (a runtime that runs programs as processes) or to the end of the
 * first HTTP response (one that serves them: a new `workerd serve`); the
 * process is then stopped by PID. A runtime that can load a program as a new
 * isolate into a running server (workerd's worker loader) also gets isolate
 * start timed on its own, without the process start and config parsing.
 */
import { isUnavailable } from '@rtbench/host/platform';
import type { ServedProgram } from '@rtbench/runtime-kit';
import { endedHow, exitOf, killTree, spawnTracked, Tail } from '@rtbench/process';
import { TOP_LEVEL_HEADER, TOP_LEVEL_LINE } from './bundle.ts';
import { answeredWith, lastSaid, notListening } from './server.ts';
import { fail, within, type RoundOutcome } from './outcome.ts';
import type { RunnableVariant } from './variant.ts';
import type { ProgramCommand } from './variant.ts';

export interface TimingLimits {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Spawn → first stdout line (`runtime` names the process in a failure). */
export async function timeFirstLine(runtime: string, cmd: ProgramCommand, limits: TimingLimits): Promise<RoundOutcome> {
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
    if (performance.now() - started >= limits.timeoutMs) return fail('timeout', `the ${runtime} process printed no line within ${limits.timeoutMs} ms; it was killed`, output.toString());
    // How it ended and the error it printed last, as a server's end is said (load.ts).
    const how = exit.spawnError ? `could not be started (${exit.spawnError.message})` : `${endedHow(exitOf(exit))} before printing a line${lastSaid(output.toString())}`;
    return fail('crash', `the ${runtime} process ${how}`, output.toString());
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', stop);
  }
}

/** A served program's top level from its response header, or why the runtime's plug-in says its clocks cannot time it. */
function servedTopLevel(v: RunnableVariant, header: string | null): { values: { topLevelMs?: number }; unsupported?: { topLevelMs: string } } {
  const programs = v.plugin.programs;
  if (programs.kind === 'server' && programs.topLevelTime) return { values: {}, unsupported: { topLevelMs: programs.topLevelTime.unavailable } };
  return { values: topLevelFrom(header) };
}

/** The top level's duration from the program's second line ("rtbench-top-level <ms>") or its response header. */
function topLevelFrom(text: string | null | undefined): { topLevelMs?: number } {
  const ms = Number(text?.startsWith(TOP_LEVEL_LINE) ? text.slice(TOP_LEVEL_LINE.length) : text ?? NaN);
  return text && Number.isFinite(ms) && ms >= 0 ? { topLevelMs: ms } : {};
}

/** GET / with a time limit; the body as text, or the reason there is none. */
async function getText(url: string, timeoutMs: number, signal?: AbortSignal): Promise<{ status: number; body: string; topLevel: string | null } | { error: string }> {
  try {
    const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs) });
    return { status: response.status, body: await response.text(), topLevel: response.headers.get(TOP_LEVEL_HEADER) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { error: `${(error as Error).message}${cause ? ` (${cause})` : ''}` };
  }
}

/** A served program on a runtime whose plug-in serves programs. */
function serve(v: RunnableVariant, path: string, how: 'program' | 'isolate-loader'): ServedProgram {
  const programs = v.plugin.programs;
  if (programs.kind !== 'server') throw new Error(`${v.plugin.displayName} runs programs as processes; it does not serve them`);
  if (how === 'program') return programs.serve(v.target, v.flags, path);
  if (isUnavailable(programs.isolateStart)) throw new Error(`${v.plugin.displayName}: ${programs.isolateStart.unavailable}`);
  return programs.isolateStart.serveLoader(v.target, v.flags, path);
}

/** Start the server → end of the first response to GET /. */
export async function timeFirstResponse(v: RunnableVariant, modulePath: string, limits: TimingLimits): Promise<RoundOutcome> {
  return withServer(v, () => serve(v, modulePath, 'program'), limits, async (port, output, started) => {
    const answer = await getText(`http://127.0.0.1:${port}/`, limits.timeoutMs, limits.signal);
    const at = performance.now();
    if (limits.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if ('error' in answer) return fail('crash', `${v.plugin.name} listened on ${port} but the first request failed: ${answer.error}`, output());
    if (answer.status !== 200) return fail('error', answeredWith(v, answer.status, 'its first request, GET /', answer.body), output());
    const topLevel = servedTopLevel(v, answer.topLevel);
    return { ok: true, values: { startupMs: at - started, ...topLevel.values }, ...(topLevel.unsupported ? { unsupported: topLevel.unsupported } : {}), answer: answer.body, wallMs: at - started };
  });
}

/**
 * Starts the server (the clock starts with the spawn), waits until it
 * listens, hands the port to `exchange`, and always stops it and removes what
 * was written for it; a timeout or an interrupt stops it early.
 */
async function withServer(
  v: RunnableVariant,
  start: () => ServedProgram,
  limits: TimingLimits,
  exchange: (port: number, output: () => string, started: number) => Promise<RoundOutcome>,
): Promise<RoundOutcome> {
  const started = performance.now();
  const server = start();
  const stop = (): void => server.kill();
  limits.signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, limits.timeoutMs);
  try {
    const port = await server.listening;
    if (port === undefined) {
      if (limits.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
      // Killed by the round's timer: it was still running, and not listening, when its time ran out.
      return notListening(v, { output: server.output, exited: server.exited, alive: () => server.killed }, limits.timeoutMs);
    }
    return await exchange(port, () => server.output.toString(), started);
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', stop);
    server.kill();
    await within(server.exited, 5_000, undefined);
    server.cleanup();
  }
}

/**
 * A running server that loads programs as new isolates (started, and its
 * loader warmed with a tiny one, untimed) → one request that loads the
 * program as a new isolate, timed from the host.
 */
export async function timeIsolateStart(v: RunnableVariant, workerModulePath: string, limits: TimingLimits): Promise<RoundOutcome> {
  return withServer(v, () => serve(v, workerModulePath, 'isolate-loader'), limits, async (port, output, started) => {
    const warm = await getText(`http://127.0.0.1:${port}/warm`, limits.timeoutMs, limits.signal);
    if ('error' in warm || warm.body !== 'warm') return fail('error', `the isolate loader did not answer: ${'error' in warm ? warm.error : warm.body.slice(0, 200)}`, output());
    const t0 = performance.now();
    const answer = await getText(`http://127.0.0.1:${port}/load`, limits.timeoutMs, limits.signal);
    const at = performance.now();
    if (limits.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if ('error' in answer) return fail('crash', `loading the program as a new isolate failed: ${answer.error}`, output());
    if (answer.status !== 200) return fail('error', answeredWith(v, answer.status, 'GET /load, loading the program as a new isolate', answer.body), output());
    const topLevel = servedTopLevel(v, answer.topLevel);
    return { ok: true, values: { startupMs: at - t0, ...topLevel.values }, ...(topLevel.unsupported ? { unsupported: topLevel.unsupported } : {}), answer: answer.body, wallMs: at - started };
  });
}
