/**
 * Is the slow state the cost of sharing the CPU? The probe (node@26, not
 * pinned, as the harness runs it) records per window the involuntary context
 * switches of its process and the CPU it is on. This prints the parse time
 * and the canaries by how many windows (~1.3 ms each) have passed since the
 * process was last switched out or moved to the other CPU. If the slow state
 * is cache and TLB refill after another thread ran on the core, parse times
 * are slow right after a switch and recover within a few windows; if it is
 * pressure from outside the core (the other vCPU, other tenants on the host's
 * last-level cache or memory), they do not depend on the distance.
 *
 *   npx tsx scripts/noise/switches.ts [seconds=20] [cpu]   (cpu: pin to one CPU)
 */
import { writeFileSync } from 'node:fs';
import { detectModes } from '../../packages/stats/src/index.ts';
import { f, loadavg, median, runProbe, spearman, type Window } from './lib.ts';

const seconds = Number(process.argv[2] ?? 20);
const cpu = process.argv[3] === undefined ? undefined : Number(process.argv[3]);

type Row = Window & { ictx: number; cpu: number };

console.log(`switches: ${seconds} s, node@26${cpu === undefined ? '' : ` pinned to CPU ${cpu}`}; ${new Date().toISOString()}; load average before: ${loadavg()}`);
const w = (await runProbe('node', seconds, cpu)) as Row[];
console.log(`load average after: ${loadavg()}; ${w.length} windows`);

// Windows since the last disturbance: a switch during the window counts as distance 0.
const since: number[] = [];
let last = -1e9;
for (let i = 0; i < w.length; i++) {
  const moved = i > 0 && w[i]!.cpu !== w[i - 1]!.cpu;
  if (w[i]!.ictx > 0 || moved) last = i;
  since.push(i - last);
}
const buckets: [string, (d: number) => boolean][] = [
  ['0 (switched during the window)', (d) => d === 0],
  ['1', (d) => d === 1],
  ['2', (d) => d === 2],
  ['3–5', (d) => d >= 3 && d <= 5],
  ['6–20', (d) => d >= 6 && d <= 20],
  ['21–100', (d) => d >= 21 && d <= 100],
  ['> 100', (d) => d > 100],
];
const switches = w.reduce((a, x) => a + x.ictx, 0);
const migrations = w.filter((x, i) => i > 0 && x.cpu !== w[i - 1]!.cpu).length;
console.log(`involuntary context switches: ${switches} (${f(switches / seconds)} /s); moves between CPUs: ${migrations}`);
console.log('| windows since last switch-out or move | windows | parse µs (median) | L3 walk ns | L2 walk ns |');
console.log('|---|--:|--:|--:|--:|');
for (const [label, sel] of buckets) {
  const rows = w.filter((_, i) => sel(since[i]!));
  if (!rows.length) continue;
  console.log(`| ${label} | ${rows.length} | ${f(median(rows.map((r) => r.parseUs)))} | ${f(median(rows.map((r) => r.l3Ns)))} | ${f(median(rows.map((r) => r.l2Ns)), 2)} |`);
}
// Among windows no switch or move touched (distance >= 2): still two speeds?
const calm = w.filter((_, i) => since[i]! >= 2);
if (calm.length >= 6) {
  const m = detectModes(calm.map((r) => r.parseUs), { minShare: 0.05 });
  console.log(`undisturbed windows (distance >= 2): ${calm.length}; parse modes: ${m.modes.map((x) => `${f(x.center)} µs ×${x.count}`).join(', ')}`);
  if (m.modes.length > 1) {
    const cut = Math.sqrt(m.modes[0]!.high * m.modes[1]!.low);
    const slowCalm = calm.filter((r) => r.parseUs > cut);
    const fastCalm = calm.filter((r) => r.parseUs <= cut);
    console.log(`  in their slow mode: L3 ${f(median(slowCalm.map((r) => r.l3Ns)))} ns, L2 ${f(median(slowCalm.map((r) => r.l2Ns)), 2)} ns, int ${f(median(slowCalm.map((r) => r.intNs)), 3)} ns; fast mode: L3 ${f(median(fastCalm.map((r) => r.l3Ns)))}, L2 ${f(median(fastCalm.map((r) => r.l2Ns)), 2)}, int ${f(median(fastCalm.map((r) => r.intNs)), 3)}`);
  }
}
if (process.env.NOISE_DUMP) writeFileSync(process.env.NOISE_DUMP, JSON.stringify(w));
// Per 250 ms: do slow stretches coincide with many switches?
const perBlock: { parse: number; switches: number }[] = [];
for (let t0 = 0; t0 < w[w.length - 1]!.t; t0 += 250) {
  const rows = w.filter((x) => x.t >= t0 && x.t < t0 + 250);
  if (rows.length) perBlock.push({ parse: median(rows.map((r) => r.parseUs)), switches: rows.reduce((a, r) => a + r.ictx, 0) });
}
console.log(
  `per 250 ms: Spearman(parse median, switches) = ${f(
    spearman(
      perBlock.map((b) => b.parse),
      perBlock.map((b) => b.switches),
    ),
    2,
  )}; first 24 blocks (µs/switches): ${perBlock
    .slice(0, 24)
    .map((b) => `${f(b.parse, 0)}/${b.switches}`)
    .join(' ')}`,
);
