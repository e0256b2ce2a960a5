/**
 * Figures about rtbench itself, quoted in the README:
 *   1. the loop's overhead: a no-op case in ns/op on Node (target < 1 ns/op);
 *   2. the spread of a ~100 ns case under the default budget;
 *   3. reproducibility: the difference of medians between two back-to-back
 *      runs of `pnpm bench json-reviver --runtime node` (target ≤ 3% per case).
 * Run: npx tsx scripts/measure/harness-figures/harness-figures.ts   (about 5 minutes on 2 cores)
 */
import { formatDuration } from '@rtbench/report';
import { benchRun, pct } from '../../lib.ts';

const stat = (run: ReturnType<typeof benchRun>['run'], caseId: string) => {
  const r = run.results.find((x) => x.caseId === caseId);
  if (!r?.stats) throw new Error(`no stats for ${caseId}`);
  return r.stats;
};

console.log('1+2. harness suite on node (node@26), default budget');
const harness = benchRun(['harness', '--runtime', 'node']);
for (const id of ['overhead / noop', 'overhead / noop async', 'precision / ~100 ns of arithmetic', 'precision / ~1 µs of arithmetic']) {
  const s = stat(harness.run, id);
  console.log(
    `  ${id.padEnd(36)} median ${formatDuration(s.median).padStart(9)}  p25–p75 ${formatDuration(s.p25)}–${formatDuration(s.p75)} ` +
      `(IQR/median ${pct((s.p75 - s.p25) / s.median)})  95% CI ${s.ciHalfWidthRel !== undefined ? `±${pct(s.ciHalfWidthRel)}` : 'none (too few processes)'}  rounds ${s.roundMedians.map((m) => formatDuration(m)).join(', ')}`,
  );
}

console.log('\n3. two back-to-back runs: pnpm bench json-reviver --runtime node');
const first = benchRun(['json-reviver', '--runtime', 'node']);
const second = benchRun(['json-reviver', '--runtime', 'node']);
let worst = 0;
for (const c of first.run.cases) {
  const a = stat(first.run, c.id).median;
  const b = stat(second.run, c.id).median;
  const diff = b / a - 1;
  worst = Math.max(worst, Math.abs(diff));
  console.log(`  ${c.id.padEnd(50)} ${formatDuration(a).padStart(9)} ${formatDuration(b).padStart(9)}  ${diff >= 0 ? '+' : ''}${pct(diff)}`);
}
console.log(`  largest difference: ${pct(worst)} (target ≤ 3%); wall time per run ${(first.wallMs / 1000).toFixed(0)} s and ${(second.wallMs / 1000).toFixed(0)} s`);
