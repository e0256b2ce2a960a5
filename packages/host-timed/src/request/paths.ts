/** What the served wrapper and the host agree on: its reserved paths and what the outcomes path answers. */
export const RESERVED = {
  empty: '/.rtbench/empty',
  spin: '/.rtbench/spin',
  threadClock: '/.rtbench/thread-clock',
  outcomes: '/.rtbench/outcomes',
  consoleLines: '/.rtbench/console-lines',
  profileMark: '/.rtbench/profile-mark',
} as const;

/**
 * The function the profile-mark path runs (fixed work under a name of its
 * own): a CPU profile of the server shows where its requests under the
 * profiler began and ended (@rtbench/profile). A bundler may add a number
 * to the name.
 */
export const PROFILE_MARK = 'rtbenchProfileMark';

/**
 * How the handler's nth call ended, as the wrapper saw it: it returned a
 * Response (with that status), threw, or returned something else. The
 * wrapper keeps these where the handler cannot write (not in a header of
 * the response, which the handler can forge) and answers them, a JSON
 * array by call, on the outcomes path; a call still running is null.
 */
export type ServedOutcome = number | 'threw' | 'not-a-response' | null;
