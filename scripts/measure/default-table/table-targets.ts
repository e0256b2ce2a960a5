/**
 * The default table's targets, measured through the real CLI with its
 * defaults (docs/measurements/lockstep.md, "The default table's own figures"):
 *   1. `pnpm bench json-reviver` on four runtimes in ≤ 60 s, timed samples ≥ 70% of it;
 *   2. median ratio-interval half-width ≤ 2% alone, ≤ 4% beside the antagonist;
 *   3. two back-to-back runs: paired ratios within 2% in ≥ 45 of 48 cells alone
 *      (≥ 40 beside the antagonist), headline figures within 3% in ≥ 56 of 64;
 *   4. coverage: the second run's ratio inside the first run's interval in ≥ 80% of cells;
 *   5. no host-clock alarm (a sample the host's clock contradicts) on an honest suite.
 *
 *   npx tsx scripts/measure/default-table/table-targets.ts [suite] [--antagonist] [-- extra bench args]
 *   npx tsx scripts/measure/default-table/table-targets.ts --runs first.json second.json   (two saved runs, measured before)
 *
 * --antagonist runs scripts/antagonist.mjs (a half-busy, memory-heavy
 * neighbour) beside both runs and stops it after. Two default runs take 2-4
 * minutes on 2 cores; run it under the measurement lock. Every figure is
 * printed with the load average beside it.
 */
import { readFileSync } from 'node:fs';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { benchView, formatDuration, type BenchView } from '@rtbench/report';
import { benchRun, clockAlarms, loadText, machineSpeedText, pct, type RatioCell, startAntagonist, tableRatios } from '../../lib.ts';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const extra = dashes === -1 ? [] : argv.slice(dashes + 1);
const antagonist = own.includes('--antagonist');
const saved = own.includes('--runs') ? own.slice(own.indexOf('--runs') + 1, own.indexOf('--runs') + 3) : undefined;
const suite = own.find((a) => !a.startsWith('--') && !saved?.includes(a)) ?? 'json-reviver';


function headlines(view: BenchView): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of view.cases) for (const row of c.rows) if (row.stats) out.set(`${c.caseId} · ${row.variantId}`, row.stats.median);
  return out;
}


const halfWidth = (c: RatioCell): number => Math.max(c.ci[1] / c.ratio - 1, 1 - c.ci[0] / c.ratio);
const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[xs.length >> 1] ?? NaN;

/** A saved run read back, its wall time from its own timing. */
function readRun(path: string): ReturnType<typeof benchRun> {
  const run = parseRun(JSON.parse(readFileSync(path, 'utf8')), path);
  return { run, wallMs: run.timing?.wallMs ?? NaN, status: run.status === 'complete' ? 0 : 1, path };
}

console.log(`${new Date().toISOString()}  ${machineSpeedText()}${antagonist ? '  (beside the antagonist)' : ''}`);
const stopNeighbour = antagonist ? startAntagonist() : undefined;
const runs: ReturnType<typeof benchRun>[] = [];
try {
  for (const i of [1, 2]) {
    const r = saved ? readRun(saved[i - 1]!) : benchRun([suite, ...extra]);
    runs.push(r);
    const t = r.run.timing;
    const share = t ? `, timed samples ${pct(t.timedMs / t.wallMs, 0)} of the loop's ${(t.wallMs / 1000).toFixed(1)} s` : '';
    console.log(`  run ${i}: ${(r.wallMs / 1000).toFixed(1)} s, exit ${r.status}${share}, host-clock alarms ${clockAlarms(r.run)}, load ${loadText()}, saved ${r.path}`);
  }
} finally {
  stopNeighbour?.();
}
const [a, b] = runs as [(typeof runs)[0], (typeof runs)[0]];
const va = benchView(a.run);
const vb = benchView(b.run);
const ra = tableRatios(va);
const rb = tableRatios(vb);
let within = 0;
let covered = 0;
let worst = 0;
let compared = 0;
const widths: number[] = [];
for (const [key, x] of ra) {
  const y = rb.get(key);
  if (!y) continue;
  compared++;
  const diff = y.ratio / x.ratio - 1;
  worst = Math.max(worst, Math.abs(diff));
  if (Math.abs(diff) <= 0.02) within++;
  if (y.ratio >= x.ci[0] && y.ratio <= x.ci[1]) covered++;
  widths.push(halfWidth(x), halfWidth(y));
  console.log(`  ${key.padEnd(72)} ${x.ratio.toFixed(3)} ±${pct(halfWidth(x), 1).padStart(5)} ${x.verdict.padEnd(12)} ${y.ratio.toFixed(3)} ±${pct(halfWidth(y), 1).padStart(5)} ${y.verdict.padEnd(12)} ${diff >= 0 ? '+' : ''}${pct(diff, 1)}`);
}
const ha = headlines(va);
const hb = headlines(vb);
let close = 0;
let worstHeadline = 0;
for (const [key, x] of ha) {
  const y = hb.get(key);
  if (y === undefined) continue;
  worstHeadline = Math.max(worstHeadline, Math.abs(y / x - 1));
  if (Math.abs(y / x - 1) <= 0.03) close++;
}
const share = (r: RunRecord): string => (r.timing ? pct(r.timing.timedMs / r.timing.wallMs, 0) : '—');
console.log(`\n${suite}${antagonist ? ', beside the antagonist' : ', alone'} (${new Date().toISOString()}, load ${loadText()}):`);
console.log(`  wall time: ${(a.wallMs / 1000).toFixed(1)} s and ${(b.wallMs / 1000).toFixed(1)} s (target ≤ 60 s)`);
console.log(`  timed samples: ${share(a.run)} and ${share(b.run)} of the wall time (target ≥ 70%)`);
console.log(`  median ratio-interval half-width: ${pct(median(widths), 1)} (target ≤ ${antagonist ? 4 : 2}%); widest ${pct(Math.max(...widths), 1)}`);
console.log(`  paired ratios within 2% between the runs: ${within} of ${compared}; largest difference ${pct(worst, 1)} (target ≥ ${antagonist ? 40 : 45} of 48)`);
console.log(`  headline figures within 3% between the runs: ${close} of ${ha.size}; largest difference ${pct(worstHeadline, 1)} (target ≥ 56 of 64)`);
console.log(`  coverage: the second run's ratio inside the first run's interval in ${covered} of ${compared} (target ≥ 80%)`);
console.log(`  host-clock alarms: ${clockAlarms(a.run)} and ${clockAlarms(b.run)} (target 0)`);
console.log('\nheadlines of run 1 and run 2 (largest differences):');
for (const [key, x] of [...ha].sort((p, q) => Math.abs(hb.get(q[0])! / q[1] - 1) - Math.abs(hb.get(p[0])! / p[1] - 1)).slice(0, 6)) {
  console.log(`  ${key.padEnd(72)} ${formatDuration(x).padStart(9)} ${formatDuration(hb.get(key)!).padStart(9)}`);
}
