/**
 * `Math.random` seeded while a brought file loads. Files often draw their
 * inputs at their top level (`for (…) s += chars[Math.floor(Math.random() * n)]`);
 * every rtbench process loads the file afresh, so with the runtime's own
 * generator each process would time other inputs and the same-work check
 * would read "not deterministic". While the file's top level runs,
 * `Math.random` is the seeded generator rtbench's suites draw their data
 * from (core's random.ts) with one fixed seed, so every process on every
 * runtime draws the same sequence; once the file has loaded, before
 * anything is timed, the runtime's own generator is back. A reference the file kept (`const rand = Math.random`, as lodash keeps one)
 * hands on to the runtime's own generator from then on, so a timed call draws
 * fresh randomness whichever way it reaches `Math.random`.
 *
 * No package: the generator is core's (32-bit integer math, the same on every
 * engine), and what matters here is installing it for the load and no
 * longer, which no generator package does.
 */
import { seededRandom } from '@rtbench/core/random';

/** The seed of every load: any fixed number serves, the same in every process. */
const SEED = 0x9e3779b9;

/** A double in [0, 1) with 53 random bits, as `Math.random` gives, from two 32-bit draws. */
function seededDoubles(): () => number {
  const next = seededRandom(SEED);
  return () => (Math.floor(next() * 2 ** 27) * 2 ** 26 + Math.floor(next() * 2 ** 26)) / 2 ** 53;
}

/**
 * Runs `load` with `Math.random` seeded and gives the runtime's own back when
 * it settles (resolved or thrown).
 */
export async function withSeededRandom<T>(load: () => Promise<T>): Promise<T> {
  const own = Math.random;
  const seeded = seededDoubles();
  let loading = true;
  const random = (): number => (loading ? seeded() : own());
  Math.random = random;
  try {
    return await load();
  } finally {
    loading = false;
    // A file that set Math.random itself keeps its own.
    if (Math.random === random) Math.random = own;
  }
}
