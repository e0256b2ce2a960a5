/**
 * `rtbench bisect --clean` removes every release the bisect installed, an
 * end of the range included (the ends are installed while the range is
 * resolved, before the bisect's folder opens), and leaves an end that was in
 * the runtime cache before. The releases are versions of a tiny npm package
 * served from a registry of the test's own on 127.0.0.1
 * (test/fixtures/release-runtime/plugin.ts: "relrt"), whose binary is a
 * script that starts this Node.js; from version 2.0.0 on it starts it with
 * --jitless, a change the bisect finds in a few rounds, so it also installs
 * the release between the ends. The one campaign over a runtime's releases
 * that installs them with npm (the others find theirs in the cache:
 * test/fixtures/release-runtime/registry.ts seedReleases). One bisect shows
 * both: both ends go through one check of what the cache held before
 * (packages/bisect/src/step.ts installsOf, whose noting of either end is
 * packages/bisect/test/bisect-parts.test.ts), so the older end, cached before,
 * stands for an end left and the newer for an end removed (two bisects, each
 * a CLI start, npm's listing and its processes, cost a quarter more).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINARY, RELEASE_PACKAGE } from '../../../test/fixtures/release-runtime/plugin.ts';
import { seedReleases } from '../../../test/fixtures/release-runtime/registry.ts';
import { useReleaseRegistry } from '../../../test/fixtures/release-runtime/use-registry.ts';
import { cacheDir } from '../src/paths.ts';
import { fixture, repoRoot, runCliAsync, type CliResult } from '../../../test/helpers/cli.ts';

const VERSIONS = ['1.0.0', '2.0.0', '3.0.0'];
const RUNTIMES = join(cacheDir, 'runtimes');
const OPTIONS = {
  pkg: RELEASE_PACKAGE,
  versions: VERSIONS,
  // From 2.0.0 on, the binary starts this Node.js with --jitless: a change the bisect finds in a few rounds.
  script: (v: string) => `#!/bin/sh\nexec '${process.execPath}'${v === VERSIONS[0] ? '' : ' --jitless'} "$@"\n`,
  plugin: join(repoRoot, 'test/fixtures/release-runtime/plugin.ts'),
  runtimes: RUNTIMES,
};
const registry = useReleaseRegistry(OPTIONS);
const { scratch } = registry;
const entry = (version: string): string => join(RUNTIMES, `${RELEASE_PACKAGE}@${version}`);

/**
 * A bisect of the range on the tiny suite's longer sum, a few short rounds per step (6, and up to 12 for a step
 * undecided at 6), each process warmed a fixed 5 ms (`--fixed-warmup`): no test reads a figure, and the planted step
 * (--jitless off, then on) reads about 12× with it; the watched warmup was two thirds of the file's CPU.
 */
function bisectClean(range: string, dir: string): Promise<CliResult> {
  return runCliAsync(
    ['bisect', range, fixture('tiny'), '--filter', 'n=1600', '--threshold', '50%', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--rounds', '6', '--max-rounds', '12', '--budget', '2m', '--timeout', '60s', '--dir', dir, '--clean'],
    registry.env(),
  );
}

/** The cache entries of these releases that are in the cache now. */
const cachedOf = (versions: readonly string[]): string[] => registry.cached().filter((name) => versions.some((v) => name === `${RELEASE_PACKAGE}@${v}`));

describe('bisect --clean', () => {
  it('removes every release it installed, the newer end of the range included, and leaves the older end, which was in the cache before', async () => {
    const [older, middle, newer] = VERSIONS as [string, string, string];
    expect(cachedOf(VERSIONS)).toEqual([]);
    // In the CLI's cache as the runtime store leaves an install (its package and install record), put there without npm.
    await seedReleases({ ...OPTIONS, versions: [older] });
    const binary = join(entry(older), 'node_modules', RELEASE_PACKAGE, BINARY);
    const before = statSync(binary);

    const r = await bisectClean(`relrt@${older}..relrt@${newer}`, join(scratch, 'bisect'));
    expect([0, 1], r.stderr).toContain(r.status);
    const installed = VERSIONS.filter((v) => r.stderr.includes(`installing relrt@${v} (${RELEASE_PACKAGE}@${v})`));
    // The newer end, and the release between the ends that the change's search measured; not the end in the cache.
    expect(installed, r.stderr).toEqual([middle, newer]);
    expect(cachedOf(VERSIONS)).toEqual([`${RELEASE_PACKAGE}@${older}`]);
    expect(statSync(binary).ino).toBe(before.ino);
    expect(r.stderr).toContain(`--clean: removed ${installed.length} releases this bisect installed`);
  });
});
