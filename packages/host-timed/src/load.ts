/**
 * One load round: a fresh server on the variant (127.0.0.1, a port the kernel
 * picks and the server reports), one request to check it answers on that port,
 * the load generator (wrk, or autocannon as the fallback; in its own process)
 * against it in consecutive windows with the server's threads read from the
 * host around each, its figures those of the windows from their steady point
 * (load-windows.ts), a request after the load to check the server survived it, and the server stopped by PID.
 * A server that does not start, reports a port nothing answers on, or dies
 * under load fails this round only; the executor goes on with the rest. A
 * server that answers some requests with an error status, or drops some, is
 * measured: the errors are counted beside its figures.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endedHow, exitOf, killTree, spawnTracked, Tail, type ChildExit } from '@rtbench/process';
import { loadPhases, loadReportSchema, LOAD_WINDOWS, takesWindow, type LoadReport, type LoadWindow } from './load-windows.ts';
import { fail, within, type RoundOutcome, type RoundValues } from './outcome.ts';
import { choosePinning, pinProcess } from './pinning.ts';
import { answeredWith, notListening, serverExit, startServer } from './server.ts';
import { perRequest, readServerThreads, SERVER_THREAD_METRICS, serverWindow, type ServerWindow } from './server-window.ts';
import type { HttpRequestSpec, LoadProfile, MetricKey } from './suite.ts';
import type { RunnableVariant } from './variant.ts';
import { chooseGenerator, wrkArgs, writeWrkScript, type Generator } from './wrk.ts';

const LOAD_WORKER = join(dirname(fileURLToPath(import.meta.url)), 'load-worker.mjs');

export interface LoadPlan {
  /** The bundled server: a program (a runtime that runs programs as processes) or a module it serves (one that serves them). */
  serverPath: string;
  request: HttpRequestSpec;
  load: LoadProfile;
  warmupMs: number;
  durationMs: number;
  /** No window starts past this, ms from the first: a measuring round's warm-up and twice its duration. */
  boundMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** One request to the server, as the load generator will send it. */
async function probe(port: number, request: HttpRequestSpec, timeoutMs: number): Promise<{ status: number; body: string } | { error: string }> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
      method: request.method,
      headers: request.headers ?? {},
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { error: `${(error as Error).message}${cause ? ` (${cause})` : ''}` };
  }
}

type GeneratorResult = { report?: LoadReport; problem?: string; output: string };

/**
 * Runs one generator process (pinned to `core` when given) to its end, or
 * until the plan's timeout or abort; its last stdout line. `interruptAfterMs`:
 * SIGINT then, on which wrk stops its load and still reports (its done()
 * with the time it ran).
 */
async function runProcess(command: string, args: string[], core: number | undefined, plan: LoadPlan, interruptAfterMs?: number): Promise<{ lastLine: string; stderr: string; exit: ChildExit }> {
  const env = { PATH: process.env.PATH };
  const { child, exited } = core === undefined ? spawnTracked({ command, args, env }) : spawnTracked({ command: 'taskset', args: ['-c', String(core), command, ...args], env });
  const out = new Tail();
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => out.push(chunk));
  const stop = (): void => killTree(child);
  plan.signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, plan.timeoutMs);
  const interrupt = interruptAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGINT'), interruptAfterMs);
  const exit = await exited;
  clearTimeout(timer);
  clearTimeout(interrupt);
  plan.signal?.removeEventListener('abort', stop);
  return { lastLine: stdout.trim().split('\n').pop() ?? '', stderr: out.toString(), exit };
}

function parseReport(name: string, run: { lastLine: string; stderr: string; exit: ChildExit }): GeneratorResult {
  try {
    return { report: loadReportSchema.parse(JSON.parse(run.lastLine)), output: run.stderr };
  } catch {
    const how = endedHow(exitOf(run.exit));
    return { problem: `the load generator (${name}) ${how} without a report`, output: `${run.stderr}${run.lastLine}` };
  }
}

/** One autocannon run of `durationMs` in its own node process. */
async function runAutocannon(port: number, plan: LoadPlan, core: number | undefined, durationMs: number): Promise<GeneratorResult> {
  const { request, load } = plan;
  const options = { url: `http://127.0.0.1:${port}${request.path}`, method: request.method, body: request.body, headers: request.headers, connections: load.connections, pipelining: load.pipelining, warmupMs: 0, durationMs };
  return parseReport('autocannon', await runProcess(process.execPath, [LOAD_WORKER, JSON.stringify(options)], core, plan));
}

