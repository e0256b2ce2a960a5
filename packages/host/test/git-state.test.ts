/** The git state recorded with a run (rtbench's checkout, a user's own build). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitState } from '../src/git.ts';

const git = (dir: string, ...args: string[]) => {
  const r = spawnSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
};

describe('gitState', () => {
  it('gives the commit of a checkout, clean or dirty, from any directory inside it, and nothing outside one', () => {
    const repo = mkdtempSync(join(tmpdir(), 'rtbench-git-'));
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'node.cc'), 'int main() {}\n');
    git(repo, 'add', 'node.cc');
    git(repo, 'commit', '-qm', 'build');
    const head = git(repo, 'rev-parse', 'HEAD');
    mkdirSync(join(repo, 'out', 'Release'), { recursive: true });
    expect(gitState(join(repo, 'out', 'Release'))).toEqual({ commit: head, dirty: false });
    // An untracked build output does not make the source dirty; a changed source file does.
    writeFileSync(join(repo, 'out', 'Release', 'node'), 'binary');
    expect(gitState(repo)).toEqual({ commit: head, dirty: false });
    writeFileSync(join(repo, 'node.cc'), 'int main() { return 1; }\n');
    expect(gitState(repo)).toEqual({ commit: head, dirty: true });
    expect(gitState(mkdtempSync(join(tmpdir(), 'rtbench-nogit-')))).toBeUndefined();
  });
});
