/**
 * A tool rtbench runs to completion that is not a runtime: a framework's
 * build step, a package manager's install. Its code is the app's (a
 * `vite.config.js` runs whatever it likes), so it is held like a runtime
 * and more:
 *
 * - a PID namespace of its own (`unshare --pid --fork --kill-child`): when
 *   its first process exits, or `unshare` is killed (the time bound, the
 *   warden), the kernel ends every process in the namespace, a daemon that
 *   double-forked or cleared its environment included. A cgroup or an
 *   environment marker (containment.ts) catches most of these too, but the
 *   namespace holds whichever of them this host has, and as any user;
 * - a network namespace of its own where the step needs no network (a
 *   build): its only interface is its own loopback, brought up so that a
 *   tool talking to itself on 127.0.0.1 works; the host's 127.0.0.1 and
 *   every other address are unreachable;
 * - a containment cell (containment.ts) around `unshare`, so that the
 *   warden ends it if the CLI dies by a signal no handler sees (SIGKILL);
 * - a time bound, after which `unshare` is SIGKILLed (and with it the
 *   namespace).
 *
 * Where namespaces are unavailable (not Linux, no `unshare`, user namespaces
 * forbidden to this user) the step runs in the cell alone, with the host's
 * network; `isolation().detail` says so, and the caller says it once.
 * The user-namespace variant maps this user to root inside (util-linux
 * `--map-root-user`): files the step writes are still this user's.
 */
import { spawnSync } from 'node:child_process';
import { containment } from './containment.ts';
import { whichOnPath } from './run-briefly.ts';

export interface Isolation {
  /** The command line put in front of a step's own, per network choice; undefined where namespaces are unavailable. */
  readonly prefix?: { readonly offline: readonly string[]; readonly online: readonly string[] };
  /** What holds, in words for a line or a saved run. */
  readonly detail: string;
}

/** Brings the namespace's loopback up when `ip` is there (without it a tool reaches not even its own 127.0.0.1), then runs the step. */
const LOOPBACK_UP = 'command -v ip >/dev/null 2>&1 && ip link set lo up 2>/dev/null; "$@"';

let probed: Isolation | undefined;

/** Tries the namespaces once per CLI: as root they need no user namespace; as another user they do, where the system allows it. */
export function isolation(): Isolation {
  probed ??= probe();
  return probed;
}

function probe(): Isolation {
  if (process.platform !== 'linux') return { detail: `no namespaces on ${process.platform}: a build step has the host's network, and its processes are ended through its cell` };
  const unshare = whichOnPath('unshare');
  if (!unshare) return { detail: "no unshare (util-linux) on PATH: a build step has the host's network, and its processes are ended through its cell" };
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  const pid = [unshare, ...user, '--pid', '--fork', '--kill-child'];
  const offline = [...pid.slice(0, 1), '--net', ...pid.slice(1)];
  const tried = spawnSync(offline[0]!, [...offline.slice(1), 'true'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 10_000 });
  if (tried.status !== 0) {
    const why = (tried.stderr ?? '').trim().split('\n').at(-1) || tried.error?.message || `exit ${tried.status}`;
    return { detail: `namespaces unavailable to this user (unshare: ${why}): a build step has the host's network, and its processes are ended through its cell` };
  }
  return {
    prefix: { offline: [...offline, 'sh', '-c', LOOPBACK_UP, 'sh'], online: pid },
    detail: `each build step in a network namespace of its own (its own loopback only) and a PID namespace ended with it${user.length ? ', through a user namespace' : ''}`,
  };
}

export interface ContainedStepOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Where its stdout and stderr go (a file, so that no amount of output fills a buffer). */
  readonly outputFd: number;
  readonly timeoutMs: number;
  /** Whether the step may reach the network (an install from the registry); a build may not. */
  readonly network: boolean;
}

export interface ContainedStepResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The step was ended at its time bound. */
  readonly timedOut: boolean;
  /** It could not be started. */
  readonly error?: Error;
}

/** Runs `command args` to its end under isolation() and a cell, synchronously; whatever it started is ended when it returns. */
export function runContainedStep(command: string, args: readonly string[], options: ContainedStepOptions): ContainedStepResult {
  const prefix = isolation().prefix?.[options.network ? 'online' : 'offline'] ?? [];
  const line = [...prefix, command, ...args];
  const cell = containment().cell();
  try {
    const r = cell.around(() =>
      spawnSync(line[0]!, line.slice(1), {
        cwd: options.cwd,
        env: { ...options.env, ...cell.env },
        stdio: ['ignore', options.outputFd, options.outputFd],
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
      }),
    );
    const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
    return { status: r.status, signal: r.signal, timedOut, ...(r.error && !timedOut ? { error: r.error } : {}) };
  } finally {
    cell.end();
    cell.dispose();
  }
}
