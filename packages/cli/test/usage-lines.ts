/**
 * The `rtbench` command line run in the test's own process (command-run.ts),
 * and what a refused one must print: exit code 2 and a single "error:" line
 * (a list of what exists may follow it), no stack trace, no subject twice.
 */
import { expect } from 'vitest';
import { runCommandLine } from '../src/command-run.ts';

export interface Said {
  status: number;
  stdout: string;
  stderr: string;
}

/** The exit code and what the command line itself printed (help, version, notes, errors). */
export async function commandLine(args: string[]): Promise<Said> {
  let stdout = '';
  let stderr = '';
  const status = await runCommandLine(args, { out: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) } });
  return { status, stdout, stderr };
}

export async function expectUsageError(args: string[], message: RegExp): Promise<void> {
  const said = await commandLine(args);
  expect(said.status, `${args.join(' ')}\n${said.stderr}`).toBe(2);
  const lines = said.stderr.split('\n').filter((l) => l.trim());
  expect(lines.filter((l) => l.startsWith('error: ')), said.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  expect(said.stderr).not.toMatch(/\n\s+at /);
  expectOnePrefixPerLine(said.stderr);
}

/** No line says the same thing twice before its message ("error: node@27: node@27: …"). */
export function expectOnePrefixPerLine(stderr: string): void {
  for (const line of stderr.split('\n')) expect(line).not.toMatch(/^(?:error: )?([^:]+): (?:error: )?\1[: ]/);
}
