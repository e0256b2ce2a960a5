/**
 * In-worker entry for workerd. The worker's fetch handler takes the job (with
 * this process's token) as the first line of the POST body, where case code
 * cannot see it; a lockstep job's commands follow as further lines of the
 * same streamed body, and the protocol lines go back in the streamed response.
 * performance.now() moves in 1 ms steps here, so the harness times each sample
 * edge to edge over two ticks (core's EdgeTimer). No code is generated from
 * strings (workerd refuses it inside a request; core's loop is a plain
 * closure). The clock is taken when the bundle loads, before the suite (the
 * bundle imports this module first; the suite's module loads in the first
 * request). runners/workerd/README.md.
 */
import { executeJob, exposedCollections } from '@rtbench/core/execute';
import { decodeJob, encodeLine, type RuntimeMessage, type WireJob } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { HANDLER_KEY, type WorkerdFacts } from './handoff.ts';
import { gcProbe } from './gc-probe.ts';

const now = performance.now.bind(performance);
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode.bind(encoder);
// Taken before the suite loads (case code may replace gc); present under --expose-gc.
const collections = exposedCollections();
// Taken before suite code loads: a case may replace stream or string methods the command reader uses.
const apply = Reflect.apply;
const readChunk = ReadableStreamDefaultReader.prototype.read;
const getReader = ReadableStream.prototype.getReader;
const decoder = new TextDecoder();
const decode = TextDecoder.prototype.decode.bind(decoder) as (bytes: Uint8Array, options?: { stream: boolean }) => string;
const indexOf = String.prototype.indexOf;
const slice = String.prototype.slice;
// And what the answer is written with: a case that replaces the writer's write (or the stream) would rewrite every line.
const Transform = TransformStream;
const getWriter = WritableStream.prototype.getWriter;
const writeChunk = WritableStreamDefaultWriter.prototype.write;
const closeWriter = WritableStreamDefaultWriter.prototype.close;
const abortWriter = WritableStreamDefaultWriter.prototype.abort;
const then = Promise.prototype.then;
const NativeResponse = Response;

/** Lines of the request body as they arrive: the job, then a lockstep job's commands. */
function bodyLines(body: ReadableStream<Uint8Array> | null): () => Promise<string | undefined> {
  const reader = body ? (apply(getReader, body, []) as ReadableStreamDefaultReader<Uint8Array>) : undefined;
  let text = '';
  let ended = !reader;
  return async () => {
    for (;;) {
      const at = apply(indexOf, text, ['\n']) as number;
      if (at !== -1) {
        const line = apply(slice, text, [0, at]) as string;
        text = apply(slice, text, [at + 1]) as string;
        return line;
      }
      if (ended) {
        const rest = text;
        text = '';
        return rest || undefined;
      }
      const chunk = (await apply(readChunk, reader!, [])) as ReadableStreamReadResult<Uint8Array>;
      if (chunk.done) ended = true;
      else text += decode(chunk.value, { stream: true });
    }
  };
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

function fact(value: unknown): string {
  return typeof value === 'string' && value ? value : 'unknown';
}

async function handle(suite: SuiteDefinition, request: Request, ctx: ExecutionContext): Promise<Response> {
  const lines = bodyLines(request.body);
  const job = decodeJob(await lines()) as WireJob & { workerd?: Partial<WorkerdFacts> };
  const { readable, writable } = new Transform<Uint8Array, Uint8Array>();
  const writer = apply(getWriter, writable, []) as WritableStreamDefaultWriter<Uint8Array>;
  const ignore = (): void => {};
  const emit = (message: RuntimeMessage): void => {
    // Not awaited: lines leave whenever the worker yields, in order; close() below waits for them all.
    apply(then, apply(writeChunk, writer, [encode(`${encodeLine(message, job.token)}\n`)]), [undefined, ignore]);
  };
  const origin = now();
  const done = executeJob(suite, job, {
    facts: {
      runtime: 'workerd',
      version: fact(job.workerd?.version),
      engine: 'v8',
      engineVersion: fact(job.workerd?.v8),
      gcExposed: collections.collect !== undefined,
    },
    clock: { name: 'performance.now', now: () => (now() - origin) * 1e6 },
    emit,
    ...(job.workerd?.gcMarkers ? { metrics: gcProbe() } : {}),
    commands: lines,
    ...collections,
  })
    .then(
      () => apply(closeWriter, writer, []) as Promise<void>,
      (error: unknown) => apply(abortWriter, writer, [error]) as Promise<void>,
    )
    .catch(ignore);
  // The body stays open until the job ends; waitUntil keeps the work alive with it.
  ctx.waitUntil(done);
  return new NativeResponse(readable, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** The suite a module's failure to load stands for: each job reports it as the load's error. */
function failedSuite(error: unknown): SuiteDefinition {
  return {
    kind: 'rtbench.suite',
    name: 'suite',
    cases() {
      throw error;
    },
  };
}

/**
 * The bundle (suiteInFirstJob, plugin.ts) hands over a loader: the suite's
 * module runs in the first request, where the Workers runtime allows what its
 * global scope refuses; every later job gets the same suite, or the same failure.
 */
export async function start(load: () => Promise<SuiteDefinition>): Promise<void> {
  let suite: Promise<SuiteDefinition> | undefined;
  (globalThis as Record<string, unknown>)[HANDLER_KEY] = {
    fetch: async (request: Request, _env: unknown, ctx: ExecutionContext) => handle(await (suite ??= load().catch(failedSuite)), request, ctx),
  };
}
