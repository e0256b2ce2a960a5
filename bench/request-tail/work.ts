/** Fixed CPU work, the same on every runtime: a number of loop steps whose result is answered (so none is skipped). */
export function work(steps: number): number {
  let x = 0;
  for (let i = 0; i < steps; i++) x += Math.sqrt(i) % 7;
  return Math.round(x);
}

/** Steps of the handler's ordinary work: about 1 ms of CPU on a 2-core AMD EPYC VM. */
export const BASE_STEPS = 60_000;
/** Steps the planted tail adds: at least 6 ms of CPU on every runtime on the same machine (node and deno run these steps fastest). */
export const TAIL_STEPS = 500_000;
/** The planted tail's period: every this-many-th request the handler serves. */
export const TAIL_EVERY = 50;
