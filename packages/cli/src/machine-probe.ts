/**
 * A reference loop the host times before every job. On a shared machine the
 * whole VM sometimes runs ~2x slower for seconds to minutes (a noisy
 * neighbour, CPU throttling by the host); every process started then is slow,
 * whatever runtime it is. The probe cannot fix that, but it lets the report
 * say which processes ran while the machine was slow, instead of leaving the
 * reader to wonder why one round stands apart.
 */

/** xorshift over a fixed count: integer work, no allocation, nothing to fold. */
function referenceLoop(iterations: number): number {
  let x = 0x9e3779b9;
  for (let i = 0; i < iterations; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}

let sink = 0;

/** Best of three timings of the reference loop, in ns (about 1 ms each here). */
export function probeMachine(iterations = 1_000_000): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    sink ^= referenceLoop(iterations);
    best = Math.min(best, Number(process.hrtime.bigint() - t0));
  }
  if (sink === 0.5) throw new Error('unreachable: keeps the loop alive');
  return best;
}
