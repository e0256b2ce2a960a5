/**
 * What a run needs of the CLI's surroundings (@rtbench/run owns the run):
 * the checkout it runs from, or the installed version, and the program cache.
 */
import { join } from 'node:path';
import type { RunEnvironment } from '@rtbench/run';
import { binaryGitState, gitState } from '@rtbench/host/git';
import { cacheDir, CLI_VERSION, inCheckout, repoRoot } from '../paths.ts';

export function runEnvironment(): RunEnvironment {
  // An installed rtbench sits in the user's repository: that checkout's commit is not rtbench's.
  const git = inCheckout ? gitState(repoRoot) : undefined;
  return {
    ...(git ? { git } : {}),
    ...(inCheckout ? {} : { rtbenchVersion: CLI_VERSION }),
    binaryGit: binaryGitState,
    programDir: join(cacheDir, 'programs'),
  };
}
