/**
 * Reading protocol lines from any text stream: a child's stdout (node, deno,
 * bun) or an HTTP response body (workerd). Only lines behind the marker and
 * this process's token are messages; everything else (a case's own output,
 * imitations without the token included) goes to a bounded side channel for
 * error reports. One pass, nothing re-scanned: a case printing tens of MB on
 * one line costs linear time, and only a protocol line is buffered whole (up
 * to MAX_LINE_CHARS). It holds the process to the protocol's order
 * (execute.ts): a hello, warnings, exactly one answer for its job; anything
 * else is recorded in `protocolErrors`, and the host fails the job.
 */
import { linePrefix, type ErrorMessage, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import { parseRuntimeMessage } from '@rtbench/core/protocol-schema';
import { watchHostLateness, type LatenessWatch } from './host-lateness.ts';

/** Keeps the last `limit` characters of a stream. */
export class Tail {
  private text = '';
  constructor(private readonly limit = 8_000) {}
  push(chunk: string): void {
    if (chunk.length >= this.limit) {
      this.text = chunk.slice(-this.limit);
      return;
    }
    this.text += chunk;
    if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
  }
  toString(): string {
    return this.text.length > this.limit ? `…${this.text.slice(-this.limit)}` : this.text;
  }
}

/**
 * Longest protocol line the host accepts: a result of 100,000 samples (the
 * most a process may take) is about 2.5 MB; 32 MB leaves room for anything
 * honest and bounds what one process can make the host hold.
 */
const MAX_LINE_CHARS = 32 << 20;

export interface ProtocolReaderOptions {
  /** This process's token (sealJob). */
  token: string;
  /** The job the process was given: which answers are valid. */
  job: Job;
  /** Receives the output that is not a message (a case's own output, runtime errors). */
  other: Tail;
  /** Called for each accepted message as it arrives. */
  onMessage?: (message: RuntimeMessage) => void;
  /** For tests; defaults to MAX_LINE_CHARS. */
  maxLineChars?: number;
}

const ANSWERS: Record<Job['kind'], ReadonlySet<RuntimeMessage['type']>> = {
  list: new Set(['cases', 'error']),
  measure: new Set(['result', 'unsupported', 'error']),
  paced: new Set(['result', 'unsupported', 'error']),
  serve: new Set(['result', 'unsupported', 'error']),
};

export class ProtocolReader {
  /** Accepted messages, in order: at most a hello and one answer. */
  readonly messages: RuntimeMessage[] = [];
  /** Why the process broke the protocol: lines that did not validate, messages out of order, oversized lines. */
  readonly protocolErrors: string[] = [];

  private readonly prefix: string;
  private readonly maxLineChars: number;
  /** Characters of the current line held back because they may begin the prefix. */
  private pending = '';
  /** Pieces of the current protocol line, once its prefix was seen. */
  private pieces: string[] | undefined;
  private piecesLength = 0;
  /** The current line's protocol text grew past the bound: ignore the rest of the line. */
  private discarding = false;
  /** The current line holds output that is not a message. */
  private lineHasOther = false;
  private answer: RuntimeMessage | undefined;
  /** A serve job: the case the host opened last (openCase), and whether it has answered. */
  private currentCase: string | undefined;
  private caseAnswered: RuntimeMessage | undefined;
  /** A serve job: every case the host opened, and whether it has closed the process's input (closeInput). */
  private readonly openedCases = new Set<string>();
  private inputClosed = false;
  /** A serve job: the late teardown errors of kept cases, said after the host closed the input. */
  readonly closingErrors: ErrorMessage[] = [];
  /** Lockstep: whether "ready" came, samples received, samples the host asked for. */
  private ready = false;
  private samples = 0;
  private asked = 0;

  constructor(private readonly options: ProtocolReaderOptions) {
    this.prefix = linePrefix(options.token);
    this.maxLineChars = options.maxLineChars ?? MAX_LINE_CHARS;
  }

  private readonly listeners: ((message: RuntimeMessage) => void)[] = [];

  /** Also calls `listener` with each accepted message from now on. */
  listen(listener: (message: RuntimeMessage) => void): void {
    this.listeners.push(listener);
  }

  /** The host asked a lockstep process for one more sample (a sample it did not ask for is a violation). */
  expectSample(): void {
    this.asked++;
  }

  /**
   * A serve job: the host asked the process to open this case (CASE_COMMAND).
   * Until its answer, messages must be for this case, in a lockstep job's
   * order; between cases the process has nothing to say.
   */
  openCase(caseId: string): void {
    this.openedCases.add(caseId);
    this.currentCase = caseId;
    this.caseAnswered = undefined;
    this.ready = false;
    this.samples = 0;
    this.asked = 0;
  }

  /**
   * A serve job: the host closed the process's input (no more cases). From
   * now on the process may only say that a case it kept set up failed its
   * teardown as it closed: an error message of phase "teardown" for a case
   * the host opened (collected in closingErrors).
   */
  closeInput(): void {
    this.inputClosed = true;
  }

  /** When the hello and the one answer were read, in ms on the host's clock (corroborates the answer's elapsedMs). */
  private helloAtMs: number | undefined;
  private answerAtMs: number | undefined;
  /** Watches the host's own lateness from the hello to the answer (host-lateness.ts). */
  private lateness: LatenessWatch | undefined;
  private lateMs: number | undefined;

  /** The longest the host's event loop ran late between reading the hello and the answer, ms: how late the answer may have been read. */
  get hostLateMs(): number | undefined {
    return this.lateMs;
  }

  /** ms on the host's clock from reading the hello to reading the answer, once both came. */
  get hostSpanMs(): number | undefined {
    return this.helloAtMs !== undefined && this.answerAtMs !== undefined ? this.answerAtMs - this.helloAtMs : undefined;
  }

  /** The one answer (result, unsupported, error or cases), if it came. A serve job has none: it ends when the host closes its input. */
  get terminal(): RuntimeMessage | undefined {
    return this.answer;
  }

  /** A serve job: the case the host opened last, answered or not. */
  get openCaseId(): string | undefined {
    return this.currentCase;
  }

  /**
   * Whether the process has answered everything the host asked and can only
   * wait for the host's next line on its stdin (a lockstep or serve process
   * between commands, a serve process between cases). A process found reading
   * its stdin then is waiting for the host, not a case that reads stdin.
   */
  get waitingForHost(): boolean {
    const kind = this.options.job.kind;
    if ((kind !== 'paced' && kind !== 'serve') || this.inputClosed || this.answer) return false;
    if (kind === 'serve' && (this.currentCase === undefined || this.caseAnswered)) return true;
    return this.ready && this.samples === this.asked;
  }

  /** A serve job: the open case's answer, if it came. */
  get currentAnswer(): RuntimeMessage | undefined {
    return this.caseAnswered;
  }

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      if (newline === -1) {
        if (start < chunk.length) this.feed(start === 0 ? chunk : chunk.slice(start));
        return;
      }
      if (newline > start) this.feed(chunk.slice(start, newline));
      this.endLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    this.endLine();
    this.lateness?.stop();
  }

  /** Part of the current line (no newline in it). */
  private feed(part: string): void {
    if (this.discarding) return;
    if (this.pieces) {
      this.append(part);
      return;
    }
    // Looking for the prefix. It may follow other text on the same line: a
    // runtime that writes through buffered stdio (V8's --trace-gc, a case's
    // console output still queued) can leave a partial line just before the
    // entry's write. `pending` is shorter than the prefix, so `text` is at
    // most a prefix longer than `part`.
    const text = this.pending + part;
    const at = text.indexOf(this.prefix);
    if (at !== -1) {
      if (at > 0) {
        this.options.other.push(text.slice(0, at));
        this.lineHasOther = true;
      }
      this.pending = '';
      this.pieces = [];
      this.piecesLength = 0;
      this.append(text.slice(at + this.prefix.length));
      return;
    }
    const keep = Math.min(text.length, this.prefix.length - 1);
    if (text.length > keep) {
      this.options.other.push(text.slice(0, text.length - keep));
      this.lineHasOther = true;
    }
    this.pending = text.slice(text.length - keep);
  }

  private append(part: string): void {
    this.piecesLength += part.length;
    if (this.piecesLength > this.maxLineChars) {
      this.violation(`a protocol line longer than ${this.maxLineChars} characters (the host reads at most that much of one message)`);
      this.pieces = undefined;
      this.piecesLength = 0;
      this.discarding = true;
      return;
    }
    this.pieces!.push(part);
  }

  private endLine(): void {
    const pieces = this.pieces;
    if (pieces) this.message(pieces.length === 1 ? pieces[0]! : pieces.join(''));
    if (pieces || this.discarding) {
      if (this.lineHasOther) this.options.other.push('\n');
    } else if (this.lineHasOther || this.pending) this.options.other.push(`${this.pending}\n`);
    this.pieces = undefined;
    this.piecesLength = 0;
    this.pending = '';
    this.discarding = false;
    this.lineHasOther = false;
  }

  private violation(text: string): void {
    // Bounded: a process cannot make the host keep an unbounded list.
    if (this.protocolErrors.length < 20) this.protocolErrors.push(text);
  }

  private message(text: string): void {
    let message: RuntimeMessage;
    try {
      message = parseRuntimeMessage(JSON.parse(text));
    } catch (error) {
      this.violation(error instanceof Error ? error.message : String(error));
      return;
    }
    const problem = this.outOfOrder(message);
    if (problem) {
      this.violation(problem);
      return;
    }
    if (message.type === 'hello') {
      this.helloAtMs = performance.now();
      // Only a fresh process's one measure job is corroborated by its span (a warm process's lasts a whole run).
      if (this.options.job.kind === 'measure') this.lateness = watchHostLateness();
    }
    if (this.inputClosed && message.type === 'error') this.closingErrors.push(message);
    else if (ANSWERS[this.options.job.kind].has(message.type)) {
      if (this.options.job.kind === 'serve') this.caseAnswered = message;
      else {
        this.answer = message;
        this.answerAtMs = performance.now();
        this.lateMs = this.lateness?.stop();
      }
    }
    // A lockstep process's samples are kept once, in its result; the reader passes them on without holding them.
    if (message.type !== 'sample') this.messages.push(message);
    this.options.onMessage?.(message);
    for (const listener of this.listeners) listener(message);
  }

  /** Why `message` cannot come now, or undefined if it can. */
  private outOfOrder(message: RuntimeMessage): string | undefined {
    const job = this.options.job;
    if (this.answer) return `a "${message.type}" message after the process's ${this.answer.type} (one answer per process)`;
    if (message.type === 'hello') return this.messages.length ? 'a second "hello" message' : undefined;
    // A serve job: messages belong to the case the host opened, until its answer.
    const running = job.kind === 'serve' ? this.currentCase : job.kind === 'list' ? undefined : job.caseId;
    if (job.kind === 'serve') {
      if (this.inputClosed) {
        const teardown = message.type === 'error' && message.phase === 'teardown' && message.caseId !== undefined && this.openedCases.has(message.caseId);
        return teardown ? undefined : `a "${message.type}" message after the host closed the process's input (only a kept case's failing teardown may follow)`;
      }
      if (running === undefined) return `a "${message.type}" message before the host asked for a case`;
      if (this.caseAnswered) return `a "${message.type}" message after the ${this.caseAnswered.type} of case "${running}" (one answer per case)`;
      if (message.type === 'error' && message.caseId === undefined) return undefined;
    }
    if (running !== undefined && 'caseId' in message && message.caseId !== undefined && message.caseId !== running) {
      return `a "${message.type}" message for case "${message.caseId}" from a process that was running "${running}"`;
    }
    // Warnings (ctx.warn) come before the answer, for the case being run.
    if (message.type === 'warning' || message.type === 'waiting') return job.kind === 'list' ? `a ${message.type} message for case "${message.caseId}" from a process that was listing cases` : undefined;
    // A lockstep process: one ready, then samples numbered 0, 1, 2, … each asked for by the host.
    if (message.type === 'ready') {
      if (job.kind !== 'paced' && job.kind !== 'serve') return `a "ready" message in answer to a ${job.kind} job`;
      return this.ready ? 'a second "ready" message' : ((this.ready = true), undefined);
    }
    if (message.type === 'sample') {
      if (job.kind !== 'paced' && job.kind !== 'serve') return `a "sample" message in answer to a ${job.kind} job`;
      if (!this.ready) return 'a "sample" message before "ready"';
      if (message.index !== this.samples) return `sample ${message.index} where sample ${this.samples} was due`;
      if (this.samples >= this.asked) return `sample ${message.index} that the host did not ask for`;
      this.samples++;
      return undefined;
    }
    if (!ANSWERS[job.kind].has(message.type)) return `a "${message.type}" message in answer to a ${job.kind} job`;
    if (job.kind !== 'list' && message.type !== 'error' && !('caseId' in message)) return `a "${message.type}" message without a case id`;
    return undefined;
  }
}
