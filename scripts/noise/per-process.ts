/**
 * Can the host tell a slow process from outside? Runs the probe (node@26) as
 * many short processes, like the harness's rounds, and relates each
 * process's median parse time to what a host could read without touching the
 * runtime: the process's involuntary context switches per second (the host
 * can read them from /proc/<pid>/status), and to the in-runtime L3 canary.
 *
 *   npx tsx scripts/noise/per-process.ts [processes=16] [seconds=0.5] [node flags]
 *
 * With node flags (e.g. "--single-threaded"), processes alternate between
 * plain node and node with the flags, and the two groups are compared.
 */
import { f, loadavg, median, runProbe, spearman } from './lib.ts';

const processes = Number(process.argv[2] ?? 16);
const seconds = Number(process.argv[3] ?? 0.5);
const flags = process.argv[4] ? process.argv[4].split(' ') : undefined;

type Row = { parseUs: number; l3Ns: number; ictx: number; t: number };
console.log(`per-process: ${processes} processes x ${seconds} s, node@26; ${new Date().toISOString()}; load average before: ${loadavg()}`);
const rows: { parse: number; calmParse: number; switchesPerS: number; l3: number; flagged: boolean }[] = [];
for (let i = 0; i < processes; i++) {
  const flagged = flags !== undefined && i % 2 === 1;
  const w = (await runProbe('node', seconds, undefined, flagged ? flags : [])) as unknown as Row[];
  const switches = w.reduce((a, x) => a + x.ictx, 0);
  const calm = w.filter((x, k) => x.ictx === 0 && (k === 0 || w[k - 1]!.ictx === 0));
  rows.push({
    parse: median(w.map((x) => x.parseUs)),
    calmParse: calm.length ? median(calm.map((x) => x.parseUs)) : NaN,
    switchesPerS: switches / seconds,
    l3: median(w.map((x) => x.l3Ns)),
    flagged,
  });
}
console.log(`load average after: ${loadavg()}`);
console.log('| process | parse µs (median of windows) | same, windows with no switch nearby | involuntary switches /s | L3 canary ns |');
console.log('|--:|--:|--:|--:|--:|');
rows.forEach((r, i) => console.log(`| ${i + 1}${r.flagged ? ` (${flags!.join(' ')})` : ''} | ${f(r.parse)} | ${f(r.calmParse)} | ${f(r.switchesPerS, 0)} | ${f(r.l3)} |`));
if (flags) {
  for (const group of [false, true]) {
    const g = rows.filter((r) => r.flagged === group);
    const calm = g.filter((r) => Number.isFinite(r.calmParse));
    console.log(`${group ? flags.join(' ') : 'plain node'}: median of process medians ${f(median(g.map((r) => r.parse)))} µs; of undisturbed-window medians ${f(median(calm.map((r) => r.calmParse)))} µs; L3 canary ${f(median(g.map((r) => r.l3)))} ns`);
  }
}
const ok = rows.filter((r) => Number.isFinite(r.calmParse));
console.log(
  `Spearman over processes: parse vs switches/s ${f(spearman(rows.map((r) => r.parse), rows.map((r) => r.switchesPerS)), 2)}; ` +
    `parse vs L3 canary ${f(spearman(rows.map((r) => r.parse), rows.map((r) => r.l3)), 2)}; ` +
    `undisturbed-window parse vs L3 canary ${f(spearman(ok.map((r) => r.calmParse), ok.map((r) => r.l3)), 2)}`,
);
