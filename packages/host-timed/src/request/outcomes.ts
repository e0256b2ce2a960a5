/**
 * How each handler request of a round ended, from two sources that agree
 * on the order: what the host got back (a whole response, or none in time)
 * and what the wrapper recorded of the handler's call (paths.ts), which the
 * handler cannot write. A status alone is never believed: a 500 the handler
 * did not return (workerd's own answer for a handler that will never
 * answer) is a request the handler never answered, as it is on the other
 * runtimes, and a response claiming it threw is only a response.
 */
import type { ServedOutcome } from './paths.ts';

/** What the host got back for one handler request. */
export type Received = { status: number } | { none: 'timed out' | 'body too long' };

export type RequestEnd = 'ok' | 'serverError' | 'threw' | 'notAResponse' | 'noAnswer';

/** The wrapper's record as the outcomes path answered it, or undefined when the text is not one. */
export function parseServed(text: string): ServedOutcome[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: value stays undefined, which is no record below.
  }
  // Number.isInteger is false for anything but a number.
  const served = (x: unknown): x is ServedOutcome => x === null || x === 'threw' || x === 'not-a-response' || Number.isInteger(x);
  return Array.isArray(value) && value.every(served) ? value : undefined;
}

/**
 * Request `call` (the handler's call of that number) ended how: `served` is
 * the wrapper's record (undefined when it could not be read: the server
 * had gone, and the status is all there is).
 */
export function requestEnd(received: Received, served: readonly ServedOutcome[] | undefined, call: number): RequestEnd {
  if ('none' in received) return 'noAnswer';
  if (served === undefined) return received.status >= 500 ? 'serverError' : 'ok';
  const outcome = served[call];
  if (outcome === 'threw') return 'threw';
  if (outcome === 'not-a-response') return 'notAResponse';
  // The handler's call never returned: whatever answered, it was not the handler.
  if (outcome === null || outcome === undefined) return 'noAnswer';
  return received.status >= 500 ? 'serverError' : 'ok';
}
