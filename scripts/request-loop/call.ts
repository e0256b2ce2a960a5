/**
 * Calls of a Worker's handler as the loop makes them: GETs one after
 * another, each body read to the end. Apart from loop.ts, whose suite would
 * otherwise read as a Worker (a default export that names the handler).
 */
export interface Worker {
  fetch(request: Request): Response | Promise<Response>;
}

/**
 * Calls per operation of each page (about 130 ms of work either way): the
 * harness's own work per sample (its messages; on workerd, whose clock
 * ticks once a millisecond, spinning to the clock's edges: about 1.3–2 ms
 * a sample) lands on the JavaScript thread's CPU over the set, which
 * request-loop.ts divides by the calls, so a sample of many calls keeps it
 * near 1% of the figure.
 */
export const CALLS_PER_OPERATION = { plain: 32, react: 8 } as const;

/** `times` calls back to back; the last body's length (read, so no call is dead code). */
export async function callPage(worker: Worker, times: number): Promise<number> {
  let length = 0;
  for (let i = 0; i < times; i++) length = (await (await worker.fetch(new Request('http://localhost/'))).text()).length;
  return length;
}
