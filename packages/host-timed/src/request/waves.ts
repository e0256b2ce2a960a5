/**
 * How a round's handler requests are sent with --concurrency N: in waves.
 * With N in flight the host cannot read one request's CPU, so it reads the
 * server's threads around a wave (before its first request, after its last
 * response once the threads are idle) and gives each request answered in
 * it the wave's CPU over their count. Within a wave N requests are kept in
 * flight (a new one sent as each answers), so most wait behind N − 1 others
 * as under steady load; a wave is several times N so the ramp at its start
 * is a small part of it. The process's first request is a wave of its own,
 * so the table's `first` stays that request's. With N = 1 every request is
 * its own wave: one at a time, each read on its own.
 */

/** A wave holds this many times N requests (the first request apart). */
export const WAVE_PER_SLOT = 4;

/** The handler requests' indices, wave by wave, in the order sent. */
export function waves(requests: number, concurrency: number): number[][] {
  const out: number[][] = [];
  if (requests <= 0) return out;
  const size = concurrency <= 1 ? 1 : WAVE_PER_SLOT * concurrency;
  out.push([0]);
  for (let start = 1; start < requests; start += size) out.push(Array.from({ length: Math.min(size, requests - start) }, (_, k) => start + k));
  return out;
}

/** Each answered request's share of its wave's CPU (ns): the wave's over the requests answered in it (none answered: none). */
export function perRequestShare(waveNs: number, answered: number): number | undefined {
  return answered > 0 ? waveNs / answered : undefined;
}

/**
 * Runs `task` for 0 … count − 1 with at most `limit` running at once, a new
 * one started as each ends; the results in index order. Once `stop` says so
 * (after a task ended) no further task starts: those have no result, so a
 * server stuck on one request is not sent the rest of its wave to queue
 * behind it.
 */
export async function inFlight<T>(count: number, limit: number, task: (index: number) => Promise<T>, stop: (result: T) => boolean = () => false): Promise<(T | undefined)[]> {
  const out = new Array<T | undefined>(count).fill(undefined);
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (next < count && !stopped) {
      const index = next++;
      const result = await task(index);
      out[index] = result;
      stopped ||= stop(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
  return out;
}
