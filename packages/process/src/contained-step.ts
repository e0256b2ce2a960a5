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
 * - a mount namespace of its own where the caller names the folders the
 *   step may write (a build: its build folder): every mount is read-only
 *   there but those folders; /tmp and the caller's scratch folders (the
 *   app's node_modules, where vite bundles its config) are overlays whose
 *   writes land in a tmpfs of the step's own, gone when it ends; /dev/shm is
 *   that tmpfs. A bind mount of what is already mounted, an overlay and a
 *   tmpfs are what a user namespace may make (Linux 5.11+), so this holds as
 *   any user where the PID namespace does; bubblewrap would do the same but
 *   is one more program to install, and `unshare` is already required;
 * - a containment cell (containment.ts) around `unshare`, so that the
 *   warden ends it if the CLI dies by a signal no handler sees (SIGKILL);
 * - a time bound, after which `unshare` is SIGKILLed (and with it the
 *   namespace);
 * - a bound on what it writes (`writeBytes`): its scratch tmpfs is that
 *   size, and the keeper stops it once its writable folders have grown by
 *   more.
 *
 * Where namespaces are unavailable (not Linux, no `unshare`, user namespaces
 * forbidden to this user) the step runs in the cell alone, with the host's
 * network; `isolation().detail` says so, and the caller says it once.
 * The user-namespace variant maps this user to root inside (util-linux
 * `--map-root-user`): files the step writes are still this user's.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { containment } from './containment.ts';
import { hostSocketPaths } from './host-sockets.ts';
import { whichOnPath } from './run-briefly.ts';

export interface Isolation {
  /** `unshare` and the user-namespace flags this user needs; undefined where namespaces are unavailable. */
  readonly unshare?: readonly string[];
  /** Whether a mount namespace holds a step's writes (WRITES_HELD worked here). */
  readonly writesHeld: boolean;
  /** What holds, in words for a line or a saved run. */
  readonly detail: string;
}

/** Brings the namespace's loopback up when `ip` is there (without it a tool reaches not even its own 127.0.0.1). */
const LOOPBACK_UP = 'command -v ip >/dev/null 2>&1 && ip link set lo up 2>/dev/null';

/** The size of the step's own /run: room for a PID file or a socket, not for data. */
const RUN_BYTES = 16 << 20;

/**
 * Run in a new mount namespace as `sh -c WRITES_HELD sh <bytes> <n> <writable…> <m>
 * <scratch…> <k> <socket…> <command…>`: every mount read-only; /dev/shm a tmpfs of the
 * step's own of `bytes` holding the upper layers of overlays on /tmp and on each
 * scratch folder; /run (and /var/run where it is no link) an empty tmpfs of RUN_BYTES, so
 * the host's socket files there (a container daemon's, a session bus) are
 * not in the step's tree, as a read-only mount does not stop a connect; the
 * user's home seen through a read-only overlay (its files read, its socket
 * files, an agent's or a container daemon's, refusing a connect as /tmp's
 * do), unless a mount lies beneath it, which the overlay would hide; every
 * other socket file the host's processes bound (host-sockets.ts: under
 * /var/lib, /srv, a home with a mount beneath it) covered by /dev/null,
 * where a connect is refused; then
 * each writable folder bound over what the step sees, and each scratch
 * folder's overlay laid, from a descriptor opened before anything was
 * covered (mount's --no-canonicalize keeps /proc/self/fd/N the folder it was
 * opened on, not its path looked up again under an overlay; an overlay's
 * lower layer read through it is the folder itself, not an overlay on an
 * overlay, which the kernel allows only two deep); and the XDG base folders
 * (config, cache, data, state) set in the step's /tmp: a tool that keeps its
 * logs or settings there (wrangler's ~/.config/.wrangler, Next.js's) writes
 * them and they are dropped, where the read-only home would fail it.
 */
