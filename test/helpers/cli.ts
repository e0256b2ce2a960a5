/** Runs the real rtbench CLI in a child process, as a user would. */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export const repoRoot = join(import.meta.dirname, '..', '..');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The installed command's own launcher (packages/cli/bin/rtbench.mjs): the CLI from its bundle, as `pnpm bench` runs it. */
export const cliArgv = (args: string[]): string[] => [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), ...args];
// COLUMNS pinned: a shell that exports its own would otherwise change every table's layout (the CLI reads it first).
const cliEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: '1', COLUMNS: '100', ...env });

/** Runs the CLI to the end. */
export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, cliArgv(args), { cwd: repoRoot, encoding: 'utf8', env: cliEnv(env), timeout: 600_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs the CLI to the end without blocking the test file, for tests that run
 * side by side (describe.concurrent): most of a short run is wall-clock
 * budget (warmup, sampling, start-up), which overlaps on two cores.
 */
export function runCliAsync(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgv(args), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: cliEnv(env), timeout: 600_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Starts the CLI and returns the live child, for tests that signal it or watch it. */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, cliArgv(args), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: cliEnv(env) });
}

export function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'rtbench-test-')), name);
}

export const fixture = (name: string): string => join(repoRoot, 'test', 'fixtures', name, 'index.ts');

/**
 * The terminal table's row for one case and arm, in either layout the table
 * picks for its width: the case in its own column on the arm's first row, or
 * the case as a heading line with its arms' rows under it.
 */
export function tableRow(stdout: string, caseId: string, arm: string): string {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.trim() === caseId || l.startsWith(`${caseId} `));
  // In the case-column layout the first arm's row begins with the case name: blank it so every arm row looks alike.
  const rows = lines.slice(start).map((l) => (l.startsWith(`${caseId} `) ? ' '.repeat(caseId.length) + l.slice(caseId.length) : l));
  const row = start < 0 ? undefined : rows.find((l) => new RegExp(`^\\s+${arm}\\s`).test(l));
  if (row === undefined) throw new Error(`no ${arm} row for case ${JSON.stringify(caseId)} in:\n${stdout}`);
  return row;
}

/**
 * Output with the shell commands it prints joined back onto one line: a
 * command wider than the terminal breaks between words with a trailing `\`,
 * where it breaks depends on the checkout's path, and a test reads the command.
 */
export const unwrapped = (text: string): string => text.replace(/ \\\n\s+/g, ' ');
