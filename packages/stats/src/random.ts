/**
 * Seeded pseudo-random numbers (xoshiro128**, seeded through SplitMix32), so
 * that every bootstrap here is reproducible: the same data and seed give the
 * same interval on every runtime. Only 32-bit integer operations, so it is
 * exact in JS. Why this generator: README.md, "Notes on the methods".
 */

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Returns a function giving uniform numbers in [0, 1) with 32 random bits. */
export function createRandom(seed: number): () => number {
  if (!Number.isFinite(seed)) throw new RangeError(`createRandom: seed must be finite, got ${seed}`);
  let weyl = Math.trunc(seed) >>> 0;
  const splitmix = (): number => {
    weyl = (weyl + 0x9e3779b9) >>> 0;
    let z = weyl;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let s0 = splitmix();
  let s1 = splitmix();
  let s2 = splitmix();
  let s3 = splitmix();
  return () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result / 4294967296;
  };
}

