/**
 * Running runtime processes. Every child is started in its own process group
 * and recorded, so a timeout, an interrupt or the host's exit can end it (and
 * anything it started) by PID; the warden (warden.ts) ends them if the host
 * dies without a chance to. `spawnTracked` is the bookkeeping alone
 * (workerd's server uses it); `spawnJob` runs one Job whose protocol lines
 * come on the child's stdout (node, deno, bun).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { RuntimeMessage } from '@rtbench/core/protocol';
import type { JobOutcome, SealedJob } from './job.ts';
import { ProtocolReader, Tail } from './protocol-reader.ts';
import { TraceFile, type TraceFilter } from './engine-trace.ts';
import { guardGroup, releaseGroup } from './warden.ts';
import { containment, type Cell } from './containment.ts';
import { memoryBound, treeResidentBytes } from './memory-bound.ts';
import { peakBytesOf, stoppedPeak } from './cgroup-memory-peak.ts';
import { processTree } from './process-tree.ts';
import { readResident } from './resident-memory.ts';
import { threadFiles } from './thread-files.ts';

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
function killAllChildren(): void {
  for (const child of live) killTree(child);
}

/** The longest delay setTimeout keeps (Node runs a longer one after 1 ms): a job's time limit is held at this most. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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
  /** Processes it started that were still running when it exited (ended then, containment.ts). */
  leftBehind?: number[];
  /** Its stdout or stderr was still held open (by a process that escaped containment) STDIO_GRACE_MS after it exited; the host stopped reading it. */
  pipeHeld?: boolean;
  /** It (with what it started) held more resident memory than this bound, in bytes, and the host stopped it (memory-bound.ts). */
  memoryExceeded?: number;
  /** The most resident memory the host read of it as it stopped it at the bound (its high-water mark, or the reading over the bound), bytes. */
  memoryPeak?: number;
}

export interface TrackedChild {
  child: ChildProcess;
  /**
   * Resolves once the process has exited and what it left is ended: its
   * process group and its cell (containment.ts). The output it wrote before
   * exiting has been read by then; a pipe that an escaped process still
   * holds is given up STDIO_GRACE_MS after the exit, so a job ends with its
   * process, never with the pipe.
   */
  exited: Promise<ChildExit>;
}

/** How long after a process's exit the host still reads pipes that something else holds open. */
export const STDIO_GRACE_MS = 500;

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

/** How often the host reads each process's resident memory: a process that allocates 2 GB/s passes the bound by at most ~0.4 GB. */
const MEMORY_POLL_MS = 200;

/** Children whose memory the host watches: one timer for all of them, while there are any. */
const watched = new Map<ChildProcess, { cell: Cell; bound: number; over: (usedBytes: number) => void }>();
let memoryTimer: ReturnType<typeof setInterval> | undefined;

function pollMemory(): void {
  for (const [child, watch] of watched) {
    if (child.pid === undefined) continue;
    const used = watch.cell.memoryInUse() ?? treeResidentBytes(child.pid);
    if (used !== undefined && used > watch.bound) {
      watched.delete(child);
      watch.over(used);
    }
  }
  if (!watched.size) {
    clearInterval(memoryTimer);
    memoryTimer = undefined;
  }
}

/** Holds `child` to `bound` bytes: past it, `over` is called once (it ends the process). */
function watchMemory(child: ChildProcess, cell: Cell, bound: number, over: (usedBytes: number) => void): void {
  cell.limitMemory(bound);
  watched.set(child, { cell, bound, over });
  // Unref'd: watching never keeps the host alive; the child's pipes do.
  memoryTimer ??= setInterval(pollMemory, MEMORY_POLL_MS).unref();
}

/**
 * Starts a child as the leader of a new process group, in a cell of its own
 * (containment.ts), records it until it is gone, and when it exits ends
 * whatever is left in its group and its cell.
 */