const WRITES_HELD = String.raw`set -e
here=$(pwd -P)
fd=3
bytes=$1; shift
n=$1; shift
i=0
while [ $i -lt $n ]; do eval "exec $fd<\"\$1\"; w$i=\$1"; fd=$((fd + 1)); i=$((i + 1)); shift; done
m=$1; shift
i=0
while [ $i -lt $m ]; do if [ -d "$1" ]; then eval "exec $fd<\"\$1\"; s$i=\$1"; else eval "s$i="; fi; fd=$((fd + 1)); i=$((i + 1)); shift; done
while read -r _ _ _ _ at _; do mount -o remount,bind,ro "$(printf '%b' "$at")" 2>/dev/null || :; done < /proc/self/mountinfo
mount -t tmpfs -o mode=1777,size=$bytes rtbench-step /dev/shm
layer() { mkdir -p "/dev/shm/.rtbench/$2/upper" "/dev/shm/.rtbench/$2/work"; mount -t overlay rtbench-step -o "lowerdir=$3,upperdir=/dev/shm/.rtbench/$2/upper,workdir=/dev/shm/.rtbench/$2/work" "$1"; }
layer /tmp tmp /tmp
for d in /run /var/run; do [ -d "$d" ] && [ ! -L "$d" ] && mount -t tmpfs -o mode=755,size=${RUN_BYTES} rtbench-step "$d"; done
if [ -d "$HOME" ] && [ ! -L "$HOME" ] && [ "$HOME" != / ] && ! awk -v d="$HOME/" 'index($5, d) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
  mkdir -p /dev/shm/.rtbench/empty
  mount -t overlay rtbench-step -o "lowerdir=$HOME:/dev/shm/.rtbench/empty" "$HOME" || :
fi
k=$1; shift
i=0
while [ $i -lt $k ]; do if [ -S "$1" ]; then mount --bind /dev/null "$1" 2>/dev/null || :; fi; i=$((i + 1)); shift; done
i=0; fd=3
while [ $i -lt $n ]; do
  eval "w=\$w$i"
  mkdir -p "$w"
  mount --no-canonicalize --bind "/proc/self/fd/$fd" "$w"
  mount -o remount,bind,rw "$w"
  eval "exec $fd<&-"
  fd=$((fd + 1)); i=$((i + 1))
done
i=0
while [ $i -lt $m ]; do
  eval "s=\$s$i"
  if [ -n "$s" ]; then layer "$s" "s$i" "/proc/self/fd/$fd"; eval "exec $fd<&-"; fi
  fd=$((fd + 1)); i=$((i + 1))
done
mkdir -p /tmp/.rtbench-step/config /tmp/.rtbench-step/cache /tmp/.rtbench-step/data /tmp/.rtbench-step/state
export XDG_CONFIG_HOME=/tmp/.rtbench-step/config XDG_CACHE_HOME=/tmp/.rtbench-step/cache XDG_DATA_HOME=/tmp/.rtbench-step/data XDG_STATE_HOME=/tmp/.rtbench-step/state
cd "$here"
exec "$@"`;

let probed: Isolation | undefined;

/** Tries the namespaces once per CLI: as root they need no user namespace; as another user they do, where the system allows it. */
export function isolation(): Isolation {
  probed ??= probe();
  return probed;
}

const WITHOUT = "a build step has the host's network and may write wherever this user may, and its processes are ended through its cell";

function probe(): Isolation {
  if (process.platform !== 'linux') return { writesHeld: false, detail: `no namespaces on ${process.platform}: ${WITHOUT}` };
  const unshare = whichOnPath('unshare');
  if (!unshare) return { writesHeld: false, detail: `no unshare (util-linux) on PATH: ${WITHOUT}` };
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  const base = [unshare, ...user];
  const tried = trial([...base, '--net', ...PID, 'true']);
  if (tried) return { writesHeld: false, detail: `namespaces unavailable to this user (unshare: ${tried}): ${WITHOUT}` };
  const through = user.length ? ', through a user namespace' : '';
  const mounts = trial([...base, '--mount', ...PID, 'sh', '-c', WRITES_HELD, 'sh', String(1 << 20), '0', '0', '0', 'true']);
  if (mounts) return { unshare: base, writesHeld: false, detail: `each build step in a network namespace of its own (its own loopback only) and a PID namespace ended with it${through}; its writes are not held (a mount namespace failed: ${mounts})` };
  return {
    unshare: base,
    writesHeld: true,
    detail: `each build step in a network namespace of its own (its own loopback only), a PID namespace ended with it, and a mount namespace where it writes only its build folder (its /tmp and node_modules' writes dropped)${through}`,
  };
}

const PID = ['--pid', '--fork', '--kill-child'];

