/**
 * Lockstep processes from the host's side. A process warms a case up and says
 * `ready`; the host asks it for one sample at a time (SAMPLE_COMMAND) and, at
 * the end, for the case's result (FINISH_COMMAND), taking the live processes
 * of a case in turn so their samples share the machine's state. Two shapes:
 * liveCase, a process started with a lockstep job, holds one case and ends
 * after its result; warmProcess, started with a serve job, holds many cases in
 * turn (open → ready → samples → finish → next open) and ends when the host
 * closes it. The transport is the plug-in's (stdin/stdout, or a streamed HTTP
 * exchange for workerd); the conversation is the same. docs/lockstep.md.
 */
import { caseCommand, COLLECT_COMMAND, FINISH_COMMAND, lockstepSampleIterations, sampleCommand, type ErrorMessage, type ReadyMessage, type RuntimeMessage } from '@rtbench/core/protocol';
import { EXIT_GRACE_MS, type RunningJob } from './process.ts';
import type { HostMemory } from '@rtbench/core/schema';
import type { JobOutcome } from './job.ts';
import { CaseMemoryWatch } from './resident-memory.ts';
import { emulatorOf } from './emulator.ts';
import { mainThreadSchedule, processTreeCpuTimes, scheduleBetween, type ThreadCpuTimes, type ThreadSchedule } from './cpu-time.ts';

/** One lockstep sample as the host saw it. */
export interface SampleReading {
  /** ns per iteration, on the process's clock. */
  ns: number;
  /** ns the process says passed between the host's command and its answer (absent from older entries). */
  spanNs?: number;
  /** ns the host waited, on its own clock, from sending the command to reading the answer. */
  waitedNs: number;
  /** When the host sent the command and read the answer, in ms on its clock (performance.now). */
  sentMs: number;
  receivedMs: number;
  /**
   * ns the process's main thread ran from just before the command to just
   * after the answer, as the kernel counts it (absent off Linux): what the
   * exchange's span is held against without the work the process did while
   * it waited its turn (corroborate.ts).
   */
  mainThreadNs?: number;
  /** ns the same thread waited on a run queue for a core in the same window: what a loaded machine added to the span. */
  mainThreadWaitNs?: number;
}

export interface LiveCase {
  /** The ready message, or undefined when the process answered (unsupported, an error) or ended first. */
  readonly ready: Promise<ReadyMessage | undefined>;
  /**
   * One sample; undefined when the process answered or ended instead.
   * `iterations`: exactly that many calls (a fixed-iteration job only:
   * protocol.ts sampleCommand).
   */
  sample(iterations?: number): Promise<SampleReading | undefined>;
  /**
   * A fixed-iteration job only: the process empties its young generation
   * (COLLECT_COMMAND) and answers; false when it answered the case or ended
   * instead.
   */
  collect(): Promise<boolean>;
  /** Asks for the case's result; a lone case's process is then waited for until it ends. */
  finish(): Promise<JobOutcome>;
  /** Ends the process now (its outcome then says how it ended). */
  kill(): void;
  /** The CPU time each thread of the process (and of processes below it) has run so far, read by the host; undefined off Linux or once it is gone. */
  cpuTimes(): ThreadCpuTimes | undefined;
  /** What its own main thread (tid = pid) has run and waited for a core so far, read by the host; undefined off Linux or once it is gone. */
  mainThreadSchedule(): ThreadSchedule | undefined;
  /** The user-mode emulator the process runs under (emulator.ts), or undefined when it runs natively or cannot be told. */
  emulator(): string | undefined;
}

