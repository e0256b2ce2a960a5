/**
 * vitest's order, except that the files known to take longest start first
 * and the pure tests (vitest.fast.config.ts's list) last. vitest orders a
 * project's files by their last durations, from a cache a fresh clone does
 * not have (then by size, which says little here): a long file started last
 * leaves a core idle at the end, and the pure files, short and many, fill the
 * cores as the long ones end.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The slowest files, slowest first (docs/measurements/tests.md, "The test command's time"). */
const SLOWEST_FIRST = [
  'test/instructions.test.ts',
  'test/installed.test.ts',
  'test/suites.test.ts',
  'test/faults/usage.test.ts',
  'test/faults/big-output.test.ts',
  'test/arm64-emulated.test.ts',
  'test/memory.test.ts',
  'packages/cli/test/releases.test.ts',
  'test/brought-formats.test.ts',
  'test/examples.test.ts',
  'test/compare.test.ts',
  'test/claims.test.ts',
  'test/faults/faults.test.ts',
  'test/forged-figures.test.ts',
  'test/faults/hostile-names.test.ts',
  'test/cli-runtimes.test.ts',
  'test/browser/html-report.test.ts',
  'test/history.test.ts',
  'test/package-pins.test.ts',
  'test/faults/orphans.test.ts',
  'test/browser/flame.test.ts',
  'packages/cli/test/host-timed.test.ts',
];

/** The project of the pure tests (vitest.config.ts): last, as the cores free up. */
const LAST_PROJECT = 'pure';

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOWEST_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    // vitest runs each groupOrder's files as a group of their own, in this order within it.
    return sorted
      .map((f, i) => ({ f, key: [f.project.name === LAST_PROJECT ? 1 : 0, rank(f), i] as const }))
      .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2])
      .map(({ f }) => f);
  }
}
