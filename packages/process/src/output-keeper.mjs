// The output keeper: runs a contained step (contained-step.ts) with its
// stdout and stderr on a file of its own and writes to descriptor 3 (the
// step's log) what BoundedOutput keeps of them, so a step that prints without
// end fills neither the disk nor memory. A file, not a pipe: a tool's writes
// to a file are done when its write returns, where those to a full pipe may
// wait in the tool (node queues them) and be lost when it exits at once
// (`process.exit` after a flood), its last line with them. The file is
// unlinked as it is opened and read as it grows; the blocks already read are
// given back to the filesystem (fallocate --punch-hole) every GIVE_BACK_BYTES,
// so the disk holds at most about that much of it. It ends the step at its
// time bound itself, and when the folders it watches have grown by more than
// their bound (checked every WATCH_MS), so the tail is written however the
// step ends. Its one line on stdout says how:
// {"status","signal","timedOut","droppedBytes","overWrites"?}, or {"error"}
// when the step could not be started.
//
//   node output-keeper.mjs <settings as JSON> <command> [args…]
//   settings: { headBytes, tailBytes, timeoutMs, watch: { folders, bytes }? }
//
// Plain JavaScript: it runs on the host's own node binary with no loader.
import { spawn, spawnSync } from 'node:child_process';
import { fstatSync, lstatSync, mkdtempSync, openSync, readdirSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BoundedOutput } from './bounded-output.mjs';

const LOG = 3;
/** How often the output file is looked at when it had nothing new. */
const POLL_MS = 25;
/** At most this much is read between two turns of the event loop (the step's exit and its bounds are heard meanwhile). */
const READ_PER_TURN = 16 << 20;
/** Read output is given back to the filesystem once this much of it has gathered. */
const GIVE_BACK_BYTES = 16 << 20;
/** How often the watched folders' size is taken. */
const WATCH_MS = 1000;

const settings = JSON.parse(process.argv[2]);
const [command, ...args] = process.argv.slice(3);
const kept = new BoundedOutput(settings.headBytes, settings.tailBytes);

/** @param {Buffer} bytes */
function write(bytes) {
  for (let at = 0; at < bytes.length; ) at += writeSync(LOG, bytes, at);
}

const where = mkdtempSync(join(tmpdir(), 'rtbench-step-output-'));
const output = openSync(join(where, 'output'), 'a+', 0o600);
unlinkSync(join(where, 'output'));
rmdirSync(where);

/** Bytes of the output file read so far, and before which its blocks were given back. */
let read = 0;
let givenBack = 0;
let canGiveBack = true;
const buffer = Buffer.allocUnsafe(1 << 20);

/** Reads what the step added to its output, up to `limit` bytes; returns how much it read. */
function readOutput(limit) {
  let got = 0;
  for (let n; got < limit && (n = readSync(output, buffer, 0, Math.min(buffer.length, limit - got), read)) > 0; ) {
    // A copy: the tail holds what it is given, and the buffer is read into again.
    write(kept.add(Buffer.from(buffer.subarray(0, n))));
    read += n;
    got += n;
  }
  if (canGiveBack && read - givenBack >= GIVE_BACK_BYTES) {
    const to = read - (read % 4096);
    const r = spawnSync('fallocate', ['--punch-hole', '--offset', String(givenBack), '--length', String(to - givenBack), `/proc/${process.pid}/fd/${output}`], { stdio: 'ignore' });
    if (r.status === 0) givenBack = to;
    else canGiveBack = false;
  }
  return got;
}

/** The disk a folder's files take, links not followed (a link to the app's node_modules is the link's own block); 0 for one that is gone. */
function folderBytes(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  let bytes = 0;
  for (const entry of entries) {
    const path = join(folder, entry.name);
    try {
      bytes += lstatSync(path).blocks * 512;
    } catch {
      // Removed since the folder was listed.
    }
    if (entry.isDirectory()) bytes += folderBytes(path);
  }
  return bytes;
}
const watchedBytes = () => (settings.watch?.folders ?? []).reduce((sum, folder) => sum + folderBytes(folder), 0);

let timedOut = false;
/** Bytes the watched folders had grown by when the step was stopped for it. */
let overWrites;
let told = false;
const before = watchedBytes();
const child = spawn(command, args, { stdio: ['ignore', output, output] });
const bound = setTimeout(() => {
  timedOut = true;
  child.kill('SIGKILL');
}, settings.timeoutMs);
const watch = settings.watch
  ? setInterval(() => {
      const grown = watchedBytes() - before;
      if (grown <= settings.watch.bytes || overWrites !== undefined) return;
      overWrites = grown;
      child.kill('SIGKILL');
    }, WATCH_MS)
  : undefined;

function stop() {
  told = true;
  clearTimeout(bound);
  clearInterval(watch);
  clearTimeout(poll);
}

let poll = setTimeout(function reading() {
  poll = setTimeout(reading, readOutput(READ_PER_TURN) === READ_PER_TURN ? 0 : POLL_MS);
}, POLL_MS);

child.on('error', (error) => {
  if (told) return;
  stop();
  process.stdout.write(`${JSON.stringify({ error: error.message })}\n`, () => process.exit(0));
});
child.on('exit', (status, signal) => {
  if (told) return;
  stop();
  // Whatever it wrote before it exited; a process it left (without a PID namespace) that writes on is not waited for.
  const end = fstatSync(output).size;
  readOutput(Math.max(0, end - read));
  write(kept.end());
  process.stdout.write(`${JSON.stringify({ status, signal, timedOut, droppedBytes: kept.dropped, ...(overWrites === undefined ? {} : { overWrites }) })}\n`);
});
