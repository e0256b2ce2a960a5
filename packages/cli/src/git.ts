/**
 * The git state of a directory: the rtbench checkout a run was made from, and
 * the checkout a user's own binary was built in. History across commits needs
 * both. A directory outside any checkout (or no git installed) gives undefined.
 */
import { spawnSync } from 'node:child_process';
import type { GitState } from '@rtbench/core/schema';

function git(dir: string, args: string[]): string | undefined {
  const r = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function gitState(dir: string): GitState | undefined {
  const commit = git(dir, ['rev-parse', 'HEAD']);
  if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  // Tracked files only: an untracked results file does not make the code dirty.
  const status = git(dir, ['status', '--porcelain', '--untracked-files=no']);
  return { commit, dirty: status === undefined ? true : status.length > 0 };
}