/** Tries of one wrk window: an interrupt that came before wrk set its handler ends it without a report. */
const WRK_WINDOW_TRIES = 3;

/**
 * One wrk window of `durationMs`: wrk counts whole seconds, so it runs for a
 * second and is interrupted at the window's end. On a busy host wrk may not
 * have set its SIGINT handler by then and dies without a report: the window
 * is run again with twice the time before the interrupt (its report says
 * how long it really ran).
 */
async function runWrk(binary: string, script: string, port: number, plan: LoadPlan, core: number | undefined, durationMs: number): Promise<GeneratorResult> {
  const url = `http://127.0.0.1:${port}${plan.request.path}`;
  let result: GeneratorResult = { output: '' };
  for (let attempt = 0; attempt < WRK_WINDOW_TRIES; attempt++) {
    const run = await runProcess(binary, wrkArgs(url, script, plan.load.connections, durationMs), core, plan, durationMs * 2 ** attempt);
    result = parseReport('wrk', run);
    if (result.report || run.exit.signal !== 'SIGINT' || plan.signal?.aborted) return result;
  }
  return result;
}

/**
 * The load, as consecutive windows (load-windows.ts), each one generator run
 * with its own connections and the server's threads read from the host
 * before and after it (their CPU and context switches; undefined off
 * Linux), until the steady windows last the plan's duration, or the
 * round's bound (a measuring round's: its warm-up and twice its duration),
 * two windows at least where it asked for a warm-up (load-windows.ts takesWindow).
 */
async function loadServer(generator: Generator, port: number, pid: number | undefined, plan: LoadPlan, core: number | undefined): Promise<{ windows?: LoadWindow[]; problem?: string; output: string }> {
  const serverPid = process.platform === 'linux' ? pid : undefined;
  const script = generator.kind === 'wrk' ? writeWrkScript(plan.request, plan.load.pipelining) : undefined;
  const pipelined = plan.load.pipelining > 1;
  const windows: LoadWindow[] = [];
  const started = performance.now();
  try {
    do {
      const before = serverPid === undefined ? undefined : readServerThreads(serverPid);
      const run = script !== undefined && generator.kind === 'wrk' ? await runWrk(generator.binary, script, port, plan, core, LOAD_WINDOWS.windowMs) : await runAutocannon(port, plan, core, LOAD_WINDOWS.windowMs);
      if (!run.report) return { problem: `${run.problem ?? 'no load report'} in window ${windows.length + 1}`, output: run.output };
      // The JavaScript thread is the process's main thread (tid = pid) on every runtime served here.
      windows.push({ report: run.report, ...(serverPid !== undefined && before ? { server: serverWindow(before, readServerThreads(serverPid), serverPid) } : {}) });
    } while (!plan.signal?.aborted && takesWindow(windows, performance.now() - started, plan, pipelined));
    return { windows, output: '' };
  } finally {
    if (script !== undefined) rmSync(dirname(script), { recursive: true, force: true });
  }
}

const NO_THREAD_COUNTERS = 'this host has no per-thread counters the host can read (/proc/<pid>/task/<tid>/schedstat and status, Linux)';

/**
 * wrk's source (src/wrk.c, response_complete) records a latency only when a
 * connection's last pipelined response arrives: one per batch, from the
 * batch's first write. Its main then corrects the histogram for coordinated
 * omission (stats.c, stats_correct) with the run's time over each
 * connection's responses, a tenth of a batch's interval at -p 10: each
 * batch's latency adds made-up values below it, one per such interval
 * (about nine for a batch of typical length), some under the histogram's
 * minimum, where its quantiles read 0. The maximum is untouched:
 * the slowest batch. So the quantiles are neither per request nor per batch.
 */
const pipelinedQuantiles = (depth: number): string =>
  `under pipelining wrk times each batch of ${depth} requests (from its first write to its last response), never a request, and then adds made-up values to that histogram spaced by the interval between responses, not between batches: its quantiles are neither per-request nor per-batch latencies; the max is the slowest batch's`;

const QUANTILE_KEYS = ['latencyP2_5Ms', 'latencyP50Ms', 'latencyP97_5Ms', 'latencyP99Ms'] as const;