export function spawnTracked(options: SpawnTrackedOptions): TrackedChild {
  const cell = containment().cell();
  const child = cell.around(() =>
    spawn(options.command, options.args, {
    env: { ...options.env, ...cell.env },
    cwd: options.cwd,
    stdio: [options.stdinPipe ? 'pipe' : 'ignore', options.stdoutFd ?? 'pipe', options.stderrFd ?? 'pipe', ...Array.from({ length: options.extraPipes ?? 0 }, () => 'pipe' as const)],
    detached: true,
    }),
  );
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
  let memoryExceeded: number | undefined;
  let memoryPeak: number | undefined;
  const bound = memoryBound();
  if (child.pid !== undefined) {
    const pid = child.pid;
    watchMemory(child, cell, bound, (used) => {
      memoryExceeded = bound;
      // Read before the kill, while the processes still hold it: the case's peak (its mark is reset per case) or the reading
      // over the bound, and the cell's memory.peak where the kernel keeps one (it counts processes that already ended).
      memoryPeak = stoppedPeak([used, readResident(processTree(pid))?.peakBytes, peakBytesOf(cell.memoryPeak())]);
      killTree(child);
    });
  }
  const boundFields = (): Pick<ChildExit, 'memoryExceeded' | 'memoryPeak'> => ({ ...(memoryExceeded !== undefined ? { memoryExceeded } : {}), ...(memoryPeak !== undefined ? { memoryPeak } : {}) });
  const exited = new Promise<ChildExit>((resolve) => {
    let exit: Pick<ChildExit, 'code' | 'signal' | 'leftBehind'> | undefined;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (pipeHeld: boolean): void => {
      if (!live.delete(child)) return;
      clearTimeout(graceTimer);
      if (pipeHeld) for (const stream of child.stdio) stream?.destroy();
      cell.dispose();
      if (child.pid !== undefined) releaseGroup(child.pid);
      resolve({ ...(exit ?? { code: child.exitCode, signal: child.signalCode }), ...(spawnError ? { spawnError } : {}), ...(pipeHeld ? { pipeHeld } : {}) });
    };
    child.on('exit', (code, signal) => {
      watched.delete(child);
      // A cgroup's own limit may have stopped it first (the kernel's OOM killer inside the cell).
      if (memoryExceeded === undefined && signal === 'SIGKILL' && cell.killedForMemory()) {
        memoryExceeded = bound;
        // The processes are gone, and /proc with them: the cell's memory.peak alone still says how much they held.
        memoryPeak = peakBytesOf(cell.memoryPeak());
      }
      // The process is gone; nothing it started outlives it, in its group or its cell.
      let leftBehind: number[] = [];
      if (child.pid !== undefined) {
        // The cell first: it counts what is left, its group included, before anything is ended.
        leftBehind = cell.end();
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* group already empty */
        }
      }
      exit = { code, signal, ...(leftBehind.length ? { leftBehind } : {}), ...boundFields() };
      // Its own output is in the pipes now; they close as soon as the last holder is gone.
      graceTimer = setTimeout(giveUpIfSilent, STDIO_GRACE_MS);
    });
    // Bytes read from the child's pipes so far: output still arriving means its pipes are not held by something else.
    const bytesRead = (): number => child.stdio.reduce((sum, stream) => sum + ((stream as { bytesRead?: number } | null)?.bytesRead ?? 0), 0);
    let readAtGrace = -1;
    // In each turn of the event loop timers run before I/O is read: after the host was busy for longer than the
    // grace (a scan of a large binary, a loaded machine), the timer fires with the process's last output still
    // unread in the pipe. So the pipes are given up only after an I/O phase has passed with nothing new read,
    // and the grace starts again while output still comes.
    const giveUpIfSilent = (): void => {
      readAtGrace = bytesRead();
      setImmediate(() => {
        if (bytesRead() !== readAtGrace) graceTimer = setTimeout(giveUpIfSilent, STDIO_GRACE_MS);
        else finish(true);
      });
    };
    child.on('close', (code, signal) => {
      exit ??= { code, signal, ...boundFields() };
      finish(false);
    });
  });
  return { child, exited };
}

