/**
 * vitest's `expect`, for a `*.bench.ts` file that asserts inside its timed
 * function (`import { bench, expect } from 'vitest'`). It is built as vitest
 * builds its own, from @vitest/expect (vitest's Jest-style matchers as a chai
 * plugin), so `toBe`, `toEqual`, `toMatchObject`, `expect.any()` and the rest
 * pass and fail as they do under vitest, with vitest's messages; a failed
 * assertion throws, and the case fails with that message in one line. What
 * only a vitest test run has (snapshots, `expect.poll`, `expect.assertions`,
 * `expect.soft`) is not provided.
 */
import { ASYMMETRIC_MATCHERS_OBJECT, ChaiStyleAssertions, GLOBAL_EXPECT, JestAsymmetricMatchers, JestChaiExpect, JestExtend, chai, setState } from '@vitest/expect';
import type { ExpectStatic } from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(ChaiStyleAssertions);
chai.use(JestAsymmetricMatchers);

function createExpect(): ExpectStatic {
  const made = ((value: unknown, message?: string) => chai.expect(value, message)) as unknown as ExpectStatic;
  Object.assign(made, chai.expect);
  Object.assign(made, (globalThis as Record<symbol, unknown>)[ASYMMETRIC_MATCHERS_OBJECT]);
  setState({ assertionCalls: 0, isExpectingAssertions: false, isExpectingAssertionsError: null, expectedAssertionsNumber: null, expectedAssertionsNumberErrorGen: null, currentTestName: '' }, made);
  made.extend = (matchers) => (chai.expect as unknown as { extend: (e: ExpectStatic, m: typeof matchers) => void }).extend(made, matchers);
  made.assert = chai.assert;
  // The matchers read the state of the expect found here; a vitest run that already has one keeps it.
  (globalThis as Record<symbol, unknown>)[GLOBAL_EXPECT] ??= made;
  return made;
}

/** vitest's `expect(value)`, with `expect.extend`, the asymmetric matchers (`expect.any`, `expect.objectContaining`, …) and `expect.assert`. */
export const expect: ExpectStatic = createExpect();
