/** Checks on runtime binaries shared by every runner. */
import { delimiter, join } from 'node:path';
import { accessSync, constants, statSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { FlagError, RuntimeUnavailableError } from './types.ts';
import { guardGroup, releaseGroup } from './warden.ts';

/** Throws a clear RuntimeUnavailableError unless `path` is an executable file. */
export function assertExecutable(path: string, what: string): void {
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
 * Runs a binary briefly and returns stdout; rejects with stderr on failure.
 * Like every process rtbench starts, it leads its own process group and the
 * warden ends it if the host dies first (a probe of a binary that hangs).
 */
export function runBriefly(
  binary: string,
  args: string[],
  env: Record<string, string | undefined> = process.env,
  timeoutMs = 30_000,
  cwd?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // `detached` (a process group of its own) is passed on to spawn; Node's types omit it for execFile.
    const options = { env, cwd, timeout: timeoutMs, maxBuffer: 1 << 20, killSignal: 'SIGKILL' as const, encoding: 'utf8' as const, detached: true };
    const child = execFile(binary, args, options, (error, stdout, stderr) => {
      if (child.pid !== undefined) releaseGroup(child.pid);
      if (!error) {
        resolve(stdout);
        return;
      }
      const detail = (stderr || stdout || error.message).trim().split('\n').slice(0, 6).join('\n');
      reject(new Error(detail));
    });
    if (child.pid !== undefined) guardGroup(child.pid);
  });
}

/**
 * Splits rtbench's flag syntax: "--name=value" -> ["name", "value"], "--name" -> ["name", undefined].
 * Anything else is a FlagError, so every runner's translateFlags can call it as is.
 */
export function splitFlag(flag: string): [string, string | undefined] {
  const m = /^--?([A-Za-z0-9_-]+)(?:=(.*))?$/.exec(flag);
  if (!m) throw new FlagError(`"${flag}" is not a flag (write --name or --name=value)`);
  return [m[1]!, m[2]];
}

/** First executable named `name` on PATH, or undefined. */
export function whichOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
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
 * The first step of every runner's probe: the binary must be an executable
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
    return await runBriefly(binary, args, env, timeoutMs, cwd);
  } catch (error) {
    throw new RuntimeUnavailableError(`${spec}: ${binary} did not start: ${(error as Error).message}`);
  }
}
