/**
 * Runs inside the runtime: the suite's handler (the Workers module shape)
 * wrapped so every runtime answers alike. A handler that throws, or answers
 * something that is not a Response, gets a 500 marked with the outcome
 * (each runtime's server would otherwise answer its own way), and a few
 * paths beside the handler's serve the host: an empty handler (the
 * server's own cost), a spin of fixed work (which thread runs JavaScript),
 * and the in-runtime thread clock's readings where the runtime has one.
 * Web APIs only: workerd serves this module as it is.
 */
import { OUTCOME_HEADER, RESERVED, type ServedOutcome } from './paths.ts';

export interface WorkersModule {
  fetch(request: Request, env: unknown, ctx: unknown): unknown;
}

/** What a Workers handler's ctx offers, where the runtime's server gives none. */
const CONTEXT = { waitUntil(_promise: unknown): void {}, passThroughOnException(): void {} };

/** Fixed work for the spin path: enough CPU to stand out from every other thread's. */
function spin(): number {
  let x = 0;
  for (let i = 0; i < 4_000_000; i++) x += Math.sqrt(i) % 3;
  return x;
}

const marked = (outcome: ServedOutcome, body: string): Response => new Response(body, { status: 500, headers: { [OUTCOME_HEADER]: outcome } });

/** The fetch handler the runtime's server calls; `threadClock` answers the readings path (absent: the runtime has no thread clock). */
export function wrapHandler(module: WorkersModule, threadClock?: () => string): { fetch(request: Request, env?: unknown, ctx?: unknown): Promise<Response> } {
  return {
    async fetch(request, env = {}, ctx = CONTEXT) {
      const url = request.url;
      if (url.endsWith(RESERVED.empty)) return new Response('');
      if (url.endsWith(RESERVED.spin)) return new Response(String(spin()));
      if (url.endsWith(RESERVED.threadClock)) return threadClock ? new Response(threadClock()) : new Response('', { status: 404 });
      let answer: unknown;
      try {
        answer = await module.fetch(request, env, ctx);
      } catch {
        return marked('threw', 'the handler threw');
      }
      if (!(answer instanceof Response)) return marked('not-a-response', 'the handler answered something that is not a Response');
      return answer;
    },
  };
}
