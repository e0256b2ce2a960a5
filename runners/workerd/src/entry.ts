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
 */
import { executeJob } from '@rtbench/core/execute';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import type { SuiteDefinition } from '@rtbench/core';
import { BINDING_GC_MARKERS, BINDING_V8_VERSION, BINDING_WORKERD_VERSION, HANDLER_KEY } from './handoff.ts';
import { gcProbe } from './gc-probe.ts';

type Env = Record<string, unknown>;

function text(env: Env, name: string): string {
  const value = env[name];
  return typeof value === 'string' && value ? value : 'unknown';
}

async function handle(suite: SuiteDefinition, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const job = (await request.json()) as Job;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const emit = (message: RuntimeMessage): void => {
    // Not awaited: lines leave whenever the worker yields; a closed connection only loses output.
    writer.write(encoder.encode(`${encodeLine(message)}\n`)).catch(() => {});
  };
  const origin = performance.now();
  const done = executeJob(suite, job, {
    facts: {
      runtime: 'workerd',
      version: text(env, BINDING_WORKERD_VERSION),
      engine: 'v8',
      engineVersion: text(env, BINDING_V8_VERSION),
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    },
    clock: { name: 'performance.now', now: () => (performance.now() - origin) * 1e6 },
    emit,
    ...(env[BINDING_GC_MARKERS] ? { metrics: gcProbe() } : {}),
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
    fetch: (request: Request, env: Env, ctx: ExecutionContext) => handle(suite, request, env, ctx),
  };
}
