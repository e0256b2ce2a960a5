/** Checks on runtime binaries shared by every runtime plug-in. */
import { delimiter, join } from 'node:path';
import { accessSync, constants, statSync } from 'node:fs';
import { FlagError, RuntimeUnavailableError } from './types.ts';
import { killTree, spawnTracked } from './process.ts';

/** Throws a clear RuntimeUnavailableError unless `path` is an executable file. */
function assertExecutable(path: string, what: string): void {
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw new RuntimeUnavailableError(`${what}: ${path} does not exist`);
  }
  if (!isFile) throw new RuntimeUnavailableError(`${what}: ${path} is not a file`);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new RuntimeUnavailableError(`${what}: ${path} is not executable (chmod +x it)`);
  }
}

/**
 * Runs a binary briefly and returns stdout; rejects with stderr on failure
 * (a non-zero exit, a signal, more than 1 MB of output, or `timeoutMs`).
 * Like every process rtbench starts, it leads its own process group and the
 * warden ends it if the host dies first (a probe of a binary that hangs).
 */
export async function runBriefly(
  binary: string,
  args: string[],
  env: Record<string, string | undefined> = process.env,
  timeoutMs = 30_000,
  cwd?: string,
): Promise<string> {
  const { child, exited } = spawnTracked({ command: binary, args, env, ...(cwd ? { cwd } : {}) });
  const limit = 1 << 20;
  let stdout = '';
  let stderr = '';
  let why: string | undefined;
  const stop = (reason: string): void => {
    why ??= reason;
    killTree(child);
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.length > limit) stop(`printed more than ${limit} bytes`);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < limit) stderr += chunk;
  });
  const timer = setTimeout(() => stop(`did not finish within ${timeoutMs} ms`), timeoutMs);
  const exit = await exited;
  clearTimeout(timer);
  if (!why && !exit.spawnError && exit.code === 0) return stdout;
  const status = exit.spawnError?.message ?? why ?? (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`);
  const detail = (stderr.trim() || stdout.trim() || status).split('\n').slice(0, 6).join('\n');
  throw new Error(detail === status ? detail : `${detail}${why ? ` (${why})` : ''}`);
}

/**
 * Splits rtbench's flag syntax: "--name=value" -> ["name", "value"], "--name" -> ["name", undefined].
 * Anything else is a FlagError, so every plug-in's translateFlags can call it as is.
 */
export function splitFlag(flag: string): [string, string | undefined] {
  const m = /^--?([A-Za-z0-9_-]+)(?:=(.*))?$/.exec(flag);
  if (!m) throw new FlagError(`"${flag}" is not a flag (write --name or --name=value)`);
  return [m[1]!, m[2]];
}

/** First executable named `name` on PATH, or undefined. */
export function whichOnPath(name: string, path = process.env.PATH): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* keep looking */
    }
  }
  return undefined;
}

/** Flags the runtime takes as written (node's argv, workerd's v8Flags), once their syntax is checked. */
export function flagsAsWritten(flags: readonly string[]): { args: string[]; env: Record<string, string> } {
  for (const flag of flags) splitFlag(flag);
  return { args: [...flags], env: {} };
}

/**
 * The first step of every plug-in's probe: the binary must be an executable
 * file and must start; its stdout is returned. Both failures are
 * RuntimeUnavailableErrors naming the spec, so the run goes on without it.
 */
export async function probeOutput(
  spec: string,
  binary: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
  cwd?: string,
): Promise<string> {
  assertExecutable(binary, spec);
  try {
    const said = await runBriefly(binary, args, env, timeoutMs, cwd);
    // A probe that printed nothing is asked once more before its binary is called something else: an
    // empty answer was seen once under heavy load (docs/tests.md), and a binary that prints nothing twice is empty.
    return said.trim() ? said : await runBriefly(binary, args, env, timeoutMs, cwd);
  } catch (error) {
    throw new RuntimeUnavailableError(`${spec}: ${binary} did not start: ${(error as Error).message}`);
  }
}
