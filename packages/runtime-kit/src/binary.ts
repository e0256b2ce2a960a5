/** Checks on runtime binaries shared by every runtime plug-in. */
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { foreignArchitecture, rememberedFact, runBriefly } from '@rtbench/process';
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

/** True when the file starts with "#!" (a script, whose answer may come from files other than itself) or cannot be read. */
function isScript(path: string): boolean {
  const head = Buffer.alloc(2);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return true;
  }
  try {
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
  } finally {
    closeSync(fd);
  }
}

const isAnswer = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * The first step of every plug-in's probe: the binary must be an executable
 * file and must start; its stdout is returned. Both failures are
 * RuntimeUnavailableErrors naming the spec, so the run goes on without it.
 * A binary's answer is remembered per file identity (file-facts.ts): a
 * start of the CLI spawns no runtime just to ask its version, and a binary
 * replaced is asked again. A script is always asked (what it runs may change).
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
  const ask = () => askBinary(spec, binary, args, env, timeoutMs, cwd);
  if (isScript(binary)) return ask();
  // Failures and empty answers are not remembered: the next start asks again.
  return rememberedFact(binary, `probe ${JSON.stringify([args, env, cwd ?? null])}`, ask, isAnswer).catch((error: unknown) => {
    if (error instanceof RuntimeUnavailableError) throw error;
    return ask();
  });
}

async function askBinary(spec: string, binary: string, args: string[], env: Record<string, string | undefined>, timeoutMs: number, cwd?: string): Promise<string> {
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
