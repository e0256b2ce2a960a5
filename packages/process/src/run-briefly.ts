/** Running a binary briefly (a probe, npm), and finding one on PATH. */
import { delimiter, join } from 'node:path';
import { accessSync, constants } from 'node:fs';
import { killTree, spawnTracked } from './process.ts';

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
