/**
 * Where a round's empty-handler requests go among the handler's. They are
 * spread over the round, each right after a handler request, so the empty
 * handler meets the server as a handler request does: after a request that
 * ran the handler. A run of empty requests back to back keeps the server's
 * own code and data hot in the caches and reads less CPU than the same
 * server work costs inside a handler's request, so "handler less empty"
 * would read high.
 */

/** How many empty requests follow each handler request, by its index (the first is never followed unless it is the only one). */
export function emptiesAfter(handlerRequests: number, emptyRequests: number): number[] {
  const counts = new Array<number>(Math.max(0, handlerRequests)).fill(0);
  if (handlerRequests <= 0 || emptyRequests <= 0) return counts;
  if (handlerRequests === 1) {
    counts[0] = emptyRequests;
    return counts;
  }
  // Evenly over requests 1..H-1, the last always followed; more empties than that go round again.
  const slots = handlerRequests - 1;
  const spread = Math.min(emptyRequests, slots);
  for (let k = 0; k < emptyRequests; k++) counts[Math.floor((((k % spread) + 1) * slots) / spread)]! += 1;
  return counts;
}

/** What each answered request of a round was, in the order sent. */
export type SentKind = 'handler' | 'empty';

/**
 * The in-runtime thread clock's readings (one after each response, µs) as
 * ms per handler request from the second on: a reading less the one before
 * it, whatever kind of request the one before was.
 */
export function clockPerHandlerRequest(readings: readonly number[], sent: readonly SentKind[]): number[] | undefined {
  if (readings.length < sent.length) return undefined;
  const out: number[] = [];
  for (let i = 1; i < sent.length; i++) if (sent[i] === 'handler') out.push((readings[i]! - readings[i - 1]!) / 1000);
  return out;
}
