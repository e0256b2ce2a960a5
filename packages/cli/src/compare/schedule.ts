/**
 * The order in which a comparison's arms run within each round.
 *
 * A fixed A-then-B order is a known bias: the second process of a pair meets
 * a warmer page cache, a CPU at another frequency, a neighbour's burst that
 * started during the first. A plain shuffle removes the bias only on average
 * and can, by chance, put one arm first in 14 of 20 rounds. The balanced
 * schedule here removes it by construction: rounds come in blocks of k (k
 * arms); each block runs the k rotations of a fresh random permutation, in a
 * random order, so every arm holds every position exactly once per block.
 * For two arms that is AB/BA per pair of rounds, randomized (ABBA or BAAB).
 */

export const BALANCED_ORDER_DESCRIPTION = 'balanced: per case, each block of k rounds (k arms) runs the k rotations of a seeded random permutation, so every arm holds every position once per block';

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The order of the arms for rounds 0 … rounds-1 (a trailing partial block takes the first rotations of its shuffled block). */
export function balancedOrders<T>(arms: readonly T[], rounds: number, random: () => number): T[][] {
  const k = arms.length;
  const out: T[][] = [];
  if (k === 0) return Array.from({ length: rounds }, () => []);
  while (out.length < rounds) {
    const base = shuffle(arms, random);
    const rotations = Array.from({ length: k }, (_, r) => [...base.slice(r), ...base.slice(0, r)]);
    for (const order of shuffle(rotations, random)) {
      if (out.length === rounds) break;
      out.push(order);
    }
  }
  return out;
}
