/**
 * Seeded pseudo-random numbers, so that every bootstrap in this package is
 * reproducible: the same data and seed give the same confidence interval on
 * every runtime.
 *
 * Generator: xoshiro128** (Blackman & Vigna, "Scrambled linear pseudorandom
 * number generators", ACM TOMS 2021): 128-bit state, period 2^128 - 1, passes
 * BigCrush; far more than a bootstrap of a few million draws needs, and it
 * only uses 32-bit integer operations (Math.imul), so it is exact in JS.
 * The state is seeded from the 32-bit seed with a SplitMix-style generator
 * (Weyl sequence + the MurmurHash3 32-bit finalizer), as Vigna recommends:
 * it never yields the all-zero state and decorrelates nearby seeds.
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

