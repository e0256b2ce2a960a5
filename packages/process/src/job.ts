/**
 * One job for one process, from the host's side: sealing it with the
 * process's token, what came of it (JobOutcome), and reading that as one verdict.
 */
import { randomBytes } from 'node:crypto';
import type { CaseResultMessage, Job, RuntimeMessage, WireJob } from '@rtbench/core/protocol';
import type { HostMemory } from '@rtbench/core/schema';
import { memoryBoundText } from './memory-bound.ts';

/** What came of a job's process: its messages, how it ended, and how it broke the protocol if it did. */
export interface JobOutcome {
  messages: RuntimeMessage[];
  /**
   * Exit code, or null when killed by a signal. A server runtime (workerd)
   * is stopped by its plug-in once the response has ended: that reads as 0.
   */
  exitCode: number | null;
  exitSignal: string | null;
  timedOut: boolean;
  interrupted: boolean;
  /** Last part of stderr (and of non-protocol stdout), for error reports. */
  stderr: string;
  /**
   * How the process broke the protocol: marked lines (with its token) that
   * did not validate, messages out of order or after its one answer,
   * oversized lines. Any entry fails the job.
   */
  protocolErrors: string[];
  wallMs: number;
  /** ms on the host's clock from reading the process's hello to reading its answer (absent when either is missing). */
  hostSpanMs?: number;
  /** The longest the host's own event loop ran late within that span, ms (host-lateness.ts): how much of the span may be the host's. */
  hostLateMs?: number;
  /**
   * The process gave its answer but had not exited EXIT_GRACE_MS later, so
   * the host ended it (node 26 was seen to deadlock in its own exit, joining
   * V8's worker threads, after an allocation-heavy lockstep job).
   */
  stoppedAfterAnswer?: boolean;
  /** Processes the job's process started that were still running when it exited; ended then (containment.ts). */
  leftBehind?: number[];
  /** It closed its stdout (rtbench's channel) while still running, before answering; the host ended it. */
  stdoutClosed?: boolean;
  /** At the timeout, it was blocked reading its stdin (which carries rtbench's job and commands). */
  blockedOnStdin?: boolean;
  /** At the timeout, it was stopped (SIGSTOP, SIGTSTP: state T), not running slowly. */
  stopped?: boolean;
  /** A process that escaped containment still held its stdout or stderr after it exited; the host stopped reading (process.ts STDIO_GRACE_MS). */
  pipeHeld?: boolean;
  /** It held more resident memory than this bound (bytes, --max-memory) and the host stopped it (memory-bound.ts). */
  memoryExceeded?: number;
  /** Stopped at the bound: the most resident memory the host read of it then, bytes (process.ts). */
  memoryPeak?: number;
  /** A lockstep case's resident memory as the host read it while the process served it (session.ts). */
  memory?: HostMemory;
}

export interface SealedJob {
  job: Job;
  /** 128 random bits drawn for this process only (see core/protocol.ts). */
  token: string;
  /** The job with its token, as the entry reads it (JSON). */
  text: string;
}

/** `variantEnv`: the variables the variant sets; the entry removes all others. */
export function sealJob(job: Job, variantEnv: Readonly<Record<string, string>>): SealedJob {
  const token = randomBytes(16).toString('hex');
  const wire: WireJob = { ...job, token, env: Object.keys(variantEnv) };
  return { job, token, text: JSON.stringify(wire) };
}

/** A runtime's own closing line after an uncaught error, its name and release ("Node.js v26.10.0", "Bun v1.4.5 (Linux x64)"): never the reason. */
const VERSION_BANNER = /^[A-Za-z][\w.]* v?\d+\.\d+\.\d+(?:[-+][\w.]+)?(?: \([^)]*\))?$/;

/**
 * The line of a process's stderr that says what went wrong: the last error it
 * printed ("TypeError: …", "error: …", "Uncaught …"), else its last line that
 * is neither a stack frame nor the runtime's version banner; undefined when
 * there is none.
 */
export function stderrReason(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '^');
  const error = lines.findLast((l) => /^(?:Uncaught\s+)?(?:[A-Za-z]*Error|error|Exception)\b/.test(l));
  return error ?? lines.findLast((l) => !VERSION_BANNER.test(l) && !/^at\s/.test(l));
}