/** A process that serves many cases, one after another (a serve job). */
export interface WarmProcess {
  /**
   * Opens a case: the process sets it up, warms it and says ready. Its
   * finish() gives that case's outcome and leaves the process running for
   * the next case. `timeoutMs` bounds this case alone (the process is
   * killed after it). Open the next case only after finish(). `keep`: the
   * process keeps the case set up and warm after its result, and opening it
   * again skips setup and warmup (protocol.ts KEEP_COMMAND). `tierUpCallNs`:
   * the rate an earlier process of the runtime ran the case at past the
   * engine's tier-up horizon, which its warmup projects the horizon with
   * (protocol.ts caseCommand).
   */
  open(caseId: string, timeoutMs: number, keep?: boolean, tierUpCallNs?: number): LiveCase;
  /**
   * No more cases: closes the input and waits for the process to end (ended
   * by the host EXIT_GRACE_MS later if it does not exit). `closingErrors`:
   * kept cases whose teardown failed as the process closed.
   */
  close(): Promise<JobOutcome & { closingErrors: readonly ErrorMessage[] }>;
  kill(): void;
  /** True while the process can take another case: alive, and it kept the protocol. */
  readonly usable: boolean;
  /** Case ids opened in this process so far, in order. */
  readonly served: readonly string[];
  /**
   * Settles once the runtime has started and loaded the suite (its hello) or
   * has ended: from then on a process not asked for a case sits blocked on its
   * input, off the CPU. A process started ahead of its case is awaited so
   * before another's samples are taken.
   */
  readonly loaded: Promise<void>;
}

/** The case's calls per sample, from its ready message: what the host's memory readings are per. */
function watchReady(memory: CaseMemoryWatch | undefined, message: ReadyMessage): void {
  memory?.ready(lockstepSampleIterations(message.iterationsPerSample, message.batchNs, message.span), message.collected === true);
}

export function liveCase(running: RunningJob): LiveCase {
  // A process of its own: its case opens as it starts (its setup may run before the host reads its hello).
  const memory = running.pid !== undefined ? new CaseMemoryWatch(running.pid) : undefined;
  let memoryAtAnswer: HostMemory | undefined;
  let waiting: ((message: RuntimeMessage | undefined) => void) | undefined;
  let onReady: ((message: ReadyMessage | undefined) => void) | undefined;
  let over = false;
  const ready = new Promise<ReadyMessage | undefined>((resolve) => (onReady = resolve));
  const stop = (): void => {
    over = true;
    onReady?.(undefined);
    waiting?.(undefined);
    waiting = undefined;
  };
  running.reader.listen((message: RuntimeMessage) => {
    if (message.type === 'ready') {
      watchReady(memory, message);
      onReady?.(message);
    }
    else if (message.type === 'sample') {
      const resolve = waiting;
      waiting = undefined;
      resolve?.(message);
    } else if (message.type !== 'hello' && message.type !== 'warning') {
      // The peak is read as the answer arrives, while the process still lives.
      memoryAtAnswer ??= memory?.end();
      stop();
    }
  });
  void running.outcome.then(stop);
  return {
    ready,
    sample(iterations?: number) {
      return over ? Promise.resolve(undefined) : askSample(running, (resolve) => (waiting = resolve), sampleCommand(iterations), memory);
    },
    async collect() {
      return !over && (await askSample(running, (resolve) => (waiting = resolve), COLLECT_COMMAND)) !== undefined;
    },
    async finish() {
      running.send(FINISH_COMMAND);
      running.endInput();
      const outcome = await running.outcome;
      const read = memoryAtAnswer ?? memory?.end();
      return read ? { ...outcome, memory: read } : outcome;
    },
    kill: () => running.kill(),
    ...processReaders(running, () => true),
  };
}

/** A live case's readings of its process (CPU time of its threads, the emulator it runs under), taken only while it lives. */
function processReaders(running: RunningJob, alive: () => boolean): Pick<LiveCase, 'cpuTimes' | 'mainThreadSchedule' | 'emulator'> {
  const read = <T>(of: (pid: number) => T) => (): T | undefined => (running.pid !== undefined && alive() ? of(running.pid) : undefined);
  return { cpuTimes: read(processTreeCpuTimes), mainThreadSchedule: read(mainThreadSchedule), emulator: read(emulatorOf) };
}

/** Sends a command a sample message answers (SAMPLE_COMMAND, COLLECT_COMMAND) and times the wait for the answer on the host's clock. */
function askSample(running: RunningJob, wait: (resolve: (message: RuntimeMessage | undefined) => void) => void, command: string, memory?: CaseMemoryWatch): Promise<SampleReading | undefined> {
  return new Promise((resolve) => {
    let asked = 0;
    let cpuAsked: ThreadSchedule | undefined;
    wait((message) => {
      const receivedMs = performance.now();
      if (message?.type !== 'sample') return resolve(undefined);
      const ran = scheduleBetween(cpuAsked, mainThreadSchedule(running.pid));
      memory?.sampled();
      const mainThread = ran ? { mainThreadNs: ran.runNs, mainThreadWaitNs: ran.waitNs } : {};
      resolve({ ns: message.ns, ...(message.spanNs !== undefined ? { spanNs: message.spanNs } : {}), waitedNs: (receivedMs - asked) * 1e6, sentMs: asked, receivedMs, ...mainThread });
    });
    running.reader.expectSample();
    cpuAsked = mainThreadSchedule(running.pid);
    asked = performance.now();
    running.send(command);
  });
}

