/**
 * One Job on workerd: a fresh workerd process per job (the harness's unit of
 * replication is the process, as on the other runtimes). Write the config,
 * start workerd, POST the Job (and a lockstep job's commands) as a streamed
 * body, read the streamed protocol lines, then stop the server by PID —
 * always: after a result, an error, a crash, a timeout or an interrupt — and
 * remove the config.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { WorkersCompatibility } from '@rtbench/core/request';
import type { JobRequest } from '@rtbench/runtime-kit';
import { attachTraceMetrics, guardDir, MAX_TIMER_MS, ProtocolReader, removeGuardedDir, sealJob, TraceFilter, type ChildExit, type JobOutcome, type RunningJob } from '@rtbench/process';
import type { WorkerdFacts } from './handoff.ts';
import { neverSettlesError } from '@rtbench/core/execute';
import { workerdConfig } from './config.ts';
import { openJobExchange, type JobExchange, type ResponseEnd } from './http.ts';
import { startWorkerd, type WorkerdProcess } from './server.ts';
import { GC_TRACE_FLAG, GC_TRACE_OPT_OUT, V8NvpTrace } from './gc-trace.ts';

/** How long a wrapped workerd (valgrind) may take to shut down after its response before it is killed. */
const WRAPPED_EXIT_GRACE_MS = 30_000;

/** Temporary job directories are named <prefix><host pid>-<random>. */
export const JOB_DIR_PREFIX = 'rtbench-workerd-';

/** The child's environment: only PATH, HOME and the variant's own variables. */
export function workerdEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

export interface JobConfigOptions {
  /** The suite bundle, or the source of a stand-in bundle (for a flag check). */
  bundle: { path: string } | { source: string };
  v8Flags: readonly string[];
  workerdVersion: string;
  env: Readonly<Record<string, string>>;
  /** A Workers program's own compatibility date and flags (a wrangler project's); absent: rtbench's (config.ts). */
  compatibility?: WorkersCompatibility;
}

/** Writes a job's config in a fresh temporary directory; the caller removes it. */
export function writeJobConfig(options: JobConfigOptions): { dir: string; configPath: string } {
  // The host's PID in the name: whose directory it is, if one is ever left behind.
  const dir = mkdtempSync(join(tmpdir(), `${JOB_DIR_PREFIX}${process.pid}-`));
  // Removed by the warden if the host dies before removing it.
  guardDir(dir);
  let bundleRelativePath: string;
  if ('path' in options.bundle) {
    // Relative: capnp's embed resolves paths against the config file.
    bundleRelativePath = relative(dir, options.bundle.path);
  } else {
    bundleRelativePath = 'bundle-source.mjs';
    writeFileSync(join(dir, bundleRelativePath), options.bundle.source);
  }
  const configPath = join(dir, 'config.capnp');
  const { v8Flags, workerdVersion, env, compatibility } = options;
  writeFileSync(configPath, workerdConfig({ bundleRelativePath, v8Flags, workerdVersion, env, ...(compatibility ? { compatibility } : {}) }));
  return { dir, configPath };
}

/**
 * The reason workerd gave for ending a request early, from its log line
 * "…: Uncaught exception: …: failed: remote.jsg.Error: <reason>".
 */
export function uncaughtReason(output: string): string | undefined {
  const lines = output.split('\n').filter((l) => l.includes('Uncaught exception'));
  const last = lines[lines.length - 1];
  if (!last) return undefined;
  const m = /jsg\.\w*Error: (.*)$/.exec(last) ?? /Uncaught exception:\s*(.*)$/.exec(last);
  return m?.[1]?.trim() || undefined;
}

/** The variant's V8 flags plus the GC trace the host reads, unless the variant turned it off. */
export function withGcTrace(v8Flags: readonly string[]): readonly string[] {
  return v8Flags.includes(GC_TRACE_OPT_OUT) || v8Flags.includes(GC_TRACE_FLAG) ? v8Flags : [...v8Flags, GC_TRACE_FLAG];
}

