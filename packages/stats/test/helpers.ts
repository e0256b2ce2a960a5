import { createRandom } from '../src/random.ts';

/** Seeded standard normal draws (Box-Muller), for synthetic benchmark noise in tests. */
export function normalSource(seed: number): () => number {
  const random = createRandom(seed);
  return () => {
    const u = 1 - random(); // (0, 1]
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** n lognormal timings around `center` with log-sd `sigma`. */
export function lognormal(next: () => number, n: number, center: number, sigma: number): number[] {
  return Array.from({ length: n }, () => center * Math.exp(sigma * next()));
}
