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

/** Whoever holds the streams now: one command at a time writes to them, whatever runs concurrently. */
let streamsHeld: Promise<unknown> = Promise.resolve();

/**
 * The exit code and everything the command printed, its own output included (it writes to process.stdout and
 * process.stderr itself), as the real command's streams would carry them at 100 columns: the streams and COLUMNS
 * are the command's for its call alone, one call at a time, and given back however it ends.
 */
export function commandStreams(args: string[]): Promise<Said> {
  const call = streamsHeld.then(async () => {
    let stdout = '';
    let stderr = '';
    const { write: outWrite } = process.stdout;
    const { write: errWrite } = process.stderr;
    const columns = process.env.COLUMNS;
    const sink = (add: (text: string) => void) =>
      ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
        add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
        done?.();
        return true;
      }) as typeof process.stdout.write;
    process.stdout.write = sink((text) => void (stdout += text));
    process.stderr.write = sink((text) => void (stderr += text));
    process.env.COLUMNS = '100';
    try {
      const status = await runCommandLine(args, { out: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) } });
      return { status, stdout, stderr };
    } finally {
      process.stdout.write = outWrite;
      process.stderr.write = errWrite;
      if (columns === undefined) delete process.env.COLUMNS;
      else process.env.COLUMNS = columns;
    }
  });
  streamsHeld = call.catch(() => undefined);
  return call;
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
