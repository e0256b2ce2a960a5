/**
 * What a run needs of the CLI's surroundings (@rtbench/run owns the run):
 * the checkout it runs from, the cache, and the suite turned into code by the
 * CLI's one bundler (bundle.ts), checked against its hash before every run.
 */
import { dirname, join } from 'node:path';
import type { HostTimedSuite } from '@rtbench/host-timed';
import { hostSuiteCode } from '@rtbench/host-timed';
import type { RunEnvironment, SuiteLocation } from '@rtbench/run';
import { bundleCodeHash, bundleSuite } from './bundle.ts';
import { gitState } from './git.ts';
import { cacheDir, CLI_VERSION, inCheckout, repoRoot } from './paths.ts';
import { loadSuite } from './suites.ts';

export function runEnvironment(suite: SuiteLocation): RunEnvironment {
  // An installed rtbench sits in the user's repository: that checkout's commit is not rtbench's.
  const git = inCheckout ? gitState(repoRoot) : undefined;
  return {
    ...(git ? { git } : {}),
    ...(inCheckout ? {} : { rtbenchVersion: CLI_VERSION }),
    binaryGit: (binary) => gitState(dirname(binary)),
    programDir: join(cacheDir, 'programs'),
    async bundle(plugin) {
      const { path } = await bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle);
      return { path, sha256: bundleCodeHash(path) };
    },
    async hostSuiteCode(plugins) {
      const { measurements } = (await loadSuite(suite)).suite as HostTimedSuite;
      return hostSuiteCode(suite.entry, measurements, new Map(plugins.map((p) => [p.name, p.bundle])), repoRoot);
    },
  };
}
