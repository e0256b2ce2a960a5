// Whether lockstep's waits make a sample dearer (docs/how-a-number-is-made.md, "Against a long loop"): one process
// times batches of ~8 ms of a case in four modes taken in turn, block by block, and prints per mode the median
// main-thread CPU per call (Linux schedstat: a neighbour's preemption does not count), and every thread's CPU per
// timed call (the block's, less the main thread's pre-batches). Modes: loop (batches back to back, as a long loop),
// wait0 (an idle wait of three batches before each), waitQ (the wait, then an untimed quarter batch, as lockstep),
// waitF (the wait, then a whole untimed batch).
//   <runtime> scripts/long-loop-check/waits.mjs [encode|encodeInto|csv] [ms=6000] [batch ms=8]   (deno: deno run -A …)
import { readFileSync, readdirSync } from 'node:fs';

const argv = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const [kase = 'encode', totalMsText = '6000', batchMsText = '8'] = argv;
const encoder = new TextEncoder();
const input = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(8).slice(0, 256);
const line = Array.from({ length: 24 }, (_, i) => `field${i}`).join(',');
const into = new Uint8Array(1024);
const ring = new Array(8);
const cases = {
  encode: () => encoder.encode(input),
  encodeInto: () => encoder.encodeInto(input, into).written,
  csv: () => line.split(',').map((field, i) => ({ field, i, upper: field.toUpperCase() })),
};
const fn = cases[kase];
if (!fn) throw new Error(`no case ${kase}: encode, encodeInto or csv`);
const batch = (n) => {
  for (let i = 0; i < n; i++) ring[i & 7] = fn();
};
const cpuOf = (path) => Number(readFileSync(path, 'utf8').split(' ')[0]);
const mainCpu = () => cpuOf('/proc/thread-self/schedstat');
const allCpu = () => readdirSync('/proc/self/task').reduce((sum, t) => {
  try {
    return sum + cpuOf(`/proc/self/task/${t}/schedstat`);
  } catch {
    return sum; // a thread that ended between the listing and the read
  }
}, 0);
const idle = new Int32Array(new SharedArrayBuffer(4));
const batchMs = Number(batchMsText);
// Half a second of warmup, growing the batch; then sized to batchMs from the median of five.
let n = 100;
const warmFrom = performance.now();
while (performance.now() - warmFrom < 500) {
  const a = mainCpu();
  batch(n);
  if ((mainCpu() - a) / 1e6 < batchMs / 2) n *= 2;
}
const five = [];
for (let i = 0; i < 5; i++) {
  const a = mainCpu();
  batch(n);
  five.push((mainCpu() - a) / 1e6);
}
n = Math.max(1, Math.round((n * batchMs) / five.sort((x, y) => x - y)[2]));
const modes = ['loop', 'wait0', 'waitQ', 'waitF'];
const perCall = Object.fromEntries(modes.map((m) => [m, []]));
const blocks = Object.fromEntries(modes.map((m) => [m, { allNs: 0, calls: 0 }]));
const started = performance.now();
for (let block = 0; performance.now() - started < Number(totalMsText); block++) {
  const mode = modes[block % modes.length];
  const all0 = allCpu();
  let untimed = 0;
  for (let b = 0; b < 9; b++) {
    if (mode !== 'loop') Atomics.wait(idle, 0, 0, 3 * batchMs);
    const u = mainCpu();
    if (mode === 'waitQ') batch(n >> 2);
    if (mode === 'waitF') batch(n);
    const a = mainCpu();
    untimed += a - u;
    batch(n);
    perCall[mode].push((mainCpu() - a) / n);
  }
  blocks[mode].allNs += allCpu() - all0 - untimed;
  blocks[mode].calls += 9 * n;
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
console.log(`${kase}, batches of ${n} calls: main-thread CPU per call (median) ${modes.map((m) => `${m} ${median(perCall[m]).toFixed(1)} ns`).join(', ')}; every thread per timed call ${modes.map((m) => `${m} ${(blocks[m].allNs / blocks[m].calls).toFixed(1)} ns`).join(', ')}`);
