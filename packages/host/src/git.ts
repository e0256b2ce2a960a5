/**
 * The git state of a directory: the rtbench checkout a run was made from, and
 * the checkout a user's own binary was built in. History across commits needs
 * both. A directory outside any checkout (or no git installed) gives undefined.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { GitState } from '@rtbench/core/schema';

function git(dir: string, args: string[]): string | undefined {
  const r = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function gitState(dir: string): GitState | undefined {
  // One git process for both (a run's start pays for each): the commit's line, then one line per changed tracked
  // file (an untracked results file does not make the code dirty). An older git without these flags asks twice.
  const both = git(dir, ['status', '--porcelain=v2', '--branch', '--no-ahead-behind', '--untracked-files=no']);
  if (both !== undefined) {
    const lines = both.split('\n').filter((line) => line !== '');
    const commit = /^# branch\.oid ([0-9a-f]{40,64})$/m.exec(both)?.[1];
    return commit ? { commit, dirty: lines.some((line) => !line.startsWith('# ')) } : undefined;
  }
  const commit = git(dir, ['rev-parse', 'HEAD']);
  if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  const status = git(dir, ['status', '--porcelain', '--untracked-files=no']);
  return { commit, dirty: status === undefined ? true : status.length > 0 };
}

/**
 * The checkout a user's own binary was built in: the git state of the
 * checkout around the binary's real path, unless the binary sits in a
 * package inside it (a `node_modules` folder, or a folder below the
 * checkout's root with a package.json: a release from npm, whose
 * provenance is its own version, not the commit of the repository that
 * happens to hold it).
 */
export function binaryGitState(binary: string): GitState | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(binary));
  } catch {
    return undefined;
  }
  const root = git(dir, ['rev-parse', '--show-toplevel']);
  if (!root) return undefined;
  const top = realpathSync(root);
  for (let d = dir; d !== top && d.startsWith(`${top}${sep}`); d = dirname(d)) {
    if (basename(d) === 'node_modules' || existsSync(join(d, 'package.json'))) return undefined;
  }
  return gitState(top);
}

/**
 * Each of `commits`' position in the history of the checkout at `dir`, oldest
 * first (git rev-list --topo-order: a commit after all its ancestors); a
 * commit the checkout does not have is left out. Undefined when `dir` is not
 * a checkout or git is missing.
 */
export function commitRanks(dir: string, commits: readonly string[]): Map<string, number> | undefined {
  if (git(dir, ['rev-parse', '--git-dir']) === undefined) return undefined;
  const wanted = [...new Set(commits)].filter((c) => /^[0-9a-f]{40,64}$/.test(c));
  const ranks = new Map<string, number>();
  if (!wanted.length) return ranks;
  const input = (args: string[], stdin: string): string | undefined => {
    const r = spawnSync('git', ['-C', dir, ...args], { input: stdin, encoding: 'utf8', timeout: 30_000, maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'ignore'] });
    return r.status === 0 ? r.stdout : undefined;
  };
  // "<sha> commit <size>" for a commit the object store has, "<sha> missing" otherwise.
  const known = (input(['cat-file', '--batch-check'], `${wanted.join('\n')}\n`) ?? '')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((parts) => parts[1] === 'commit')
    .map((parts) => parts[0]!);
  if (!known.length) return ranks;
  const order = (input(['rev-list', '--topo-order', '--reverse', '--stdin'], `${known.join('\n')}\n`) ?? '').split('\n');
  const want = new Set(known);
  order.forEach((c, i) => {
    if (want.has(c)) ranks.set(c, i);
  });
  return ranks;
}
