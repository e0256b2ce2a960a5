/**
 * Runs inside the runtime: the suite's handler (the Workers module shape)
 * wrapped so every runtime answers alike. A handler that throws, or answers
 * something that is not a Response, gets a 500 (each runtime's server would
 * otherwise answer its own way); how each call ended is kept in the
 * wrapper's closure, out of the handler's reach, and a few paths beside
 * the handler's serve the host: those outcomes, an empty handler (the
 * server's own cost), a spin of fixed work (which thread runs JavaScript),
 * the in-runtime thread clock's readings where the runtime has one, and how
 * many console lines the handler wrote (counted, and written where the
 * runtime writes them: never into the table), and a profile's two marks.
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

/**
 * The profile's marks (paths.ts PROFILE_MARKS): tens of milliseconds of work
 * a sampling profiler sees, by a count (a Worker's clock stands still while
 * it runs). Integer arithmetic only: optimized code that calls out to C for
 * a step (a double's `%`) is where JavaScriptCore's sampler loses a sample
 * or credits it to the caller.
 */
const MARK_STEPS = 32_000_000;

function rtbenchProfileMarkBegin(): number {
  let x = 1;
  for (let i = 0; i < MARK_STEPS; i++) x = (Math.imul(x ^ i, 0x5bd1e995) + 0x6b) | 0;
  return x;
}

function rtbenchProfileMarkEnd(): number {
  let x = 3;
  for (let i = 0; i < MARK_STEPS; i++) x = (Math.imul(x ^ i, 0x5bd1e995) + 0x6b) | 0;
  return x;
}

// Taken when the wrapper loads: a handler that replaces the globals later cannot change what the outcomes path answers.
const { stringify } = JSON;
const ResponseOf = Response;

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/** Counts the console lines written while a handler request is in flight (the server's own lines are not the handler's). */
function countConsoleLines(): { count(): number; during<T>(work: () => Promise<T>): Promise<T> } {
  let lines = 0;
  let inFlight = 0;
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const name of CONSOLE_METHODS) {
    const write = target[name]!;
    target[name] = (...args: unknown[]) => {
      if (inFlight > 0) lines++;
      write.apply(console, args);
    };
  }
  return {
    count: () => lines,
    async during(work) {
      inFlight++;
      try {
        return await work();
      } finally {
        inFlight--;
      }
    },
  };
}

/** The fetch handler the runtime's server calls; `threadClock` answers the readings path (absent: the runtime has no thread clock). */
export function wrapHandler(module: WorkersModule, threadClock?: () => string): { fetch(request: Request, env?: unknown, ctx?: unknown): Promise<Response> } {
  const outcomes: ServedOutcome[] = [];
  const consoleLines = countConsoleLines();
  return {
    async fetch(request, env = {}, ctx = CONTEXT) {
      const url = request.url;
      if (url.endsWith(RESERVED.empty)) return new ResponseOf('');
      if (url.endsWith(RESERVED.spin)) return new ResponseOf(String(spin()));
      if (url.endsWith(RESERVED.threadClock)) return threadClock ? new ResponseOf(threadClock()) : new ResponseOf('', { status: 404 });
      if (url.endsWith(RESERVED.outcomes)) return new ResponseOf(stringify(outcomes));
      if (url.endsWith(RESERVED.consoleLines)) return new ResponseOf(String(consoleLines.count()));
      if (url.endsWith(RESERVED.profileMarkBegin)) return new ResponseOf(String(rtbenchProfileMarkBegin()));
      if (url.endsWith(RESERVED.profileMarkEnd)) return new ResponseOf(String(rtbenchProfileMarkEnd()));
      const call = outcomes.push(null) - 1;
      let answer: unknown;
      try {
        answer = await consoleLines.during(async () => module.fetch(request, env, ctx));
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
