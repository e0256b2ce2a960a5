/**
 * --shard i/n of a matrix: whole tracks (a runtime × suite) dealt round-robin
 * in the matrix's order, so the releases paired in a step are always measured
 * on one machine, in the same minutes. Every machine computes the same split
 * from the same command. A shard with no track is still a shard (it merges).
 */
export function shardTracks<T>(tracks: readonly T[], shard: { index: number; count: number } | undefined): T[] {
  return shard ? tracks.filter((_, k) => k % shard.count === shard.index - 1) : [...tracks];
}
