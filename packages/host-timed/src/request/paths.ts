/** What the served wrapper and the host agree on: its reserved paths and what the outcomes path answers. */
export const RESERVED = {
  empty: '/.rtbench/empty',
  spin: '/.rtbench/spin',
  threadClock: '/.rtbench/thread-clock',
  outcomes: '/.rtbench/outcomes',
  consoleLines: '/.rtbench/console-lines',
  profileMarkBegin: '/.rtbench/profile-mark/begin',
  profileMarkEnd: '/.rtbench/profile-mark/end',
} as const;

/**
 * The functions the profile-mark paths run (fixed work under names of their
 * own): a CPU profile of the server shows where its steady requests under
 * the profiler began and where they ended (@rtbench/profile). Two names,
 * each called once: a sampler that credits an inlined callee to its caller
 * (JavaScriptCore's, once the caller is optimized) cannot fold the second
 * mark into the handler, and either edge is told by its name alone. A
 * bundler may add a number to a name.
 */
export const PROFILE_MARKS = { begin: 'rtbenchProfileMarkBegin', end: 'rtbenchProfileMarkEnd' } as const;

/**
 * How the handler's nth call ended, as the wrapper saw it: it returned a
 * Response (with that status), threw, or returned something else. The
 * wrapper keeps these where the handler cannot write (not in a header of
 * the response, which the handler can forge) and answers them, a JSON
 * array by call, on the outcomes path; a call still running is null.
 */
export type ServedOutcome = number | 'threw' | 'not-a-response' | null;