/** Why a process died, read from its last output: the line a user needs to see, or undefined. */
export function crashCause(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((l) => l.trim());
  const find = (re: RegExp): string | undefined => lines.find((l) => re.test(l));
  if (find(/out of memory|heap limit|Allocation failed|OutOfMemory|out-of-memory/i)) {
    const line = find(/heap out of memory|out of memory/i) ?? find(/heap limit|Allocation failed|OutOfMemory/i)!;
    return `heap out of memory (${line.slice(0, 200)})`;
  }
  if (find(/Maximum call stack size exceeded|stack overflow/i)) return 'stack overflow';
  const fatal = find(/^(FATAL ERROR|Fatal error|# Fatal|panic|thread '.*' panicked|Segmentation fault|Illegal instruction|Bus error|Aborted|error: Uncaught)/i);
  return fatal?.slice(0, 200);
}

/** How a process ended, after "the node process …": "was killed by SIGSEGV", "exited with code 3", or stopped at the memory bound. */
export function endedHow(outcome: Pick<JobOutcome, 'exitCode' | 'exitSignal' | 'memoryExceeded' | 'memoryPeak'>): string {
  if (outcome.memoryExceeded !== undefined) return `was stopped after it ${memoryBoundText(outcome.memoryExceeded, outcome.memoryPeak).replace(/; the process was stopped/, '')}`;
  return outcome.exitSignal ? `was killed by ${outcome.exitSignal}` : `exited with code ${outcome.exitCode}`;
}

export type JobVerdict =
  | { kind: 'result'; message: CaseResultMessage }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'failure'; failure: 'error' | 'crash' | 'timeout' | 'interrupted'; message: string; phase?: string; stack?: string };

/**
 * What a measure job's outcome means. A result counts only when it is the
 * process's one answer, the protocol was kept, and the process ended cleanly.
 */
export function judgeOutcome(outcome: JobOutcome, runtime: string, timeoutMs: number): JobVerdict {
  if (outcome.interrupted) return { kind: 'failure', failure: 'interrupted', message: 'interrupted before this job finished' };
  if (outcome.memoryExceeded !== undefined) return { kind: 'failure', failure: 'crash', message: memoryBoundText(outcome.memoryExceeded, outcome.memoryPeak) };
  if (outcome.stdoutClosed) {
    return { kind: 'failure', failure: 'error', message: `the ${runtime} process closed its stdout, which carries its answer to rtbench, and was ended (a case must not close or redirect stdout)` };
  }
  if (outcome.timedOut && outcome.blockedOnStdin) {
    return { kind: 'failure', failure: 'error', message: `no result within ${timeoutMs} ms: the ${runtime} process was blocked reading its stdin, which carries rtbench's job and commands, and was killed (a case must not read stdin)` };
  }
  if (outcome.timedOut && outcome.stopped) {
    return { kind: 'failure', failure: 'error', message: `no result within ${timeoutMs} ms: the ${runtime} process was stopped (SIGSTOP or SIGTSTP) and never resumed, and was killed (a case must not stop its own process)` };
  }
  // What the case said it waits for (ctx.waitingFor) explains a result that never came better than a guess.
  const waiting = outcome.messages.findLast((m) => m.type === 'waiting');
  const whileWaiting = waiting ? ` while the case waited for ${waiting.on}` : '';
  if (outcome.timedOut) {
    return { kind: 'failure', failure: 'timeout', message: `no result within ${timeoutMs} ms${whileWaiting}; the process was killed${waiting ? '' : ' (raise --timeout for slow cases)'}` };
  }
  if (outcome.protocolErrors.length) {
    return { kind: 'failure', failure: 'error', message: `the ${runtime} process broke rtbench's protocol: ${outcome.protocolErrors.join('; ')}` };
  }
  const answer = outcome.messages.find((m) => m.type === 'result' || m.type === 'unsupported' || m.type === 'error');
  const how = endedHow(outcome);
  const cause = crashCause(outcome.stderr);
  if (answer?.type === 'error') {
    return { kind: 'failure', failure: 'error', message: answer.message, phase: answer.phase, ...(answer.stack ? { stack: answer.stack } : {}) };
  }
  // Ended by the host after its answer (it did not exit by itself): the answer stands.
  const clean = (outcome.exitCode === 0 && outcome.exitSignal === null) || outcome.stoppedAfterAnswer === true;
  if (answer && !clean) {
    return { kind: 'failure', failure: 'crash', message: `the ${runtime} process ${how} after its ${answer.type}${cause ? `: ${cause}` : ''}` };
  }
  if (answer?.type === 'result') return { kind: 'result', message: answer };
  if (answer?.type === 'unsupported') return { kind: 'unsupported', reason: answer.reason };
  return { kind: 'failure', failure: 'crash', message: `the ${runtime} process ${how} without a result${whileWaiting}${cause ? `: ${cause}` : ''}` };
}

/** The warning for processes a job's process left running (ended when it exited), naming them; undefined when it left none. */
export function leftBehindWarning(outcome: Pick<JobOutcome, 'leftBehind'>, runtime: string): string | undefined {
  const pids = outcome.leftBehind ?? [];
  if (!pids.length) return undefined;
  const shown = pids.length > 8 ? `${pids.slice(0, 8).join(', ')}, …` : pids.join(', ');
  return `the case left ${pids.length} process${pids.length === 1 ? '' : 'es'} running when the ${runtime} process exited (PID ${shown}); rtbench ended ${pids.length === 1 ? 'it' : 'them'}`;
}
