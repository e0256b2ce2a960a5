/**
 * The default table's targets, measured through the real CLI with its
 * defaults (README, "The default table's own figures"):
 *   1. `pnpm bench json-reviver` on four runtimes in ≤ 90 s;
 *   2. two such runs back to back: paired relative ratios within 3% of each other;
 *   3. the relative column decided (not "≈") wherever the difference is ≥ 5%;
 *   4. two back-to-back `--runtime node` runs: headline estimates within 3%.
 * Run: npx tsx scripts/table-targets.ts   (about 5 minutes on 2 cores)
 * Pass a suite name as the first argument to measure another suite.
 */
import { loadavg } from 'node:os';
import { benchView, formatDuration, type BenchView } from '@rtbench/report';
import { benchRun, pct } from './lib.ts';

const suite = process.argv[2] ?? 'json-reviver';

/** caseId -> variantId -> paired ratio (estimate, CI, verdict) against the baseline. */
function ratios(view: BenchView): Map<string, { ratio: number; ci: [number, number]; verdict: string }> {
  const out = new Map<string, { ratio: number; ci: [number, number]; verdict: string }>();
  for (const c of view.cases) {
    for (const row of c.rows) {
      if (row.relative) out.set(`${c.caseId} · ${row.variantId}`, { ratio: row.relative.ratio, ci: row.relative.ci, verdict: row.relative.verdict });
    }
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

console.log(`${new Date().toISOString()}  load ${load()}`);
console.log(`\n1-3. two back-to-back runs: pnpm bench ${suite} (defaults, four runtimes)`);
const a = benchRun([suite]);
console.log(`  run 1: ${(a.wallMs / 1000).toFixed(1)} s, exit ${a.status}, load ${load()}`);
const b = benchRun([suite]);
console.log(`  run 2: ${(b.wallMs / 1000).toFixed(1)} s, exit ${b.status}, load ${load()}`);
const ra = ratios(benchView(a.run));
const rb = ratios(benchView(b.run));
let worstRatio = 0;
let within = 0;
let big = 0;
let bigDecided = 0;
for (const [key, x] of ra) {
  const y = rb.get(key);
  if (!y) continue;
  const diff = y.ratio / x.ratio - 1;
  worstRatio = Math.max(worstRatio, Math.abs(diff));
  if (Math.abs(diff) <= 0.03) within++;
  // "a difference ≥ 5%": both runs' estimates say at least 5%; each run's verdict counts.
  if (Math.abs(Math.log(x.ratio)) >= Math.log(1.05) && Math.abs(Math.log(y.ratio)) >= Math.log(1.05)) {
    for (const r of [x, y]) {
      big++;
      if (r.verdict === 'faster' || r.verdict === 'slower') bigDecided++;
    }
  }
  console.log(
    `  ${key.padEnd(64)} ${x.ratio.toFixed(3)} (${x.verdict.padEnd(12)}) ${y.ratio.toFixed(3)} (${y.verdict.padEnd(12)}) ${diff >= 0 ? '+' : ''}${pct(diff, 1)}`,
  );
}
console.log(`  wall time: ${(a.wallMs / 1000).toFixed(1)} s and ${(b.wallMs / 1000).toFixed(1)} s (target ≤ 90 s)`);
console.log(`  relative ratios within 3% between the runs: ${within} of ${ra.size}; largest difference ${pct(worstRatio, 1)} (target ≤ 3%)`);
console.log(`  cells (of both runs) whose difference is ≥ 5% in both: ${big}; decided (faster/slower, not ≈): ${bigDecided} (target: all)`);

console.log(`\n4. two back-to-back runs: pnpm bench ${suite} --runtime node`);
const c = benchRun([suite, '--runtime', 'node']);
const d = benchRun([suite, '--runtime', 'node']);
const mc = medians(benchView(c.run));
const md = medians(benchView(d.run));
let worst = 0;
let close = 0;
for (const [key, x] of mc) {
  const y = md.get(key);
  if (y === undefined) continue;
  const diff = y / x - 1;
  worst = Math.max(worst, Math.abs(diff));
  if (Math.abs(diff) <= 0.03) close++;
  console.log(`  ${key.padEnd(64)} ${formatDuration(x).padStart(9)} ${formatDuration(y).padStart(9)}  ${diff >= 0 ? '+' : ''}${pct(diff, 1)}`);
}
console.log(`  within 3%: ${close} of ${mc.size}; largest difference ${pct(worst, 1)} (target ≤ 3%); wall ${(c.wallMs / 1000).toFixed(1)} s and ${(d.wallMs / 1000).toFixed(1)} s; load ${load()}`);
