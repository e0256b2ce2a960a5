/**
 * The framework app, as its shape is the same in every framework: a router
 * with three routes, a middleware that times each request into a response
 * header, and an error handler that turns a thrown error into a JSON 500.
 *
 *   GET  /            -> "Hello, world!" (text/plain)
 *   GET  /users/:id   -> {"id":"<id>","name":"user <id>","roles":["reader"]} (the loaded route)
 *   GET  /boom        -> throws; the error handler answers 500 {"error":"boom"}
 *
 * The app (hono.ts; another framework's would sit beside it) builds its
 * answers from these, so every runtime answers the same bytes.
 */
export const HELLO = 'Hello, world!';

/** The timing middleware's header: milliseconds the app took, e.g. "0.12ms". */
export const TIMING_HEADER = 'x-response-time';

export function user(id: string): { id: string; name: string; roles: string[] } {
  return { id, name: `user ${id}`, roles: ['reader'] };
}

export function timing(startedMs: number): string {
  return `${(performance.now() - startedMs).toFixed(2)}ms`;
}

export const BOOM = 'boom';
