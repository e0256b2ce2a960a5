/** Checks on runtime binaries shared by every runtime plug-in. */
import { accessSync, constants, statSync } from 'node:fs';
import { foreignArchitecture, runBriefly } from '@rtbench/process';
import { FlagError, RuntimeUnavailableError } from './types.ts';

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
 * Splits rtbench's flag syntax: "--name=value" -> ["name", "value"], "--name" -> ["name", undefined].
 * Anything else is a FlagError, so every plug-in's translateFlags can call it as is.
 */
export function splitFlag(flag: string): [string, string | undefined] {
  const m = /^--?([A-Za-z0-9_-]+)(?:=(.*))?$/.exec(flag);
  if (!m) throw new FlagError(`"${flag}" is not a flag (write --name or --name=value)`);
  return [m[1]!, m[2]];
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
    // empty answer was seen once under heavy load (docs/measurements/tests.md), and a binary that prints nothing twice is empty.
    return said.trim() ? said : await runBriefly(binary, args, env, timeoutMs, cwd);
  } catch (error) {
    // A binary of another CPU may run where an emulator is registered (binfmt_misc); where none is, its header is the cause.
    const foreign = foreignArchitecture(binary);
    if (foreign) throw new RuntimeUnavailableError(`${spec}: ${binary} ${foreign}, and this machine (${process.arch}) cannot run it`);
    throw new RuntimeUnavailableError(`${spec}: ${binary} did not start: ${(error as Error).message}`);
  }
}
