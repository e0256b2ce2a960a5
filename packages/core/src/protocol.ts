/**
 * The wire protocol: what the host asks a runtime process to do (a Job) and
 * what the process answers (RuntimeMessages). node, deno and bun print each
 * message as one line on stdout; workerd returns the same lines in an HTTP
 * response. Every line starts with the marker and a token the host drew at
 * random for this one process and handed to the entry inside the job: the
 * entry takes the job out of argv before any case code loads, so output that
 * case code prints (even a copy of a real protocol line from another process)
 * never carries it. The host reads only marked lines with its token, validates
 * every message (protocol-schema.ts, where the shapes are declared) and
 * accepts exactly one answer per process.
 */
import type { Job, MeasureOptions, RuntimeMessage, SampleSpan, WireJob } from './protocol-schema.ts';
import { derivedRunUpCalls } from './run-up.ts';
import { CASE_COMMAND, KEEP_COMMAND, LINE_MARKER, PROTOCOL_VERSION, SAMPLE_COMMAND, TOKEN_PATTERN } from './wire.ts';

// The shapes are declared once, as schemas (protocol-schema.ts); only their types come here.
export type {
  CaseListing,
  CaseResultMessage,
  ClockInfo,
  Digest,
  ErrorMessage,
  GcCounters,
  Job,
  MeasureOptions,
  ReadyMessage,
  RuntimeFacts,
  RuntimeMessage,
  SampleMessage,
  ServeJob,
  WarmupSeries,
  WireJob,
} from './protocol-schema.ts';
export { NO_PRE_BATCH_NS } from './run-up.ts';
export { CASE_COMMAND, COLLECT_COMMAND, FINISH_COMMAND, KEEP_COMMAND, LINE_MARKER, PROTOCOL_VERSION, SAMPLE_COMMAND, TOKEN_PATTERN } from './wire.ts';

/** A paced job for one case (warm up, say ready, then one sample per SAMPLE_COMMAND until FINISH_COMMAND). */
export function pacedJob(caseId: string, options: MeasureOptions): Job {
  return { protocol: PROTOCOL_VERSION, kind: 'paced', caseId, options };
}

/**
 * The line that opens a case in a warm process: the word, then the case id
 * as a JSON string, or, when the measurer learned the case's rate past the
 * tier-up horizon from an earlier process (steady rule `tierUpCallNs`), a
 * JSON object `{"id": …, "tierUpCallNs": …}`.
 */
export function caseCommand(caseId: string, keep = false, tierUpCallNs?: number): string {
  return `${keep ? KEEP_COMMAND : CASE_COMMAND} ${stringify(tierUpCallNs !== undefined ? { id: caseId, tierUpCallNs } : caseId)}`;
}

/** A case a CASE_COMMAND or KEEP_COMMAND line opens. */
export interface CaseOpening {
  caseId: string;
  keep: boolean;
  tierUpCallNs?: number;
}

/** The case a CASE_COMMAND or KEEP_COMMAND line opens, or undefined when the line is another command (read in the runtime, after case code: captured methods only). */
export function caseOfCommand(line: string): CaseOpening | undefined {
  // No for-of: case code may have replaced Array.prototype[Symbol.iterator].
  const keep = apply(stringSlice, line, [0, KEEP_COMMAND.length + 1]) === `${KEEP_COMMAND} `;
  const head = `${keep ? KEEP_COMMAND : CASE_COMMAND} `;
  if (apply(stringSlice, line, [0, head.length]) !== head) return undefined;
  const opened: unknown = parse(apply(stringSlice, line, [head.length]) as string);
  if (typeof opened === 'string') return { caseId: opened, keep };
  if (typeof opened !== 'object' || opened === null) return undefined;
  const { id, tierUpCallNs } = opened as { id?: unknown; tierUpCallNs?: unknown };
  if (typeof id !== 'string') return undefined;
  return typeof tierUpCallNs === 'number' && tierUpCallNs > 0 && tierUpCallNs < Infinity ? { caseId: id, keep, tierUpCallNs } : { caseId: id, keep };
}

/**
 * The sample command of a fixed-iteration lockstep job (instruction counts):
 * `sample <n>` takes a sample of exactly n calls, so that the host can count
 * samples of n calls, and `sample 0` one of none: what a sample costs besides
 * its calls (reading the command, answering), which the host subtracts.
 */
export function sampleCommand(iterations?: number): string {
  return iterations === undefined ? SAMPLE_COMMAND : `${SAMPLE_COMMAND} ${iterations}`;
}

