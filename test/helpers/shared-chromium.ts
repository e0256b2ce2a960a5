/**
 * One Chromium for the whole test run (test/browser/chromium-server.mjs):
 * started by the first browser test file to ask, through the fixture pool
 * (test/helpers/pool.ts), and connected to by every other, instead of a
 * Chromium launched and closed per file. Stopped at the run's end by the CPU
 * reporter (which records its CPU as a line of its own) or the fixture pool's
 * teardown, whichever comes first; on its own once vitest is gone.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { poolRoot } from './pool-root.ts';

/** The pool's name for the shared Chromium's folder. */
export const SHARED_CHROMIUM = 'chromium';
/** Its CPU's line in the test run's records (the server's file, which no test file's record holds). */
export const SHARED_CHROMIUM_RECORD = 'test/browser/chromium-server.mjs';

const SERVER = join(import.meta.dirname, '..', 'browser', 'chromium-server.mjs');

/** Whether a process runs (kill 0: no signal sent). Not @rtbench/process's: the CPU reporter, which vitest's config loads, imports this module, and a workspace package's TypeScript cannot load there (pool-root.ts). */
const pidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Starts the server in `dir` and waits until it listens. It is started through a shell that leaves it at once, so
 * it is no process of the asking file's: that file's CPU record does not hold it, and it outlives the file's worker.
 */
export async function startChromiumServer(dir: string, options: object): Promise<void> {
  const log = join(dir, 'stderr.txt');
  // The vitest process: a file's worker is its child.
  const vitest = String(process.ppid);
  const sh = spawn('/bin/sh', ['-c', '"$0" "$@" </dev/null >/dev/null 2>"$RTBENCH_CHROMIUM_LOG" &', process.execPath, SERVER, dir, vitest, JSON.stringify(options)], {
    env: { ...process.env, RTBENCH_CHROMIUM_LOG: log },
    stdio: 'ignore',
  });
  await new Promise((resolve) => sh.once('exit', resolve));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (existsSync(join(dir, 'endpoint'))) return;
    const failed = read(join(dir, 'failed'));
    if (failed !== undefined) throw new Error(`the shared Chromium did not start: ${failed}`);
    const pid = Number(read(join(dir, 'pid')));
    if ((pid > 0 && !pidAlive(pid)) || Date.now() > deadline) throw new Error(`the shared Chromium did not start: ${read(log)?.trim() || 'no word from it'}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The shared Chromium's address, once started. */
export const chromiumEndpoint = (dir: string): string => readFileSync(join(dir, 'endpoint'), 'utf8');

/**
 * Stops the run's shared Chromium, if one was started, and returns its /proc stat (the server's CPU and that of the
 * Chromium it reaped), or undefined when none ran. A second call finds it stopped and returns undefined.
 */
export async function stopSharedChromium(root = poolRoot()): Promise<string | undefined> {
  const dir = join(root, SHARED_CHROMIUM);
  const pid = Number(read(join(dir, 'pid')));
  if (!(pid > 0)) return undefined;
  // Its pid file goes first: a second call (or a pid the system gave another process since) signals nothing.
  rmSync(join(dir, 'pid'), { force: true });
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return undefined;
  }
  const deadline = Date.now() + 20_000;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return read(join(dir, 'stat'));
}