/** The case being served: what its listeners wait for. */
interface OpenCase {
  caseId: string;
  firstMessage: number;
  firstProtocolError: number;
  opened: number;
  onReady: (message: ReadyMessage | undefined) => void;
  waiting?: ((message: RuntimeMessage | undefined) => void) | undefined;
  onAnswer: () => void;
  answered: Promise<void>;
  timedOut: boolean;
  /** The host's readings of the process's resident memory while it serves this case. */
  memory?: CaseMemoryWatch;
  /** At its timeout the process was stopped (SIGSTOP), not slow. */
  stopped?: boolean;
  timer: ReturnType<typeof setTimeout>;
}

/** A warm process's own state: what its listeners, its cases and its close read and set. */
interface ProcessState {
  running: RunningJob;
  served: string[];
  current: OpenCase | undefined;
  ended: JobOutcome | undefined;
  broken: boolean;
  closing: boolean;
  /** The first case, opened before the runtime said hello: sent once it has (startCase). */
  sendOnHello: (() => void) | undefined;
  onLoaded: () => void;
}

export function warmProcess(running: RunningJob): WarmProcess {
  let onLoaded!: () => void;
  const loaded = new Promise<void>((resolve) => (onLoaded = resolve));
  const state: ProcessState = { running, served: [], current: undefined, ended: undefined, broken: false, closing: false, sendOnHello: undefined, onLoaded };
  listenTo(state);
  return {
    get usable() {
      return !state.ended && !state.broken && !state.closing;
    },
    served: state.served,
    loaded,
    open: (caseId, timeoutMs, keep = false, tierUpCallNs) => openCase(state, caseId, timeoutMs, keep, tierUpCallNs),
    close: () => closeProcess(state),
    kill: () => running.kill(),
  };
}

/** Ends whatever the open case waits for: its ready, its sample, its answer. */
function settle(c: OpenCase): void {
  clearTimeout(c.timer);
  c.onReady(undefined);
  c.waiting?.(undefined);
  c.waiting = undefined;
  c.onAnswer();
}

/** Routes the process's messages to the open case, and settles it when the process ends. */
function listenTo(state: ProcessState): void {
  state.running.reader.listen((message) => {
    if (message.type === 'hello') {
      state.onLoaded();
      state.sendOnHello?.();
      state.sendOnHello = undefined;
    }
    const c = state.current;
    if (!c) return;
    if (message.type === 'ready') {
      watchReady(c.memory, message);
      c.onReady(message);
    } else if (message.type === 'sample') {
      const resolve = c.waiting;
      c.waiting = undefined;
      resolve?.(message);
    } else if (message.type !== 'hello' && message.type !== 'warning') {
      // A process whose event loop ran empty answers its case and exits: it serves no other.
      if (message.type === 'error' && message.neverSettles) state.broken = true;
      settle(c);
    }
  });
  void state.running.outcome.then((outcome) => {
    state.ended = outcome;
    state.onLoaded();
    if (state.current) settle(state.current);
  });
}

/** The case's own share of the process's messages and its outcome, whether the process lives on or ended. */
function caseOutcome(state: ProcessState, c: OpenCase): JobOutcome {
  const reader = state.running.reader;
  const messages = reader.messages.slice(c.firstMessage);
  const hello = reader.messages[0]?.type === 'hello' && c.firstMessage > 0 ? [reader.messages[0]] : [];
  const protocolErrors = reader.protocolErrors.slice(c.firstProtocolError);
  const wallMs = performance.now() - c.opened;
  if (protocolErrors.length) state.broken = true;
  if (reader.currentAnswer && !c.timedOut) {
    // Answered, and the process lives on: the case ended cleanly as far as the process goes.
    return { messages: [...hello, ...messages], exitCode: 0, exitSignal: null, timedOut: false, interrupted: false, stderr: '', protocolErrors, wallMs };
  }
  const outcome = state.ended!;
  return { ...outcome, messages: [...hello, ...messages], protocolErrors: [...protocolErrors, ...outcome.protocolErrors.slice(reader.protocolErrors.length)], timedOut: outcome.timedOut || c.timedOut, ...(c.stopped ? { stopped: true } : {}), wallMs };
}

