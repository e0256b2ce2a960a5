/** `releases`' arguments: which are ranges (a runtime's or a package's, scoped or not) and which are suites; a bad range refused in one line. */
import { describe, expect, it } from 'vitest';
import { listTracks } from '@rtbench/releases';
import { rangesAndSuites } from '../src/commands/releases.ts';
import { UsageError } from '../src/errors.ts';

describe('releases: ranges and suites', () => {
  it('takes a scoped package range as a range, and suites, files and paths as suites', () => {
    const args = ['@scope/pkg@1.0.0..@scope/pkg@2.0.0 workerd', 'node@25.8.0..node@26.1.0 --jitless', 'react@latest~3', 'json-reviver', './bench.mjs', 'test/fixtures/tiny', '/abs/path@1/bench.mjs'];
    expect(rangesAndSuites(args)).toEqual({ ranges: args.slice(0, 3), suites: args.slice(3) });
  });

  it('refuses a range it cannot read, scoped or not, in one line naming it, before the registry is asked', async () => {
    for (const typed of ['@scope/pkg@^1', 'react@^19']) {
      const { ranges, suites } = rangesAndSuites([typed, 'json-reviver']);
      expect(ranges, typed).toEqual([typed]);
      const error: unknown = await listTracks(ranges, suites, 1, (s) => s).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, typed).toBeInstanceOf(UsageError);
      const message = (error as Error).message;
      expect(message).toContain(`releases ${JSON.stringify(typed)}: not a range of releases`);
      expect(message).not.toContain('\n');
    }
  });
});