/** The round's figures by metric: the generator's, and the server's threads' over the responses counted. */
function figuresOf(report: LoadReport, server: ServerWindow | undefined, pipelinedBy: number | undefined): Pick<RoundValues, 'values' | 'unsupported'> {
  const values: Partial<Record<MetricKey, number>> = { requestsPerSecond: report.requestsPerSecond };
  const unsupported: Partial<Record<MetricKey, string>> = {};
  for (const key of QUANTILE_KEYS) {
    const ms = report[key];
    if (pipelinedBy !== undefined) unsupported[key] = pipelinedQuantiles(pipelinedBy);
    else if (ms !== null) values[key] = ms;
  }
  if (report.latencyMaxMs !== null) values.latencyMaxMs = report.latencyMaxMs;
  if (server) Object.assign(values, perRequest(server, report.requests));
  else for (const key of SERVER_THREAD_METRICS) unsupported[key] = NO_THREAD_COUNTERS;
  return { values, ...(Object.keys(unsupported).length ? { unsupported } : {}) };
}

export async function runLoadRound(v: RunnableVariant, plan: LoadPlan): Promise<RoundOutcome> {
  const started = performance.now();
  const pinning = choosePinning();
  const server = await startServer(v, plan.serverPath, plan.timeoutMs);
  const stopOnAbort = (): void => void server.stop();
  plan.signal?.addEventListener('abort', stopOnAbort, { once: true });
  try {
    if (plan.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if (server.port === undefined) return notListening(v, server, plan.timeoutMs);
    if (pinning.server !== undefined && server.pid !== undefined) pinProcess(server.pid, pinning.server);
    const check = await probe(server.port, plan.request, Math.min(plan.timeoutMs, 10_000));
    if ('error' in check) return fail('error', `the server reported port ${server.port}, but a request to 127.0.0.1:${server.port} failed: ${check.error}`, server.output.toString());
    if (check.status < 200 || check.status > 299) return fail('error', `${answeredWith(v, check.status, `${plan.request.method} ${plan.request.path}`, check.body)}; a load round needs a 2xx`, server.output.toString());
    const generator = chooseGenerator();
    const { windows, problem, output } = await loadServer(generator, server.port, server.pid, plan, pinning.generator);
    if (plan.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if (!server.alive()) return fail('crash', await serverExit(v, server, ' under load'), server.output.toString());
    // A server that died as the last window ended may not have been reaped yet, and a window can close before its
    // requests reach the server: one more request (any status) tells a live server from a dead or hung one.
    const after = await probe(server.port, plan.request, Math.min(plan.timeoutMs, 10_000));
    if ('error' in after) {
      if (await within(server.exited, 1_000, undefined)) return fail('crash', await serverExit(v, server, ' under load'), server.output.toString());
      return fail('error', `the server stopped answering after the load: a request to 127.0.0.1:${server.port} failed: ${after.error}`, server.output.toString());
    }
    if (!windows) return fail('crash', problem ?? 'no load report', output);
    const pipelinedBy = generator.kind === 'wrk' && plan.load.pipelining > 1 ? plan.load.pipelining : undefined;
    const phases = loadPhases(windows, plan.load.pipelining > 1);
    const report = phases.steady.report;
    // Errors are counted, not a failed round; a window with no answer at all has no figure to give.
    if (report.requests === 0) return fail('error', `the load run completed no request (${report.errors} socket errors, ${report.timeouts} timeouts)`, server.output.toString());
    return {
      ok: true,
      ...figuresOf(report, phases.steady.server, pipelinedBy),
      ...(phases.warmup ? { warmupValues: figuresOf(phases.warmup.report, phases.warmup.server, pipelinedBy).values } : {}),
      answer: check.body,
      wallMs: performance.now() - started,
      load: {
        generator: generator.kind,
        generatorBusy: report.generatorCpuMs / report.windowMs,
        connections: plan.load.connections,
        pipelining: plan.load.pipelining,
        outcomes: { responses: report.requests, errorStatus: report.non2xx, socketErrors: report.errors, timeouts: report.timeouts },
        phases: { windows: phases.windows, ...(phases.steadyFrom !== undefined ? { steadyFrom: phases.steadyFrom } : {}), warmupMs: phases.warmup?.report.windowMs ?? 0 },
      },
      ...(generator.kind === 'autocannon' ? { generatorNote: `autocannon generated the load (${generator.why}): its ceiling is lower than wrk's` } : {}),
    };
  } finally {
    plan.signal?.removeEventListener('abort', stopOnAbort);
    await server.stop();
    server.cleanup?.();
  }
}
