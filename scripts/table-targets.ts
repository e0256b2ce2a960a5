/**
 * The default table's targets, measured through the real CLI with its
 * defaults (docs/lockstep.md, "The default table's own figures"):
 *   1. `pnpm bench json-reviver` on four runtimes in ≤ 60 s;
 *   2. every paired ratio's 95% CI within ±2% (cells whose budget ran out are marked *);
 *   3. two such runs back to back: every paired ratio within 2% of the other run's,
 *      every headline median within 3%;
 *   4. "≈" only where the difference is below 3% (judged on the mean of the two runs' estimates);
 *   5. an A/A table (node@26 twice as separate variants): every set's ratio within ±1%.
 * Run: npx tsx scripts/table-targets.ts [suite]   (about 4 minutes on 2 cores)
 * Every figure is printed with the load average beside it.
 */
import { loadavg } from 'node:os';
import { benchView, formatDuration, type BenchView } from '@rtbench/report';
import { pairRounds } from '../packages/stats/src/index.ts';
import { benchRun, pct } from './lib.ts';

const suite = process.argv[2] ?? 'json-reviver';

interface Cell {
  ratio: number;
  ci: [number, number];
  verdict: string;
}

function ratios(view: BenchView): Map<string, Cell> {
  const out = new Map<string, Cell>();
  for (const c of view.cases) {
    for (const row of c.rows) if (row.relative) out.set(`${c.caseId} · ${row.variantId}`, { ratio: row.relative.ratio, ci: row.relative.ci, verdict: row.relative.verdict });
  }
  return out;
}

function medians(view: BenchView): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of view.cases) for (const row of c.rows) if (row.stats) out.set(`${c.caseId} · ${row.variantId}`, row.stats.median);
  return out;
}

/** The load average, so every figure says how busy the machine was. */
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');
const halfWidth = (c: Cell): number => Math.max(c.ci[1] / c.ratio - 1, 1 - c.ci[0] / c.ratio);

console.log(`${new Date().toISOString()}  load ${load()}`);
console.log(`\n1-4. two back-to-back runs: pnpm bench ${suite} (defaults, four runtimes)`);
const a = benchRun([suite]);
console.log(`  run 1: ${(a.wallMs / 1000).toFixed(1)} s, exit ${a.status}, load ${load()}`);
const b = benchRun([suite]);
console.log(`  run 2: ${(b.wallMs / 1000).toFixed(1)} s, exit ${b.status}, load ${load()}`);
const va = benchView(a.run);
const vb = benchView(b.run);
const ra = ratios(va);
const rb = ratios(vb);
let worstRatio = 0;
let within = 0;
let narrow = 0;
let cells = 0;
const widths: number[] = [];
let undecidedBig = 0;
let undecided = 0;
for (const [key, x] of ra) {
  const y = rb.get(key);
  if (!y) continue;
  const diff = y.ratio / x.ratio - 1;
  worstRatio = Math.max(worstRatio, Math.abs(diff));
  if (Math.abs(diff) <= 0.02) within++;
  for (const r of [x, y]) {
    cells++;
    widths.push(halfWidth(r));
    if (halfWidth(r) <= 0.02) narrow++;
    if (r.verdict === 'inconclusive') {
      undecided++;
      if (Math.abs(Math.log((x.ratio + y.ratio) / 2)) >= Math.log(1.03)) undecidedBig++;
    }
  }
  console.log(`  ${key.padEnd(72)} ${x.ratio.toFixed(3)} ±${pct(halfWidth(x), 1).padStart(5)} ${x.verdict.padEnd(12)} ${y.ratio.toFixed(3)} ±${pct(halfWidth(y), 1).padStart(5)} ${y.verdict.padEnd(12)} ${diff >= 0 ? '+' : ''}${pct(diff, 1)}`);
}
widths.sort((p, q) => p - q);
const ma = medians(va);
const mb = medians(vb);
let worstMedian = 0;
let close = 0;
for (const [key, x] of ma) {
  const y = mb.get(key);
  if (y === undefined) continue;
  worstMedian = Math.max(worstMedian, Math.abs(y / x - 1));
  if (Math.abs(y / x - 1) <= 0.03) close++;
}
console.log(`  wall time: ${(a.wallMs / 1000).toFixed(1)} s and ${(b.wallMs / 1000).toFixed(1)} s (target ≤ 60 s)`);
console.log(`  ratio CIs within ±2%: ${narrow} of ${cells}; median half-width ${pct(widths[widths.length >> 1] ?? NaN, 1)}, widest ${pct(widths[widths.length - 1] ?? NaN, 1)} (target: all)`);
console.log(`  paired ratios within 2% between the runs: ${within} of ${ra.size}; largest difference ${pct(worstRatio, 1)} (target: all)`);
console.log(`  headline medians within 3% between the runs: ${close} of ${ma.size}; largest difference ${pct(worstMedian, 1)} (target: all)`);
console.log(`  "≈" cells: ${undecided} of ${cells}; of them with a difference ≥ 3% (mean of the runs): ${undecidedBig} (target: 0)`);

console.log(`\n5. A/A: pnpm bench ${suite} --filter 10kb --runtime "node@26,node@26 A=1" --rounds 8 (same binary; A=1 only makes a second variant)`);
const aa = benchRun([suite, '--filter', '10kb', '--runtime', 'node@26,node@26 A=1', '--rounds', '8']);
let worstSet = 0;
for (const c of aa.run.cases) {
  const [x, y] = aa.run.results.filter((r) => r.caseId === c.id);
  if (!x || !y) continue;
  const pairs = pairRounds(x.rounds, y.rounds);
  const setRatios = pairs.rounds.map((_, i) => pairs.candidate[i]! / pairs.baseline[i]!);
  const spread = Math.max(...setRatios.map((r) => Math.abs(r - 1)));
  worstSet = Math.max(worstSet, spread);
  console.log(`  ${c.id.padEnd(64)} set ratios ${setRatios.map((r) => r.toFixed(3)).join(' ')}  (within ±${pct(spread, 1)})`);
}
console.log(`  every A/A set within ±${pct(worstSet, 1)} (target ±1%); ${(aa.wallMs / 1000).toFixed(1)} s; load ${load()}`);
console.log(`\nmedians of run 1 and run 2 (largest differences):`);
for (const [key, x] of [...ma].sort((p, q) => Math.abs(mb.get(q[0])! / q[1] - 1) - Math.abs(mb.get(p[0])! / p[1] - 1)).slice(0, 8)) {
  console.log(`  ${key.padEnd(72)} ${formatDuration(x).padStart(9)} ${formatDuration(mb.get(key)!).padStart(9)}`);
}
