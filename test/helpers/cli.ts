/** Runs the real rtbench CLI in a child process, as a user would. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'packages/cli/src/bin.ts'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 600_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'rtbench-test-')), name);
}

export const fixture = (name: string): string => join(repoRoot, 'test', 'fixtures', name, 'index.ts');
