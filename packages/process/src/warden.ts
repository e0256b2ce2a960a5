/**
 * The host's side of the warden (warden.mjs): children die with the host by
 * construction, not only on the signals the host handles. A handler can end
 * children on Ctrl-C or a normal exit (process.ts does), but nothing runs in
 * a host that is SIGKILLed or loses its terminal; the warden, in its own
 * session, sees the pipe from the host close and ends what it was told about.
 *
 * Messages go out as soon as a child has a PID (libuv writes to a pipe at
 * once when it can), so the window in which a host death could leave a child
 * is the few microseconds between fork and that write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { rmSync } from 'node:fs';

const WARDEN_SCRIPT = fileURLToPath(new URL('./warden.mjs', import.meta.url));

let warden: ChildProcess | undefined;
let failed = false;
/** Groups and directories the warden was told about and not yet released. */
const outstanding = new Set<string>();

// A host that exits with nothing outstanding ends its warden at once, rather
// than leaving it to notice the closed pipe a moment later.
process.once('exit', () => {
  if (warden && outstanding.size === 0) {
    try {
      warden.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

function tell(line: string): void {
  if (failed) return;
  if (!warden) {
    try {
      warden = spawn(process.execPath, [WARDEN_SCRIPT, tmpdir()], { stdio: ['pipe', 'ignore', 'ignore'], detached: true, env: {} });
    } catch {
      failed = true;
      return;
    }
    warden.on('error', () => {
      failed = true;
    });
    warden.stdin!.on('error', () => {
      failed = true;
    });
    // The warden must not keep the host alive; the host's exit is its cue.
    warden.unref();
    (warden.stdin as unknown as { unref?: () => void }).unref?.();
  }
  warden.stdin!.write(`${line}\n`);
}

/** Something the warden cleans up if the host dies; outstanding until released (a host with none ends its warden at exit). */
function guard(line: string): void {
  outstanding.add(line);
  tell(line);
}

function release(guarded: string, line: string): void {
  outstanding.delete(guarded);
  tell(line);
}

/** A process group this host leads: SIGKILLed if the host dies before it is released. */
export function guardGroup(pgid: number): void {
  guard(`group ${pgid}`);
}

export function releaseGroup(pgid: number): void {
  release(`group ${pgid}`, `ungroup ${pgid}`);
}

/** This host's cgroup (containment.ts): the warden ends every process in it and removes it when the host exits, however it exits. */
export function guardCgroup(path: string): void {
  guard(`cgroup ${path}`);
}

/** Without a cgroup: the warden ends every process carrying one of this host's cell markers when the host exits (containment.ts). */
export function guardCells(hostPid: number): void {
  guard(`cells ${hostPid}`);
}

/** A temporary directory (rtbench-… directly under tmpdir()): removed if the host dies before it is released. */
export function guardDir(path: string): void {
  guard(`dir ${path}`);
}

function releaseDir(path: string): void {
  release(`dir ${path}`, `undir ${path}`);
}

/** Removes a guarded directory and releases it: the warden has nothing left to clean there. */
export function removeGuardedDir(path: string): void {
  rmSync(path, { recursive: true, force: true });
  releaseDir(path);
}
