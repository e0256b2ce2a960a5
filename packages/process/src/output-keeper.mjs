// The output keeper: runs a contained step (contained-step.ts) with its
// stdout and stderr through a pipe and writes to descriptor 3 (the step's
// log) what BoundedOutput keeps of them, so a step that prints without end
// fills neither the disk nor memory. It ends the step at its time bound
// itself, so the tail is written however the step ends. Its one line on
// stdout says how: {"status","signal","timedOut","droppedBytes"}, or
// {"error"} when the step could not be started.
//
//   node output-keeper.mjs <headBytes> <tailBytes> <timeoutMs> <command> [args…]
//
// Plain JavaScript: it runs on the host's own node binary with no loader.
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import { BoundedOutput } from './bounded-output.mjs';

const LOG = 3;
/** After the step exits, how long a process it left holding its output (without a PID namespace) may keep it open. */
const AFTER_EXIT_MS = 1000;

const [headBytes, tailBytes, timeoutMs] = process.argv.slice(2, 5).map(Number);
const [command, ...args] = process.argv.slice(5);
const kept = new BoundedOutput(headBytes, tailBytes);

/** @param {Buffer} bytes */
function write(bytes) {
  for (let at = 0; at < bytes.length; ) at += writeSync(LOG, bytes, at);
}

let timedOut = false;
let told = false;
let open = 2;
/** @type {{ status: number | null, signal: string | null } | undefined} */
let exit;
const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
const bound = setTimeout(() => {
  timedOut = true;
  child.kill('SIGKILL');
}, timeoutMs);

function finish() {
  if (told || open > 0 || exit === undefined) return;
  told = true;
  clearTimeout(bound);
  write(kept.end());
  process.stdout.write(`${JSON.stringify({ ...exit, timedOut, droppedBytes: kept.dropped })}\n`);
}

child.on('error', (error) => {
  if (told) return;
  told = true;
  clearTimeout(bound);
  process.stdout.write(`${JSON.stringify({ error: error.message })}\n`, () => process.exit(0));
});
for (const stream of [child.stdout, child.stderr]) {
  stream.on('data', (chunk) => write(kept.add(chunk)));
  stream.on('close', () => {
    open--;
    finish();
  });
}
child.on('exit', (status, signal) => {
  exit = { status, signal };
  setTimeout(() => {
    child.stdout.destroy();
    child.stderr.destroy();
  }, AFTER_EXIT_MS).unref();
  finish();
});