/**
 * The calls a command asks for: undefined for a bare `sample`, null when it
 * is no sample command. Plain character arithmetic: it runs beside case
 * code, which may have replaced RegExp or Number methods.
 */
export function parseSampleCommand(command: string): number | undefined | null {
  if (command === SAMPLE_COMMAND) return undefined;
  const prefix = `${SAMPLE_COMMAND} `;
  if (command.length <= prefix.length || command.length > prefix.length + 9 || command.slice(0, prefix.length) !== prefix) return null;
  let n = 0;
  for (let i = prefix.length; i < command.length; i++) {
    const digit = command.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  // `sample 0`: no calls, only what a sample costs besides them (instruction counts subtract it).
  return n;
}

/**
 * Calls of the case in one lockstep sample: an untimed pre-batch (the
 * process sat idle while the others took theirs), then the timed batch of
 * `iterationsPerSample` (measure.ts Sampler.sample). `batchNs`: the
 * calibrated length of that batch (the ready message's); `span`: the
 * result's.
 */
export function lockstepSampleIterations(iterationsPerSample: number, batchNs = 0, span?: SampleSpan): number {
  return iterationsPerSample + lockstepPreBatch(iterationsPerSample, batchNs, span);
}

/**
 * The untimed batch before each lockstep sample: what the runtime decided
 * and the span recorded (run-up.ts), or, for a run saved before the span
 * recorded it, derived from the batch and the span by the rule of its time.
 */
export function lockstepPreBatch(iterationsPerSample: number, batchNs = 0, span?: SampleSpan): number {
  return span?.runUpCalls ?? derivedRunUpCalls(iterationsPerSample, batchNs, span);
}

// Taken when the harness loads, before any case code runs: a case that
// replaces JSON.stringify (a polyfill, a mock), Object.keys or an Array
// method does not change the messages.
const stringify = JSON.stringify;
const parse = JSON.parse;
const keys = Object.keys;
const isArray = Array.isArray;
const apply = Reflect.apply;
const subarray = Uint8Array.prototype.subarray;
const stringSlice = String.prototype.slice;
const wait = Atomics.wait;

/**
 * JSON of a message built from plain objects, arrays and primitives. Objects
 * and arrays are walked here rather than by JSON.stringify, which would call a
 * `toJSON` a case defined on Object.prototype or Array.prototype; primitives
 * go through the captured JSON.stringify, which looks up no `toJSON` on them.
 */
export function encodeJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return stringify(value) ?? 'null';
  let out: string;
  if (isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + encodeJson(value[i]);
    return `${out}]`;
  }
  out = '{';
  let first = true;
  const names = keys(value);
  for (let i = 0; i < names.length; i++) {
    const item = (value as Record<string, unknown>)[names[i]!];
    if (item === undefined || typeof item === 'function') continue;
    out += `${first ? '' : ','}${stringify(names[i])}:${encodeJson(item)}`;
    first = false;
  }
  return `${out}}`;
}

/** What starts every protocol line of the process holding `token`. */
export function linePrefix(token: string): string {
  return `${LINE_MARKER}${token} `;
}

/** One protocol line, without its newline. */
export function encodeLine(message: RuntimeMessage, token: string): string {
  return linePrefix(token) + encodeJson(message);
}

/** Reads the job an entry was given; throws if it is not one (the host's bug, not the case's). */
export function decodeJob(text: string | undefined): WireJob {
  const job = parse(text ?? 'null') as Partial<WireJob> | null;
  if (!job || typeof job.token !== 'string' || !TOKEN_PATTERN.test(job.token) || !Array.isArray(job.env) || (job.kind !== 'list' && job.kind !== 'measure' && job.kind !== 'paced' && job.kind !== 'serve')) {
    throw new Error(`rtbench entry: not a job: ${String(text).slice(0, 200)}`);
  }
  return job as WireJob;
}

/**
 * Writes every byte with a synchronous write that may write part of its input
 * or throw EAGAIN (Node's stdout pipe is non-blocking: a full pipe refuses the
 * write instead of waiting). Waits 1 ms and retries; nothing is left queued,
 * so the process can exit right after.
 */
export function writeFully(bytes: Uint8Array, write: (chunk: Uint8Array) => number): void {
  let offset = 0;
  let pause: Int32Array | undefined;
  while (offset < bytes.length) {
    try {
      offset += write(offset ? (apply(subarray, bytes, [offset]) as Uint8Array) : bytes);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EAGAIN') throw error;
      pause ??= new Int32Array(new SharedArrayBuffer(4));
      wait(pause, 0, 0, 1);
    }
  }
}
