/**
 * One Job on workerd: a fresh workerd process per job (the harness's unit of
 * replication is the process, as on the other runtimes). Write the config,
 * start workerd, POST the Job, read the streamed protocol lines, then stop
 * the server by PID — always: after a result, an error, a crash, a timeout
 * or an interrupt — and remove the config.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { attachTraceMetrics, guardDir, ProtocolReader, removeGuardedDir, sealJob, TraceFilter, type JobOutcome, type JobRequest } from '@rtbench/runner-kit';
import type { WorkerdFacts } from './handoff.ts';
import { workerdConfig } from './config.ts';
import { postJob, type ResponseEnd } from './http.ts';
import { startWorkerd } from './server.ts';
import { GC_TRACE_FLAG, GC_TRACE_OPT_OUT, V8NvpTrace } from './gc-trace.ts';

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
  const { v8Flags, workerdVersion, env } = options;
  writeFileSync(configPath, workerdConfig({ bundleRelativePath, v8Flags, workerdVersion, env }));
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
  const started = performance.now();
  const { target, flags, bundlePath } = request;
  const { dir, configPath } = writeJobConfig({
    bundle: { path: bundlePath },
    v8Flags: withGcTrace(flags.args),
    workerdVersion: target.version,
    env: flags.env,
  });
  try {
    return await serveJob(request, dir, configPath, started);
  } finally {
    removeGuardedDir(dir);
  }
}

/** Start the server, exchange the job, stop the server; the outcome as a process runner would give it. */
async function serveJob(request: JobRequest, dir: string, configPath: string, started: number): Promise<JobOutcome> {
  const { target, flags } = request;
  const job = request.job;
  const sealed = sealJob(job, flags.env);
  const gcTrace = flags.args.includes(GC_TRACE_OPT_OUT) ? undefined : new TraceFilter(new V8NvpTrace());
  const facts: WorkerdFacts = { version: target.version, v8: target.engineVersion, ...(gcTrace ? { gcMarkers: true } : {}) };
  const body = JSON.stringify({ ...(JSON.parse(sealed.text) as object), workerd: facts });
  const server = startWorkerd(target.binary, configPath, workerdEnv(flags.env), dir, undefined, gcTrace);
  const reader = new ProtocolReader({ token: sealed.token, job, other: server.output });
  let timedOut = false;
  let interrupted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    server.kill();
  }, request.timeoutMs);
  const onAbort = (): void => {
    interrupted = true;
    server.kill();
  };
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (request.signal?.aborted) onAbort();

  let response: ResponseEnd | undefined;
  try {
    const port = await server.listening;
    if (port !== undefined && !server.killed) response = await postJob(port, body, (text) => reader.push(text));
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    // The job is over (or failed): stop the server whatever happened.
    server.kill();
  }
  const exit = await server.exited;
  reader.end();
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
  const stoppedByRunner = server.killedWhileRunning && exit.signal === 'SIGKILL' && !timedOut && !interrupted;
  if (stoppedByRunner && response && !reader.terminal && !reader.protocolErrors.length) {
    const why =
      uncaughtReason(output) ??
      (response.error
          ? `the connection failed: ${response.error}`
          : `HTTP status ${response.status ?? 'none'}, and no result in the response`);
    messages.push({
      type: 'error',
      ...(job.kind === 'measure' ? { caseId: job.caseId } : {}),
      phase: 'run',
      message: `workerd ended the request without a result: ${why}`,
    });
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
  };
}
