// In-runtime probe for docs/measurements/two-speed-noise.md. Plain JavaScript so that node,
// deno and bun run it as it is: `node probe.mjs <seconds>`.
//
// It repeats one "window" until the time is up and prints one JSON line per
// window at the end (printing while measuring would disturb the measurement):
//   parseUs  JSON.parse of an ~8 KB array of objects with (k, v) => v, µs per parse
//            (a batch of ~1 ms: the workload that shows two speeds)
//   l3Ns     a random pointer chase over 6 MB (beyond L2, within L3), ns per access
//   l2Ns     the same over 256 KB (inside the core's private L2)
//   intNs    an integer loop, ns per iteration (CPU speed / vCPU steal, no memory)
//   gcs      GC events that started in the window (node only: PerformanceObserver)
//   heapMB   V8 used heap at the end of the window (node and deno)
//   stealMs  cumulative steal time of the machine from /proc/stat (node only, every 10th window)
//   ictx     involuntary context switches of this process since the previous window (node only)
//   cpu      the CPU the process was on at the end of the window (node only, /proc/self/stat)
// Each canary runs for ~0.1-0.2 ms between two parse batches, i.e. the way a
// canary between samples inside the harness would.

const now = typeof process !== 'undefined' && process.hrtime ? () => Number(process.hrtime.bigint()) / 1e6 : () => performance.now();
const seconds = Number((typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2))[0] ?? 15);

// ~8 KB of JSON: 80 objects with a few fields each (seeded, no Math.random).
let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const doc = JSON.stringify(
  Array.from({ length: 80 }, (_, i) => ({ id: i, name: `item-${i}-${Math.floor(rnd() * 1e6)}`, tags: ['a', 'b', String(i % 7)], price: Math.round(rnd() * 1e4) / 100, ok: i % 3 === 0 })),
);
const reviver = (k, v) => v;

// A random cyclic permutation: each load depends on the previous one, so the
// time per step is the memory latency of that working set.
function makeChase(bytes) {
  const n = bytes >> 2;
  const order = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) next[order[i]] = order[(i + 1) % n];
  return next;
}
const l3 = makeChase(6 << 20);
const l2 = makeChase(256 << 10);
let sink = 0;
function chase(next, steps) {
  let p = 0;
  for (let i = 0; i < steps; i++) p = next[p];
  sink ^= p;
}
function intLoop(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s = (s + Math.imul(i, 2654435761)) | 0;
  sink ^= s;
}
function timed(fn, perUnit) {
  const t0 = now();
  fn();
  return ((now() - t0) * 1e6) / perUnit; // ns per unit
}

// GC entries arrive only when the event loop turns, so their start times
// (performance.now() scale) are kept and matched to windows at the end.
const gcStarts = [];
try {
  const { PerformanceObserver } = await import('node:perf_hooks');
  if (typeof Bun === 'undefined' && typeof Deno === 'undefined') {
    new PerformanceObserver((list) => list.getEntries().forEach((e) => gcStarts.push(e.startTime))).observe({ entryTypes: ['gc'] });
  }
} catch {}
let heapUsed = () => 0;
try {
  const v8 = await import('node:v8');
  if (typeof Bun === 'undefined') heapUsed = () => v8.getHeapStatistics().used_heap_size / 2 ** 20;
} catch {}
let steal = () => undefined;
try {
  const fs = await import('node:fs');
  if (typeof Bun === 'undefined' && typeof Deno === 'undefined') {
    // /proc/stat: "cpu user nice system idle iowait irq softirq steal ..." in USER_HZ (10 ms) ticks.
    steal = () => Number(fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)[8]) * 10;
  }
} catch {}

let involuntary = () => 0;
let cpuNow = () => -1;
if (typeof process !== 'undefined' && process.resourceUsage && typeof Bun === 'undefined' && typeof Deno === 'undefined') {
  involuntary = () => process.resourceUsage().involuntaryContextSwitches;
  const fs = await import('node:fs');
  // Field 39 of /proc/self/stat, counted after the ")" that ends the command name.
  cpuNow = () => Number(fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[36]);
}

// Warm up every piece in the window-sized calls the loop makes, for ~0.5 s,
// then pause: with the process pinned to one CPU the optimizing compiler's
// background thread shares that CPU, and a short warmup left the integer loop
// unoptimized for seconds (6.5 instead of 0.4 ns per iteration).
for (const warmEnd = now() + 500; now() < warmEnd; ) {
  for (let i = 0; i < 6; i++) JSON.parse(doc, reviver);
  chase(l3, 2000);
  chase(l2, 2000);
  intLoop(20000);
}
await new Promise((r) => setTimeout(r, 100));

const parses = 6; // ~1 ms in the fast state
const windows = [];
const start = now();
const end = start + seconds * 1000;
let w = 0;
let lastIctx = involuntary();
while (now() < end) {
  const t = now() - start;
  const tp = performance.now();
  const parseUs = timed(() => {
    for (let i = 0; i < parses; i++) sink ^= JSON.parse(doc, reviver).length;
  }, parses) / 1e3;
  const l3Ns = timed(() => chase(l3, 2000), 2000);
  const l2Ns = timed(() => chase(l2, 2000), 2000);
  const intNs = timed(() => intLoop(20000), 20000);
  const row = { t: Math.round(t * 1000) / 1000, parseUs, l3Ns, l2Ns, intNs, tp, gcs: 0, heapMB: Math.round(heapUsed() * 10) / 10 };
  const ictx = involuntary();
  row.ictx = ictx - lastIctx;
  lastIctx = ictx;
  row.cpu = cpuNow();
  if (w++ % 10 === 0) row.stealMs = steal();
  windows.push(row);
  // Let the GC observer's callbacks run now and then (they need the event loop).
  if (w % 50 === 0) await new Promise((r) => setTimeout(r, 0));
}
await new Promise((r) => setTimeout(r, 10)); // deliver the last GC entries
for (const g of gcStarts) {
  let i = windows.length - 1;
  while (i > 0 && windows[i].tp > g) i--;
  if (g >= windows[0].tp) windows[i].gcs++;
}
const out = windows.map((r) => JSON.stringify(r)).join('\n') + '\n';
if (typeof Deno !== 'undefined') await Deno.stdout.write(new TextEncoder().encode(out));
else process.stdout.write(out);
if (sink === 0.5) console.log(sink); // keep `sink` observable