export async function runWorkerdJob(request: JobRequest): Promise<JobOutcome> {
  const running = startWorkerdJob(request);
  running.endInput();
  return running.outcome;
}

/** For a job run under a tool that talks to workerd itself (a profiler over the inspector). */
export interface WorkerdJobHooks {
  /** More `workerd serve` options (e.g. --inspector-addr=127.0.0.1:0). */
  serveOptions?: readonly string[];
  /** Awaited once the server listens, before the job is sent. */
  beforeExchange?(server: WorkerdProcess): Promise<void>;
  /** Awaited once the response has ended, before the server is stopped. */
  afterExchange?(server: WorkerdProcess): Promise<void>;
}

/**
 * A job on a fresh workerd: write the config, start the server, open one
 * streamed exchange (the job, then a lockstep job's commands, as lines of
 * the request body; protocol lines back in the response), stop the server
 * when the response ends, remove the config. Lines sent before the server
 * listens wait for it.
 */
export function startWorkerdJob(request: JobRequest, hooks: WorkerdJobHooks = {}): RunningJob {
  const started = performance.now();
  const { target, flags, bundlePath } = request;
  const { dir, configPath } = writeJobConfig({
    bundle: { path: bundlePath },
    v8Flags: withGcTrace(flags.args),
    workerdVersion: target.version,
    env: flags.env,
  });
  const job = request.job;
  const sealed = sealJob(job, flags.env);
  const gcTrace = flags.args.includes(GC_TRACE_OPT_OUT) ? undefined : new TraceFilter(new V8NvpTrace(), () => new V8NvpTrace());
  const facts: WorkerdFacts = { version: target.version, v8: target.engineVersion, ...(gcTrace ? { gcMarkers: true } : {}) };
  const firstLine = JSON.stringify({ ...(JSON.parse(sealed.text) as object), workerd: facts });
  const server = startWorkerd(target.binary, configPath, workerdEnv(flags.env), dir, undefined, gcTrace, hooks.serveOptions ?? [], request.wrap);
  const reader = new ProtocolReader({ token: sealed.token, job, other: server.output });
  let timedOut = false;
  let interrupted = false;
  let stoppedGracefully = false;
  // (A warm server's limit is a thousand case timeouts per set; setTimeout would run a longer one after 1 ms.)
  const timer = setTimeout(() => {
    timedOut = true;
    server.kill();
  }, Math.min(request.timeoutMs, MAX_TIMER_MS));
  const onAbort = (): void => {
    interrupted = true;
    server.kill();
  };
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (request.signal?.aborted) onAbort();

  // Lines the host sends before the exchange is open, and whether it ended its input.
  const queued: string[] = [firstLine];
  let inputEnded = false;
  let exchange: JobExchange | undefined;
  const exchanged = (async (): Promise<ResponseEnd | undefined> => {
    try {
      const port = await server.listening;
      if (port === undefined || server.killed) return undefined;
      await hooks.beforeExchange?.(server);
      if (server.killed) return undefined;
      exchange = openJobExchange(port, (text) => reader.push(text));
      for (const line of queued.splice(0)) exchange.send(line);
      if (inputEnded) exchange.end();
      const end = await exchange.done;
      if (!server.killed) await hooks.afterExchange?.(server);
      return end;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // The job is over (or failed): stop the server whatever happened. Under a
      // wrapper (valgrind) ask it to shut down, so the wrapper can write its summary.
      if (request.wrap && !server.killed) {
        stoppedGracefully = true;
        await server.terminate(WRAPPED_EXIT_GRACE_MS);
      } else server.kill();
    }
  })();

  const outcome = (async (): Promise<JobOutcome> => {
    try {
      const response = await exchanged;
      const exit = await server.exited;
      reader.end();
      return workerdOutcome({ request, reader, server, exit, response, gcTrace, timedOut, interrupted, started, stoppedGracefully });
    } finally {
      removeGuardedDir(dir);
    }
  })();

  return {
    reader,
    send: (line) => (exchange ? exchange.send(line) : void queued.push(line)),
    endInput: () => {
      inputEnded = true;
      exchange?.end();
    },
    kill: () => server.kill(),
    ...(server.pid !== undefined ? { pid: server.pid } : {}),
    outcome,
  };
}

