/**
 * A run's round plan, as a value: the order of a case's variants within each
 * round, how many rounds every case gets, and whether more are added where an
 * interval is still too wide. Orders: 'shuffled' (a table), a fresh seeded
 * shuffle per round and case; 'balanced' (a comparison), blocks of k rounds
 * (k arms) running the k rotations of a fresh random permutation in a random
 * order, so every arm holds every position once per block (two arms: ABBA or
 * BAAB), removing a fixed order's bias exactly rather than on average.
 * Adaptive rounds: once every case has its `rounds`, a case gets one more while
 * any variant's paired-ratio CI is wider than ±target, up to `maxRounds` or the
 * time budget. Why: docs/comparing.md "The default designs".
 */

export const BALANCED_ORDER_DESCRIPTION = 'balanced: per case, each block of k rounds (k arms) runs the k rotations of a seeded random permutation, so every arm holds every position once per block';
export const SHUFFLED_ORDER_DESCRIPTION = 'shuffled per round and case';

export interface RoundPlan {
  order: 'shuffled' | 'balanced';
  /** Rounds every case gets. */
  rounds: number;
  /** Absent: exactly `rounds` rounds. */
  adaptive?: {
    /** Target half-width of each ratio's 95% CI, relative (0.02 = ±2%). */
    target: number;
    maxRounds: number;
    /** No round starts after this much wall time since the run began. */
    budgetMs?: number;
    /** 'decided': a case gets rounds while a cell of it is undecided and within reach (decided.ts); absent: while an interval is wider than ±target. */
    rule?: 'decided';
  };
}

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

/** The most rounds any case can get under this plan. */
export function maxRoundsOf(plan: RoundPlan): number {
  return Math.max(plan.rounds, plan.adaptive?.maxRounds ?? 0);
}

/**
 * The plan for a measurer that samples some of the arms each round: `every`
 * rounds give each arm one process pair, so the rounds (the minimum and the
 * most) and the sampling time summed over them are multiplied by it, and
 * each arm gets the pairs, and each round the sampling, that the plan gave
 * per arm.
 */
export function roundsPerArm(plan: { roundPlan: RoundPlan; timeMs: number }, every: number): { roundPlan: RoundPlan; timeMs: number; perArm: number } {
  if (!(Number.isInteger(every) && every >= 1)) throw new RangeError(`rounds per pair must be a whole number from 1, not ${every}`);
  const { roundPlan, timeMs } = plan;
  return {
    roundPlan: { ...roundPlan, rounds: roundPlan.rounds * every, ...(roundPlan.adaptive ? { adaptive: { ...roundPlan.adaptive, maxRounds: roundPlan.adaptive.maxRounds * every } } : {}) },
    timeMs: timeMs * every,
    perArm: every,
  };
}
