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

/** A request's end, with its status and, for a 5xx, the first line of what its body said. */
export interface EndedRequest {
  end: RequestEnd;
  status?: number;
  said?: string;
}

/** An answer of these ends is a 5xx: the handler's own, or the wrapper's for a throw or a non-Response. */
const ERROR_ANSWERS: ReadonlySet<RequestEnd> = new Set(['serverError', 'threw', 'notAResponse']);

/**
 * A server that answered not one request below 500 and at least one with a 5xx: it served its own error,
 * not the work the other runtimes did, so the round has no figures (its 5xx answers would read only as
 * other work). The one line that says so: the runtime, the status, how many of the round's `total`
 * requests, and the first error answer's first line; undefined when any request was answered below 500
 * (some 5xx among them are counted and measured) or none was answered at all (said elsewhere).
 */
export function everyAnswerAnError(runtime: string, ended: readonly EndedRequest[], total: number): string | undefined {
  if (ended.some((r) => r.end === 'ok')) return undefined;
  const errors = ended.filter((r) => ERROR_ANSWERS.has(r.end));
  if (errors.length === 0) return undefined;
  const statuses = [...new Set(errors.map((r) => r.status ?? 500))].sort((a, b) => a - b).join('/');
  const said = errors[0]!.said;
  return `the ${runtime} server answered ${statuses} to ${errors.length} of ${total} requests and none with a status below 500${said ? ` (${said})` : ''}`;
}