/** Opens a case on the process: sent now, or once the runtime has said hello; ended by the process at its timeout. */
function openCase(state: ProcessState, caseId: string, timeoutMs: number, keep: boolean, tierUpCallNs: number | undefined): LiveCase {
  const { running } = state;
  const reader = running.reader;
  const { current } = state;
  if (current && !reader.currentAnswer && !state.ended) throw new Error(`case "${caseId}" opened while "${current.caseId}" is still open`);
  let onReady!: (message: ReadyMessage | undefined) => void;
  let onAnswer!: () => void;
  const ready = new Promise<ReadyMessage | undefined>((resolve) => (onReady = resolve));
  const answered = new Promise<void>((resolve) => (onAnswer = resolve));
  const c: OpenCase = {
    caseId,
    firstMessage: reader.messages.length,
    firstProtocolError: reader.protocolErrors.length,
    opened: performance.now(),
    onReady,
    onAnswer,
    answered,
    timedOut: false,
    timer: setTimeout(() => {
      c.timedOut = true;
      c.stopped = running.isStopped?.() ?? false;
      running.kill();
    }, timeoutMs),
  };
  state.current = c;
  state.served.push(caseId);
  if (state.ended) settle(c);
  else {
    const startCase = (): void => {
      // The peak is reset before the case's setup: what the process holds from here on is this case's.
      if (running.pid !== undefined) c.memory = new CaseMemoryWatch(running.pid);
      reader.openCase(caseId);
      running.send(caseCommand(caseId, keep, tierUpCallNs));
    };
    // A runtime says hello once it has started and loaded the suite, before it reads a command. Sent after that,
    // the first case's peak above open is its own, not the runtime's start-up as well.
    if (reader.messages[0]?.type === 'hello') startCase();
    else state.sendOnHello = startCase;
  }
  return servedCase(state, c, ready);
}

/** What the measurer holds of an open case: its samples, a collection, its end. */
function servedCase(state: ProcessState, c: OpenCase, ready: Promise<ReadyMessage | undefined>): LiveCase {
  const { running } = state;
  const reader = running.reader;
  const servesIt = (): boolean => !state.ended && !reader.currentAnswer && state.current === c;
  return {
    ready,
    sample(iterations?: number) {
      if (!servesIt()) return Promise.resolve(undefined);
      return askSample(running, (resolve) => (c.waiting = resolve), sampleCommand(iterations), c.memory);
    },
    async collect() {
      if (!servesIt()) return false;
      return (await askSample(running, (resolve) => (c.waiting = resolve), COLLECT_COMMAND)) !== undefined;
    },
    async finish() {
      if (!state.ended && !reader.currentAnswer) running.send(FINISH_COMMAND);
      await c.answered;
      const memory = c.memory?.end();
      // A case that did not answer leaves a process that ended (or was killed): its outcome says how.
      if (!reader.currentAnswer || c.timedOut) await running.outcome;
      const outcome = caseOutcome(state, c);
      return memory ? { ...outcome, memory } : outcome;
    },
    kill: () => running.kill(),
    ...processReaders(running, () => !state.ended),
  };
}

/** Closes the process's input and waits for it to exit, ending it after EXIT_GRACE_MS (types.ts stoppedAfterAnswer). */
async function closeProcess(state: ProcessState) {
  const { running } = state;
  state.closing = true;
  running.reader.closeInput();
  running.endInput();
  let stopped = false;
  const grace = setTimeout(() => {
    stopped = true;
    running.kill();
  }, EXIT_GRACE_MS);
  const outcome = await running.outcome;
  clearTimeout(grace);
  const closed = { ...outcome, closingErrors: running.reader.closingErrors };
  return stopped ? { ...closed, stoppedAfterAnswer: true } : closed;
}