interface EndedJob {
  request: JobRequest;
  reader: ProtocolReader;
  server: WorkerdProcess;
  exit: ChildExit;
  response: ResponseEnd | undefined;
  gcTrace: TraceFilter | undefined;
  timedOut: boolean;
  interrupted: boolean;
  started: number;
  /** The plugin asked the server to exit (SIGTERM) after the response, rather than killing it. */
  stoppedGracefully: boolean;
}

/** What workerd writes when it cancels a request whose promise nothing is left to settle. */
const WORKERD_HUNG = 'would never generate a response';

/** The outcome as a process plugin would give it, from what the server and the exchange left. */
function workerdOutcome({ request, reader, server, exit, response, gcTrace, timedOut, interrupted, started, stoppedGracefully }: EndedJob): JobOutcome {
  const { target, job } = request;
  if (gcTrace) {
    attachTraceMetrics(reader.messages, gcTrace, 'the sampling-phase markers did not reach workerd\'s stdout');
  } else {
    const result = reader.messages.find((m) => m.type === 'result');
    const why = `the variant turned V8's GC trace off (${GC_TRACE_OPT_OUT}); inside workerd heap statistics read as zeros`;
    if (result?.type === 'result') result.metrics = { source: 'none', unavailable: { gc: why, allocation: why, heap: why } };
  }

  const output = server.output.toString();
  const messages = reader.messages;
  // A SIGKILL from our kill() of a running server is our own stop; any other
  // end is workerd's (a crash, an abort on a V8 heap limit, the OOM killer).
  const stoppedByRunner = !timedOut && !interrupted && ((server.killedWhileRunning && exit.signal === 'SIGKILL') || (stoppedGracefully && (exit.code === 0 || exit.signal === 'SIGTERM')));
  // A serve job has no answer of its own: it ends when the host closes its input. A request that ended
  // while a case was open and unanswered is that case's end, told as for a job of its own.
  const openCase = job.kind === 'serve' ? (reader.currentAnswer ? undefined : reader.openCaseId) : undefined;
  const unanswered = job.kind === 'serve' ? openCase !== undefined : !reader.terminal;
  if (stoppedByRunner && response && unanswered && !reader.protocolErrors.length) {
    const why =
      uncaughtReason(output) ??
      (response.error
          ? `the connection failed: ${response.error}`
          : `HTTP status ${response.status ?? 'none'}, and no result in the response`);
    const caseId = job.kind === 'serve' ? openCase! : job.kind !== 'list' ? job.caseId : undefined;
    messages.push(
      // workerd's own finding that the worker hung, with nothing left that could settle its promise: said as every runtime says it.
      output.includes(WORKERD_HUNG)
        ? neverSettlesError(caseId)
        : { type: 'error', ...(caseId !== undefined ? { caseId } : {}), phase: 'run', message: `workerd ended the request without a result: ${why}` },
    );
  }
  if (exit.spawnError) server.output.push(`failed to start ${target.binary}: ${exit.spawnError.message}\n`);
  return {
    messages,
    exitCode: stoppedByRunner ? 0 : exit.code,
    exitSignal: stoppedByRunner ? null : exit.signal,
    timedOut,
    interrupted,
    stderr: server.output.toString(),
    protocolErrors: reader.protocolErrors,
    wallMs: performance.now() - started,
    ...(reader.hostSpanMs !== undefined ? { hostSpanMs: reader.hostSpanMs } : {}),
    ...(reader.hostLateMs !== undefined ? { hostLateMs: reader.hostLateMs } : {}),
    ...(exit.memoryExceeded !== undefined ? { memoryExceeded: exit.memoryExceeded } : {}),
  };
}
