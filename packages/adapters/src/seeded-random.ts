/**
 * `Math.random` seeded while a brought file loads. Files often draw their
 * inputs at their top level (`for (…) s += chars[Math.floor(Math.random() * n)]`);
 * every rtbench process loads the file afresh, so with the runtime's own
 * generator each process would time other inputs and the same-work check
 * would read "not deterministic". While the file's top level runs,
 * `Math.random` is xoshiro128** (Blackman and Vigna) from one fixed state, so
 * every process on every runtime draws the same sequence; once the file has
 * loaded, before anything is timed, the runtime's own generator is back. A
 * reference the file kept (`const rand = Math.random`, as lodash keeps one)
 * hands on to the runtime's own generator from then on, so a timed call draws
 * fresh randomness whichever way it reaches `Math.random`.
 *
 * Written here rather than taken from a package: it is a dozen lines, it is
 * bundled into every runtime's program (workerd's too), and what matters is
 * installing it for the load and no longer, which no generator package does.
 */

/** xoshiro128**'s state after seeding; any state that is not all zero serves, the same in every process. */
const SEED: readonly [number, number, number, number] = [0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x85a308d3];

/** A xoshiro128** generator from SEED: each call gives the next 32-bit output, unsigned. */
function xoshiro128ss(): () => number {
  let [a, b, c, d] = SEED;
  const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));
  return () => {
    const out = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return out;
  };
}

/** A double in [0, 1) with 53 random bits, as `Math.random` gives, from two 32-bit outputs. */
function seededDoubles(): () => number {
  const next = xoshiro128ss();
  return () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
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
