// The warden: a small process that each rtbench host starts once (warden.ts)
// so that the runtime processes it starts die with it, however it ends —
// Ctrl-C, a closed terminal, SIGKILL, a crash. The host tells it, one line at
// a time on its stdin, which process groups it started and which temporary
// directories it made, and when they are gone again:
//
//   group <pgid> | ungroup <pgid> | dir <path> | undir <path>
//
// When stdin closes (the host exited: the kernel closes the pipe whatever
// killed it), the warden SIGKILLs the groups still listed, removes the
// directories still listed, and exits. It knows nothing else, so it can only
// end what the host started. Plain JavaScript: it runs on the host's own node
// binary with no loader, in a few milliseconds.
import { rmSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

const tempRoot = resolve(process.argv[2] ?? '/nonexistent');
const groups = new Set();
const dirs = new Set();

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
  // Give the killed processes a moment to release their files.
  setTimeout(() => {
    for (const dir of dirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // nothing more to do
      }
    }
    process.exit(0);
  }, groups.size ? 100 : 0);
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
