// The warden: a small process that each rtbench host starts once (warden.ts)
// so that the runtime processes it starts die with it, however it ends —
// Ctrl-C, a closed terminal, SIGKILL, a crash. The host tells it, one line at
// a time on its stdin, which process groups it started and which temporary
// directories it made, and when they are gone again:
//
//   group <pgid> | ungroup <pgid> | dir <path> | undir <path> | cgroup <path> | cells <host pid>
//
// When stdin closes (the host exited: the kernel closes the pipe whatever
// killed it), the warden SIGKILLs the groups still listed, ends every
// process in the host's cgroup (containment.ts) and removes it, or, without
// a cgroup, every process whose environment carries one of the host's cell
// markers (RTBENCH_CELL=<host pid>.<n>), removes the
// directories still listed, and exits. It knows nothing else, so it can only
// end what the host started. Plain JavaScript: it runs on the host's own node
// binary with no loader, in a few milliseconds.
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

const tempRoot = resolve(process.argv[2] ?? '/nonexistent');
const groups = new Set();
const dirs = new Set();
const cgroups = new Set();
let cellMarker;

/** SIGKILLs this user's processes whose environment carries a cell marker of the host (containment without a cgroup). */
function killMarked(marker) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (`\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}`.includes(marker)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // another user's, or gone
    }
  }
}

// It lives in its own session: no terminal signal reaches it, and none should stop it.
for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM', 'SIGPIPE']) process.on(signal, () => {});

/** Only rtbench's own directories directly under the temporary directory. */
function removable(path) {
  const full = resolve(path);
  return dirname(full) === tempRoot && basename(full).startsWith('rtbench-');
}

function handle(line) {
  const space = line.indexOf(' ');
  const verb = line.slice(0, space);
  const arg = line.slice(space + 1);
  if (verb === 'group' || verb === 'ungroup') {
    const pgid = Number(arg);
    if (!Number.isInteger(pgid) || pgid <= 1) return;
    if (verb === 'group') groups.add(pgid);
    else groups.delete(pgid);
  } else if (verb === 'dir' && removable(arg)) dirs.add(arg);
  else if (verb === 'undir') dirs.delete(arg);
  else if (verb === 'cells' && /^\d+$/.test(arg)) cellMarker = `\0RTBENCH_CELL=${arg}.`;
  else if (verb === 'cgroup' && basename(arg).startsWith('rtbench-') && existsSync(`${arg}/cgroup.kill`)) cgroups.add(arg);
}

/** Removes a host's cgroup and its cells once their processes have exited (rmdir fails while they exit). */
function removeCgroup(path, attempts) {
  try {
    for (const entry of readdirSync(path, { withFileTypes: true })) if (entry.isDirectory()) rmdirSync(`${path}/${entry.name}`);
    rmdirSync(path);
    return true;
  } catch (error) {
    return error.code === 'ENOENT' || attempts <= 0;
  }
}

let done = false;
function cleanUp() {
  if (done) return;
  done = true;
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  }
  if (cellMarker) killMarked(cellMarker);
  for (const path of cgroups) {
    try {
      writeFileSync(`${path}/cgroup.kill`, '1');
    } catch {
      // already removed
    }
  }
  // Give the killed processes a moment to release their files.
  setTimeout(() => {
    for (const dir of dirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // nothing more to do
      }
    }
    let attempts = 50;
    const removeCgroups = () => {
      for (const path of cgroups) if (removeCgroup(path, attempts)) cgroups.delete(path);
      if (cgroups.size && attempts-- > 0) setTimeout(removeCgroups, 20);
      else process.exit(0);
    };
    removeCgroups();
  }, groups.size || cgroups.size ? 100 : 0);
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
    handle(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
  }
});
process.stdin.on('end', cleanUp);
process.stdin.on('close', cleanUp);
process.stdin.on('error', cleanUp);
