/**
 * `rtbench bisect --clean` removes every release the bisect installed, the
 * two ends of the range included (they are installed while the range is
 * resolved, before the bisect's folder opens), and leaves a release that was
 * in the runtime cache before. The releases are versions of a tiny npm
 * package served from a registry of the test's own on 127.0.0.1
 * (test/fixtures/release-runtime/plugin.ts: "relrt"), whose binary is a
 * script that starts this Node.js; from version 2.0.0 on it starts it with
 * --jitless, a change the bisect finds in a few rounds, so it also installs a
 * release between the ends.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINARY, RELEASE_PACKAGE } from '../../../test/fixtures/release-runtime/plugin.ts';
import { seedReleases } from '../../../test/fixtures/release-runtime/registry.ts';
import { useReleaseRegistry } from '../../../test/fixtures/release-runtime/use-registry.ts';
import { cacheDir } from '../src/paths.ts';
import { fixture, repoRoot, runCliAsync, type CliResult } from '../../../test/helpers/cli.ts';

const VERSIONS = ['1.0.0', '2.0.0', '3.0.0', '4.0.0', '5.0.0'];
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
 * A bisect of a range on the tiny suite's longer sum, a few short rounds per step (`rounds`: the first and the most;
 * a step undecided at the first is measured again up to the most), each process warmed a fixed 5 ms
 * (`--fixed-warmup`): no test reads a figure, and the planted step (--jitless off, then on) reads about 12× with
 * it; the watched warmup was two thirds of the file's CPU.
 */
function bisectClean(range: string, dir: string, rounds: [number, number] = [6, 12]): Promise<CliResult> {
  return runCliAsync(
    ['bisect', range, fixture('tiny'), '--filter', 'n=1600', '--threshold', '50%', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--rounds', String(rounds[0]), '--max-rounds', String(rounds[1]), '--budget', '2m', '--timeout', '60s', '--dir', dir, '--clean'],
    registry.env(),
  );
}

/** The cache entries of these releases that are in the cache now. */
const cachedOf = (versions: readonly string[]): string[] => registry.cached().filter((name) => versions.some((v) => name === `${RELEASE_PACKAGE}@${v}`));

// The two bisects' ranges share no release, so they run side by side.
describe.concurrent('bisect --clean', () => {
  it('removes every release it installed, both ends of the range included', async () => {
    const range = VERSIONS.slice(0, 3);
    expect(cachedOf(range)).toEqual([]);
    const r = await bisectClean(`relrt@${range[0]}..relrt@${range[2]}`, join(scratch, 'fresh'));
    expect([0, 1], r.stderr).toContain(r.status);
    const installed = range.filter((v) => r.stderr.includes(`installing relrt@${v} (${RELEASE_PACKAGE}@${v})`));
    // Both ends, and the release between them that the change's search measured.
    expect(installed, r.stderr).toEqual(range);
    expect(cachedOf(range)).toEqual([]);
    expect(r.stderr).toContain(`--clean: removed ${installed.length} releases this bisect installed`);
  });

  it('leaves an end of the range that was in the cache before', async () => {
    const [older, newer] = VERSIONS.slice(3) as [string, string];
    // In the CLI's cache as the runtime store leaves an install (its package and install record), put there without npm:
    // the first test's bisect is the one that installs from the registry.
    await seedReleases({ ...OPTIONS, versions: [older] });
    const binary = join(entry(older), 'node_modules', RELEASE_PACKAGE, BINARY);
    const before = statSync(binary);

    // Two releases alike (both --jitless): its answer is not this test's, so two rounds and no step measured again while undecided.
    const r = await bisectClean(`relrt@${older}..relrt@${newer}`, join(scratch, 'one-end-cached'), [2, 2]);
    expect([0, 1], r.stderr).toContain(r.status);
    expect(r.stderr).not.toContain(`installing relrt@${older} `);
    expect(r.stderr).toContain(`installing relrt@${newer} `);
    expect(cachedOf([older, newer])).toEqual([`${RELEASE_PACKAGE}@${older}`]);
    expect(statSync(binary).ino).toBe(before.ino);
    expect(r.stderr).toContain('--clean: removed 1 release this bisect installed');
  });
});
