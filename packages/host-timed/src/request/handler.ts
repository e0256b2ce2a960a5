/**
 * Runs inside the runtime: the suite's handler (the Workers module shape)
 * wrapped so every runtime answers alike. A handler that throws, or answers
 * something that is not a Response, gets a 500 (each runtime's server would
 * otherwise answer its own way); how each call ended is kept in the
 * wrapper's closure, out of the handler's reach, and a few paths beside
 * the handler's serve the host: those outcomes, an empty handler (the
 * server's own cost), a spin of fixed work (which thread runs JavaScript),
 * and the in-runtime thread clock's readings where the runtime has one.
 * Web APIs only: workerd serves this module as it is.
 */
import { RESERVED, type ServedOutcome } from './paths.ts';

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

// Taken when the wrapper loads: a handler that replaces the globals later cannot change what the outcomes path answers.
const { stringify } = JSON;
const ResponseOf = Response;

/** The fetch handler the runtime's server calls; `threadClock` answers the readings path (absent: the runtime has no thread clock). */
export function wrapHandler(module: WorkersModule, threadClock?: () => string): { fetch(request: Request, env?: unknown, ctx?: unknown): Promise<Response> } {
  const outcomes: ServedOutcome[] = [];
  return {
    async fetch(request, env = {}, ctx = CONTEXT) {
      const url = request.url;
      if (url.endsWith(RESERVED.empty)) return new ResponseOf('');
      if (url.endsWith(RESERVED.spin)) return new ResponseOf(String(spin()));
      if (url.endsWith(RESERVED.threadClock)) return threadClock ? new ResponseOf(threadClock()) : new ResponseOf('', { status: 404 });
      if (url.endsWith(RESERVED.outcomes)) return new ResponseOf(stringify(outcomes));
      const call = outcomes.push(null) - 1;
      let answer: unknown;
      try {
        answer = await module.fetch(request, env, ctx);
      } catch {
        outcomes[call] = 'threw';
        return new ResponseOf('the handler threw', { status: 500 });
      }
      if (!(answer instanceof ResponseOf)) {
        outcomes[call] = 'not-a-response';
        return new ResponseOf('the handler answered something that is not a Response', { status: 500 });
      }
      outcomes[call] = answer.status;
      return answer;
    },
  };
}
