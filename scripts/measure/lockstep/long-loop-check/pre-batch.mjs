// One mode of scripts/measure/lockstep/long-loop-check/pre-batch.ts, in a process of its own: a case called in batches of
// `batch` calls, each after an idle wait of `wait` ms and an untimed pre-batch of `pre` batches (a lockstep
// sample's shape; wait 0 and pre 0: batches back to back, as a long loop). Prints one JSON line: the time
// per timed call (the timed batches only, as a sample reads it: take it on a quiet machine) and every
// thread's CPU per call over all calls (process.cpuUsage: what the engine's helper threads add).
//   <runtime> scripts/measure/lockstep/long-loop-check/pre-batch.mjs <encode|encodeInto|csv> <calls> <batch> <wait ms> <pre>
import process from 'node:process';

const [kase, callsText, batchText, waitText, preText] = process.argv.slice(2);
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
// Every thread's: the process's user and system time (µs).
const allCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};
const idle = new Int32Array(new SharedArrayBuffer(4));
const calls = Number(callsText);
const n = Number(batchText);
const wait = Number(waitText);
const pre = Math.round(Number(preText) * n);
batch(n);
let timedNs = 0;
let timedCalls = 0;
const all0 = allCpu();
while (timedCalls < calls) {
  if (wait > 0) Atomics.wait(idle, 0, 0, wait);
  if (pre > 0) batch(pre);
  const a = performance.now();
  batch(n);
  timedNs += (performance.now() - a) * 1e6;
  timedCalls += n;
}
const allCalls = timedCalls + (pre * timedCalls) / n;
console.log(JSON.stringify({ perTimedCall: timedNs / timedCalls, allThreadsPerCall: (allCpu() - all0) / allCalls }));
