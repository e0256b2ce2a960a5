/**
 * Running runtime processes. Every child is started in its own process group
 * and recorded, so a timeout, an interrupt or the host's exit can end it (and
 * anything it started) by PID; the warden (warden.ts) ends them if the host
 * dies without a chance to. `spawnTracked` is the bookkeeping alone
 * (workerd's server uses it); `spawnJob` runs one Job whose protocol lines
 * come on the child's stdout (node, deno, bun).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { RuntimeMessage } from '@rtbench/core/protocol';
import type { SealedJob } from './job.ts';
import { ProtocolReader, Tail } from './protocol-reader.ts';
import { TraceFile, type TraceFilter } from './engine-trace.ts';
import type { JobOutcome } from './types.ts';
import { guardGroup, releaseGroup } from './warden.ts';

const live = new Set<ChildProcess>();
/** Every PID started here, newest last (bounded), so tests can prove each one is gone. */
const history: number[] = [];
const HISTORY_LIMIT = 10_000;

/** Kill a child's whole process group (it leads one: spawned detached). */
export function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** Ends every child this host started that is still running. */
export function killAllChildren(): void {
  for (const child of live) killTree(child);
}

/** PIDs of children still running (tests use it to prove nothing leaks). */
export function liveChildPids(): number[] {
  return [...live].flatMap((c) => (c.pid === undefined ? [] : [c.pid]));
}

/** PIDs of every child started by this host (the last 10,000), running or not. */
export function spawnedPids(): number[] {
  return [...history];
}

process.once('exit', killAllChildren);

export interface ChildExit {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  spawnError?: Error;
}

export interface TrackedChild {
  child: ChildProcess;
  /** Resolves once the process has ended and its stdio is closed. */
  exited: Promise<ChildExit>;
}

export interface SpawnTrackedOptions {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Extra pipes after stdin/stdout/stderr (fd 3, 4, …), e.g. workerd's --control-fd. */
  extraPipes?: number;
  /** Give the child this file descriptor as stdout / stderr instead of a pipe (an engine trace, see engine-trace.ts). */
  stdoutFd?: number;
  stderrFd?: number;
  /** A pipe on stdin (the job and a lockstep job's commands travel there); otherwise stdin is /dev/null. */
  stdinPipe?: boolean;
}

/**
 * Starts a child as the leader of a new process group, records it until it
 * is gone, and when it ends kills whatever is left in its group.
 */
export function spawnTracked(options: SpawnTrackedOptions): TrackedChild {
  const child = spawn(options.command, options.args, {
    env: options.env,
    cwd: options.cwd,
    stdio: [options.stdinPipe ? 'pipe' : 'ignore', options.stdoutFd ?? 'pipe', options.stderrFd ?? 'pipe', ...Array.from({ length: options.extraPipes ?? 0 }, () => 'pipe' as const)],
    detached: true,
  });
  live.add(child);
  if (child.pid !== undefined) {
    guardGroup(child.pid);
    history.push(child.pid);
    if (history.length > HISTORY_LIMIT) history.shift();
  }
  let spawnError: Error | undefined;
  child.on('error', (error) => {
    spawnError = error;
  });
  const exited = new Promise<ChildExit>((resolve) => {
    child.on('close', (code, signal) => {
      live.delete(child);
      // The process is gone; make sure nothing it started outlives it.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* group already empty */
        }
        releaseGroup(child.pid);
      }
      resolve({ code, signal, ...(spawnError ? { spawnError } : {}) });
    });
  });
  return { child, exited };
}

/** The command and arguments that run `binary args`, under `wrap` when given (JobRequest.wrap). */
export function wrapped(wrap: { command: string; args: string[] } | undefined, binary: string, args: string[]): { command: string; args: string[] } {
  return wrap ? { command: wrap.command, args: [...wrap.args, binary, ...args] } : { command: binary, args };
}

export interface SpawnJobOptions {
  command: string;
  /** Arguments; the job itself goes to the child's stdin (see core/line-reader.ts). */
  args: string[];
  job: SealedJob;
  env: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called for each validated message as it arrives. */
  onMessage?: (message: RuntimeMessage) => void;
  /** Takes an engine's trace out of stderr (see engine-trace.ts); stderr then goes to a file, read after the exit. */
  stderrFilter?: TraceFilter;
}

/**
 * A runtime process with a job, from the host's side: lines to its stdin
 * (the job first, then a lockstep job's commands) and its outcome once it
 * has ended. A runner's runJob and startSession are both built on it.
 */
export interface RunningJob {
  reader: ProtocolReader;
  /** Writes one line to the child's stdin (ignored once the child has gone). */
  send(line: string): void;
  /** Closes the child's stdin: no more lines. */
  endInput(): void;
  /** Ends the process group now. */
  kill(): void;
  outcome: Promise<JobOutcome>;
}

/** How long a process may take to exit after its answer before the host ends it. */
export const EXIT_GRACE_MS = 3_000;

export function startJob(options: SpawnJobOptions): RunningJob {
  const started = performance.now();
  const stderr = new Tail();
  const reader = new ProtocolReader({ token: options.job.token, job: options.job.job, other: stderr, ...(options.onMessage ? { onMessage: options.onMessage } : {}) });
  let timedOut = false;
  let interrupted = false;

  const traceFile = options.stderrFilter ? new TraceFile() : undefined;
  const { child, exited } = spawnTracked({ ...options, stdinPipe: true, ...(traceFile ? { stderrFd: traceFile.fd } : {}) });
  // A child that exits without reading its stdin makes writes fail with EPIPE: that is its outcome's business, not an error here.
  child.stdin!.on('error', () => {});
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => reader.push(chunk));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => stderr.push(chunk));

  const timer = setTimeout(() => {
    timedOut = true;
    killTree(child);
  }, options.timeoutMs);
  const onAbort = (): void => {
    interrupted = true;
    killTree(child);
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  // A process that answered has nothing left to say: if it does not exit, end it (types.ts stoppedAfterAnswer).
  let stoppedAfterAnswer = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  reader.listen(() => {
    if (!reader.terminal || graceTimer) return;
    graceTimer = setTimeout(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stoppedAfterAnswer = true;
      killTree(child);
    }, EXIT_GRACE_MS);
  });

  const send = (line: string): void => {
    if (!child.stdin!.writableEnded && !child.stdin!.destroyed) child.stdin!.write(`${line}\n`);
  };
  send(options.job.text);

  const outcome = exited.then((exit): JobOutcome => {
    clearTimeout(timer);
    clearTimeout(graceTimer);
    options.signal?.removeEventListener('abort', onAbort);
    reader.end();
    if (traceFile && options.stderrFilter) traceFile.drain(options.stderrFilter, (text) => stderr.push(text));
    if (exit.spawnError) stderr.push(`failed to start ${options.command}: ${exit.spawnError.message}\n`);
    return {
      messages: reader.messages,
      exitCode: exit.code,
      exitSignal: exit.signal,
      timedOut,
      interrupted,
      stderr: stderr.toString(),
      protocolErrors: reader.protocolErrors,
      wallMs: performance.now() - started,
      ...(stoppedAfterAnswer ? { stoppedAfterAnswer } : {}),
    };
  });
  return {
    reader,
    send,
    endInput: () => {
      if (!child.stdin!.writableEnded) child.stdin!.end();
    },
    kill: () => killTree(child),
    outcome,
  };
}

/** One job in a fresh process: the job on stdin, then the outcome once the process has ended. */
export async function spawnJob(options: SpawnJobOptions): Promise<JobOutcome> {
  const running = startJob(options);
  running.endInput();
  return running.outcome;
}
