/**
 * One load round: a fresh server on the variant (127.0.0.1, a port the kernel
 * picks and the server reports), one request to check it answers on that port,
 * the load generator (wrk, or autocannon as the fallback; in its own process)
 * against it with the server's threads read from the host around the measured
 * window, a check that the server survived, and the server stopped by PID.
 * A server that does not start, reports a port nothing answers on, or dies
 * under load fails this round only; the executor goes on with the rest. A
 * server that answers some requests with an error status, or drops some, is
 * measured: the errors are counted beside its figures.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { endedHow, exitOf, killTree, spawnTracked, Tail, type ChildExit } from '@rtbench/process';
import { fail, type RoundOutcome, type RoundValues } from './outcome.ts';
import { choosePinning, pinProcess } from './pinning.ts';
import { answeredWith, notListening, serverExit, startServer } from './server.ts';
import { perRequest, readServerThreads, SERVER_THREAD_METRICS, serverWindow, type ServerWindow } from './server-window.ts';
import type { HttpRequestSpec, LoadProfile, MetricKey } from './suite.ts';
import type { RunnableVariant } from './variant.ts';
import { chooseGenerator, wrkArgs, writeWrkScript, type Generator } from './wrk.ts';

const LOAD_WORKER = join(dirname(fileURLToPath(import.meta.url)), 'load-worker.mjs');

/** The load generator's one line of output (latencies null when no request was answered). */
const loadReportSchema = z.object({
  requests: z.number().int().nonnegative(),
  windowMs: z.number().positive(),
  requestsPerSecond: z.number().nonnegative(),
  latencyP2_5Ms: z.number().nullable(),
  latencyP50Ms: z.number().nullable(),
  latencyP97_5Ms: z.number().nullable(),
  latencyP99Ms: z.number().nullable(),
  latencyMaxMs: z.number().nullable(),
  errors: z.number().int().nonnegative(),
  timeouts: z.number().int().nonnegative(),
  non2xx: z.number().int().nonnegative(),
  generatorCpuMs: z.number().nonnegative(),
});
type LoadReport = z.infer<typeof loadReportSchema>;

export interface LoadPlan {
  /** The bundled server: a program (a runtime that runs programs as processes) or a module it serves (one that serves them). */
  serverPath: string;
  request: HttpRequestSpec;
  load: LoadProfile;
  warmupMs: number;
  durationMs: number;
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

/** Runs one generator process (pinned to `core` when given) to its end, or until the plan's timeout or abort; its last stdout line. */
async function runProcess(command: string, args: string[], core: number | undefined, plan: LoadPlan): Promise<{ lastLine: string; stderr: string; exit: ChildExit }> {
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
  const exit = await exited;
  clearTimeout(timer);
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

/** One wrk run of `durationMs` (whole seconds). */
async function runWrk(binary: string, port: number, plan: LoadPlan, core: number | undefined, durationMs: number): Promise<GeneratorResult> {
  const script = writeWrkScript(plan.request, plan.load.pipelining);
  const url = `http://127.0.0.1:${port}${plan.request.path}`;
  try {
    return parseReport('wrk', await runProcess(binary, wrkArgs(url, script, plan.load.connections, durationMs), core, plan));
  } finally {
    rmSync(dirname(script), { recursive: true, force: true });
  }
}

function runGenerator(generator: Generator, port: number, plan: LoadPlan, core: number | undefined, durationMs: number): Promise<GeneratorResult> {
  return generator.kind === 'wrk' ? runWrk(generator.binary, port, plan, core, durationMs) : runAutocannon(port, plan, core, durationMs);
}

/**
 * The load: an unmeasured run for the warm-up (its own connections), then the
 * measured one with the server's threads read from the host before and after
 * it (their CPU and context switches over the window; undefined off Linux).
 */
async function loadServer(generator: Generator, port: number, pid: number | undefined, plan: LoadPlan, core: number | undefined): Promise<GeneratorResult & { server?: ServerWindow }> {
  if (plan.warmupMs > 0) {
    const warm = await runGenerator(generator, port, plan, core, plan.warmupMs);
    if (!warm.report) return { problem: `${warm.problem ?? 'no load report'} during the warm-up`, output: warm.output };
  }
  const serverPid = process.platform === 'linux' ? pid : undefined;
  const before = serverPid === undefined ? undefined : readServerThreads(serverPid);
  const measured = await runGenerator(generator, port, plan, core, plan.durationMs);
  if (serverPid === undefined || !before) return measured;
  // The JavaScript thread is the process's main thread (tid = pid) on every runtime served here.
  return { ...measured, server: serverWindow(before, readServerThreads(serverPid), serverPid) };
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
    const { report, problem, output, server: threads } = await loadServer(generator, server.port, server.pid, plan, pinning.generator);
    if (plan.signal?.aborted) return fail('interrupted', 'interrupted before this round finished');
    if (!server.alive()) return fail('crash', await serverExit(v, server, ' under load'), server.output.toString());
    if (!report) return fail('crash', problem ?? 'no load report', output);
    // Errors are counted, not a failed round; a window with no answer at all has no figure to give.
    if (report.requests === 0) return fail('error', `the load run completed no request (${report.errors} socket errors, ${report.timeouts} timeouts)`, server.output.toString());
    return {
      ok: true,
      ...figuresOf(report, threads, generator.kind === 'wrk' && plan.load.pipelining > 1 ? plan.load.pipelining : undefined),
      answer: check.body,
      wallMs: performance.now() - started,
      load: {
        generator: generator.kind,
        generatorBusy: report.generatorCpuMs / report.windowMs,
        connections: plan.load.connections,
        pipelining: plan.load.pipelining,
        outcomes: { responses: report.requests, errorStatus: report.non2xx, socketErrors: report.errors, timeouts: report.timeouts },
      },
      ...(generator.kind === 'autocannon' ? { generatorNote: `autocannon generated the load (${generator.why}): its ceiling is lower than wrk's` } : {}),
    };
  } finally {
    plan.signal?.removeEventListener('abort', stopOnAbort);
    await server.stop();
    server.cleanup?.();
  }
}