/** Why a probing command line failed (its last line of stderr), or undefined when it ran. */
function trial(line: readonly string[]): string | undefined {
  const r = spawnSync(line[0]!, line.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return undefined;
  return (r.stderr ?? '').trim().split('\n').at(-1) || r.error?.message || `exit ${r.status}`;
}

/** The command line a step runs as: the namespaces it is held in, then its own. */
function stepLine(command: string, args: readonly string[], options: Pick<ContainedStepOptions, 'network' | 'writable' | 'scratch' | 'writeBytes'>): string[] {
  const { unshare, writesHeld } = isolation();
  if (!unshare) return [command, ...args];
  const held = writesHeld && options.writable !== undefined;
  const namespaces = [...unshare, ...(options.network ? [] : ['--net']), ...(held ? ['--mount'] : []), ...PID];
  const sockets = held ? hostSocketPaths(options.writable!) : [];
  const writes = held ? ['sh', '-c', WRITES_HELD, 'sh', String(options.writeBytes ?? SCRATCH_BYTES), String(options.writable!.length), ...options.writable!, String(options.scratch?.length ?? 0), ...(options.scratch ?? []), String(sockets.length), ...sockets] : [];
  const loopback = options.network ? [] : ['sh', '-c', `${LOOPBACK_UP}; "$@"`, 'sh'];
  return [...namespaces, ...writes, ...loopback, command, ...args];
}

export interface ContainedStepOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Where what is kept of its stdout and stderr goes (a file: STEP_OUTPUT_KEPT of it, however much it prints). */
  readonly outputFd: number;
  readonly timeoutMs: number;
  /** Whether the step may reach the network (an install from the registry); a build may not. */
  readonly network: boolean;
  /** The only folders the step may write (absent: wherever its user may). */
  readonly writable?: readonly string[];
  /** Folders the step may seem to write, its writes dropped when it ends (with `writable` only). */
  readonly scratch?: readonly string[];
  /**
   * How many bytes the step may add to its `writable` folders before it is stopped (checked every
   * second, so a fast writer passes it by what it writes in a second), and the size of the tmpfs its
   * /tmp and `scratch` writes land in (a write past it fails with ENOSPC); absent: no bound on the
   * folders, and a tmpfs of SCRATCH_BYTES.
   */
  readonly writeBytes?: number;
}

export interface ContainedStepResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The step was ended at its time bound. */
  readonly timedOut: boolean;
  /** Bytes of its output left out between the head and the tail kept (STEP_OUTPUT_KEPT); 0 when all of it was kept. */
  readonly droppedBytes: number;
  /** It was stopped for adding more than `writeBytes` to its writable folders: how many it had added. */
  readonly overWrites?: number;
  /** It could not be started. */
  readonly error?: Error;
}

/**
 * What of a step's output its log keeps: its first and last MiB; what lies
 * between is dropped, and the log says how much where it was (a build that
 * prints without end would fill the disk by its time bound).
 */
export const STEP_OUTPUT_KEPT = { headBytes: 1 << 20, tailBytes: 1 << 20 } as const;

/** The size of a step's scratch tmpfs without a bound of its own (tmpfs's default is half the machine's memory). */
const SCRATCH_BYTES = 1 << 30;

/** What the keeper is told: the output it keeps, the time bound, and the folders it watches with their bound. */
function keeperSettings(options: ContainedStepOptions): object {
  const watch = options.writable && options.writeBytes !== undefined ? { watch: { folders: options.writable, bytes: options.writeBytes } } : {};
  return { ...STEP_OUTPUT_KEPT, timeoutMs: options.timeoutMs, ...watch };
}

/** The keeper the step runs under, which bounds its output and its time (output-keeper.mjs). */
const KEEPER = fileURLToPath(new URL('./output-keeper.mjs', import.meta.url));

/** How long past the step's bound the keeper itself may take before it is ended too (its tail unwritten). */
const KEEPER_SLACK_MS = 10_000;

/** How the keeper says the step ended: its one line, or undefined when it said none (it was ended itself). */
function keeperSaid(stdout: string): Omit<ContainedStepResult, 'error'> | { error: string } | undefined {
  try {
    return JSON.parse(stdout) as ReturnType<typeof keeperSaid>;
  } catch {
    return undefined;
  }
}

/**
 * Runs `command args` to its end under isolation() and a cell, synchronously, its output through the keeper
 * into `outputFd` (the head and tail STEP_OUTPUT_KEPT); whatever it started is ended when it returns.
 */
export function runContainedStep(command: string, args: readonly string[], options: ContainedStepOptions): ContainedStepResult {
  const line = stepLine(command, args, options);
  const cell = containment().cell();
  try {
    const r = cell.around(() =>
      spawnSync(process.execPath, [KEEPER, JSON.stringify(keeperSettings(options)), ...line], {
        cwd: options.cwd,
        env: { ...options.env, ...cell.env },
        stdio: ['ignore', 'pipe', options.outputFd, options.outputFd],
        encoding: 'utf8',
        timeout: options.timeoutMs + KEEPER_SLACK_MS,
        killSignal: 'SIGKILL',
      }),
    );
    const said = keeperSaid(r.stdout ?? '');
    if (said && 'error' in said) return { status: null, signal: null, timedOut: false, droppedBytes: 0, error: new Error(said.error) };
    if (said) return said;
    const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
    return { status: r.status, signal: r.signal, timedOut, droppedBytes: 0, ...(r.error && !timedOut ? { error: r.error } : {}) };
  } finally {
    cell.end();
    cell.dispose();
  }
}
