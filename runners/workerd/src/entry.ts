/**
 * In-worker entry for workerd. The worker's fetch handler takes the Job as
 * the POST body and streams the protocol lines back as the response body.
 *
 * Timing: performance.now() inside workerd moves in 1 ms steps. The harness
 * probes the clock, sees the coarse step and times every sample edge to edge
 * (core's EdgeTimer: start on a tick, spin to the next tick after the batch,
 * subtract the spin by its calibrated per-read cost), over samples of ten
 * ticks. No code is generated from strings: workerd refuses it inside a
 * request, and core's loop is a plain closure. See runners/workerd/README.md.
 *
 * The job (with this process's token) arrives in the request body, where case
 * code cannot see it; the clock is taken when the bundle loads, before the
 * suite (the bundle imports this module first).
 */
import { executeJob } from '@rtbench/core/execute';
import { decodeJob, encodeLine, type RuntimeMessage, type WireJob } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { HANDLER_KEY, type WorkerdFacts } from './handoff.ts';
import { gcProbe } from './gc-probe.ts';

const now = performance.now.bind(performance);
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode.bind(encoder);

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

function fact(value: unknown): string {
  return typeof value === 'string' && value ? value : 'unknown';
}

async function handle(suite: SuiteDefinition, request: Request, ctx: ExecutionContext): Promise<Response> {
  const job = decodeJob(await request.text()) as WireJob & { workerd?: Partial<WorkerdFacts> };
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const emit = (message: RuntimeMessage): void => {
    // Not awaited: lines leave whenever the worker yields, in order; close() below waits for them all.
    writer.write(encode(`${encodeLine(message, job.token)}\n`)).catch(() => {});
  };
  const origin = now();
  const done = executeJob(suite, job, {
    facts: {
      runtime: 'workerd',
      version: fact(job.workerd?.version),
      engine: 'v8',
      engineVersion: fact(job.workerd?.v8),
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    },
    clock: { name: 'performance.now', now: () => (now() - origin) * 1e6 },
    emit,
    ...(job.workerd?.gcMarkers ? { metrics: gcProbe() } : {}),
  })
    .then(
      () => writer.close(),
      (error: unknown) => writer.abort(error),
    )
    .catch(() => {});
  // The body stays open until the job ends; waitUntil keeps the work alive with it.
  ctx.waitUntil(done);
  return new Response(readable, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

export async function start(suite: SuiteDefinition): Promise<void> {
  (globalThis as Record<string, unknown>)[HANDLER_KEY] = {
    fetch: (request: Request, _env: unknown, ctx: ExecutionContext) => handle(suite, request, ctx),
  };
}
