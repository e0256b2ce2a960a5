/**
 * --shard i/n: a deterministic share of a suite's cases, so that a CI matrix
 * of n machines measures the whole suite between them. Cases are dealt in
 * the suite's order, round-robin (case k goes to shard k mod n + 1), after
 * --filter: every machine computes the same split from the same suite. A
 * case is never split: all its arms are measured side by side, on one
 * machine, in the same minute (pairs need that).
 */
import { UsageError } from '../errors.ts';

export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string | number): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(String(text).trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(index >= 1 && count >= 1 && index <= count && count <= 1000)) {
    throw new UsageError(`--shard ${String(text)}: expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/4`);
  }
  return { index, count };
}

/**
 * This shard's cases. A matrix with more shards than cases gives some shards
 * none: such a shard is still a shard (its run holds no cases, exits 0 and
 * merges with the others), so a CI matrix need not know the suite's size.
 */
export function shardCases<C>(cases: readonly C[], shard: Shard): C[] {
  return cases.filter((_, k) => k % shard.count === shard.index - 1);
}
