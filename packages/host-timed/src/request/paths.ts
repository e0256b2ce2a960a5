/** What the served wrapper and the host agree on: its reserved paths and the header that marks an outcome. */
export const RESERVED = {
  empty: '/.rtbench/empty',
  spin: '/.rtbench/spin',
  threadClock: '/.rtbench/thread-clock',
} as const;

export const OUTCOME_HEADER = 'x-rtbench-outcome';

/** How a request the handler did not answer normally ended (the wrapper's mark). */
export type ServedOutcome = 'threw' | 'not-a-response';