/** A child's exit (process.ts) in the words endedHow reads. */
export function exitOf(exit: ChildExit): Pick<JobOutcome, 'exitCode' | 'exitSignal' | 'memoryExceeded' | 'memoryPeak'> {
  return { exitCode: exit.code, exitSignal: exit.signal, ...(exit.memoryExceeded !== undefined ? { memoryExceeded: exit.memoryExceeded } : {}), ...(exit.memoryPeak !== undefined ? { memoryPeak: exit.memoryPeak } : {}) };
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
 * has ended. A plug-in's runJob and startSession are both built on it.
 */
export interface RunningJob {
  reader: ProtocolReader;
  /** Writes one line to the child's stdin (ignored once the child has gone). */
  send(line: string): void;
  /** Closes the child's stdin: no more lines. */
  endInput(): void;
  /** Ends the process group now. */
  kill(): void;
  /** The process's PID, where the host started it (its resident memory is read from /proc: resident-memory.ts). */
  pid?: number;
  /** Whether the process is stopped (SIGSTOP, SIGTSTP) rather than running: read before killing it at a timeout. */
  isStopped?(): boolean;
  outcome: Promise<JobOutcome>;
}

/** How long a process may take to exit after its answer before the host ends it. */
export const EXIT_GRACE_MS = 3_000;
/** How long a process may go on after closing its stdout (the channel) before its answer, before the host ends it: the moment an exit takes. */
const CHANNEL_CLOSED_GRACE_MS = 200;

/** Syscall numbers of read, pread64 and readv on x86-64 (/proc/<pid>/task/<tid>/syscall gives the number and the arguments, fd first). */
const READ_SYSCALLS = process.arch === 'x64' ? new Set(['0', '17', '19']) : new Set<string>();

/** Whether a thread of `pid` is blocked reading its stdin (fd 0): what a job that never answers was waiting for (Linux x64; false elsewhere). */
function readingStdin(pid: number): boolean {
  return threadFiles(pid, 'syscall').some(([, text]) => {
    const [nr, fd] = text.split(' ');
    return READ_SYSCALLS.has(nr!) && fd === '0x0';
  });
}

/**
 * Whether `pid` has exited and waits to be reaped (state Z): its end may be
 * seen before the host's loop takes the exit event, which a timer that ran
 * first must not mistake for a live process (Linux; false elsewhere).
 */
export function exitedUnreaped(pid: number): boolean {
  return processState(pid) === 'Z';
}

/**
 * Whether `pid` is stopped (state T: SIGSTOP, SIGTSTP, SIGTTIN/SIGTTOU) and so
 * can never answer until something resumes it: a stopped process is not a
 * slow one (Linux; false elsewhere).
 */
function stoppedBySignal(pid: number): boolean {
  return processState(pid) === 'T';
}

/** The state letter of `pid` in /proc (R, S, T, Z, …), or undefined where there is none. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command name, which is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

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

  // A process that answered has nothing left to say: if it does not exit, end it (types.ts stoppedAfterAnswer).
  let stoppedAfterAnswer = false;
  const running = (): boolean => child.exitCode === null && child.signalCode === null && !(child.pid !== undefined && exitedUnreaped(child.pid));
  // Every end the host asks for goes through here: a process the host ended did not close its own stdout.
  let endedByHost = false;
  const end = (): void => {
    endedByHost = true;
    killTree(child);
  };
  // stdout is the channel: a process still running without it, before its answer, can never answer. End it now rather than at the timeout.
  let stdoutClosed = false;
  child.stdout!.on('end', () => {
    if (reader.terminal || endedByHost) return;
    setTimeout(() => {
      if (!running() || reader.terminal || endedByHost) return;
      stdoutClosed = true;
      end();
    }, CHANNEL_CLOSED_GRACE_MS).unref();
  });

  // The timeout bounds the wall time of the job. A process that answered and is only slow to exit is stoppedAfterAnswer, not timed out.
  // Node runs a timer longer than 2^31 − 1 ms after 1 ms instead: a longer bound (a warm process's life is a
  // thousand case timeouts per set it serves) is as good as none, and is held at that most.
  let blockedOnStdin = false;
  let stoppedBySignalAtTimeout = false;
  const timer = setTimeout(() => {
    if (reader.terminal) stoppedAfterAnswer = true;
    else {
      timedOut = true;
      // A lockstep or serve process waiting for the host's next command reads its stdin by design.
      blockedOnStdin = child.pid !== undefined && !reader.waitingForHost && readingStdin(child.pid);
      stoppedBySignalAtTimeout = child.pid !== undefined && stoppedBySignal(child.pid);
    }
    end();
  }, Math.min(options.timeoutMs, MAX_TIMER_MS));
  const onAbort = (): void => {
    interrupted = true;
    end();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  reader.listen(() => {
    if (!reader.terminal || graceTimer) return;
    graceTimer = setTimeout(() => {
      if (!running()) return;
      stoppedAfterAnswer = true;
      end();
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
      ...(reader.hostSpanMs !== undefined ? { hostSpanMs: reader.hostSpanMs } : {}),
      ...(reader.hostLateMs !== undefined ? { hostLateMs: reader.hostLateMs } : {}),
      ...(stoppedAfterAnswer ? { stoppedAfterAnswer } : {}),
      ...(exit.leftBehind ? { leftBehind: exit.leftBehind } : {}),
      ...(stdoutClosed ? { stdoutClosed } : {}),
      ...(blockedOnStdin ? { blockedOnStdin } : {}),
      ...(stoppedBySignalAtTimeout ? { stopped: true } : {}),
      ...(exit.pipeHeld ? { pipeHeld: exit.pipeHeld } : {}),
      ...(exit.memoryExceeded !== undefined ? { memoryExceeded: exit.memoryExceeded } : {}),
      ...(exit.memoryPeak !== undefined ? { memoryPeak: exit.memoryPeak } : {}),
    };
  });
  return {
    reader,
    send,
    endInput: () => {
      if (!child.stdin!.writableEnded) child.stdin!.end();
    },
    kill: end,
    ...(child.pid !== undefined ? { pid: child.pid } : {}),
    isStopped: () => child.pid !== undefined && stoppedBySignal(child.pid),
    outcome,
  };
}

/** One job in a fresh process: the job on stdin, then the outcome once the process has ended. */
export async function spawnJob(options: SpawnJobOptions): Promise<JobOutcome> {
  const running = startJob(options);
  running.endInput();
  return running.outcome;
}
