/**
 * Whose is a cell's change of speed: one process's (its warmup, its heap)
 * or the machine's? From a saved lockstep run (no new measurement), per case:
 *   - rho: within each set, the Spearman correlation over turns between every
 *     two arms' samples (a turn's samples are milliseconds apart), averaged
 *     over the pairs; then the median over sets, and in how many sets it is
 *     above 0. Speeds that switch with the machine (a neighbour taking the
 *     cache, the two-speed noise of docs/measurements/two-speed-noise.md)
 *     move every arm together (rho well above 0); a process that warms or
 *     slows on its own does not (rho near 0: with 8–24 turns, a set's rho
 *     has a spread of about 0.2–0.35 around it).
 *   - swing: over sets, the largest set median over the smallest, per arm
 *     (the median over arms) and for the paired ratio against the first arm
 *     (the median over the other arms): a swing the arms share is one the
 *     ratio does not see.
 *
 *   npx tsx scripts/shared-speed.ts results/<run>.json [--case <substring>]
 */
import { readFileSync } from 'node:fs';
import { parseRun } from '@rtbench/core/schema';
import { f, median, spearman } from './noise/lib.ts';

const argv = process.argv.slice(2);
const file = argv[0];
const only = argv.includes('--case') ? argv[argv.indexOf('--case') + 1] : undefined;
if (!file || (argv.includes('--case') && !only)) {
  console.error('usage: npx tsx scripts/shared-speed.ts <run.json> [--case <substring>]');
  process.exit(2);
}
const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
const variants = run.variants.map((v) => v.id);
const swing = (xs: readonly number[]): number => Math.max(...xs) / Math.min(...xs);

console.log(`${file}: ${run.suite}, arms ${variants.join(', ')}`);
console.log('| case | sets | rho: median over sets | sets with rho > 0 | swing of an arm\'s set medians | swing of the paired ratio |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const c of run.cases) {
  if (only && !c.id.includes(only)) continue;
  const byVariant = variants.map((v) => run.results.find((r) => r.caseId === c.id && r.variantId === v));
  const rounds = [...new Set(byVariant.flatMap((r) => r?.rounds.map((x) => x.round) ?? []))].sort((a, b) => a - b);
  const rhos: number[] = [];
  const setMedians: number[][] = variants.map(() => []);
  const ratios: number[][] = variants.map(() => []);
  for (const round of rounds) {
    const set = byVariant.map((r) => r?.rounds.find((x) => x.round === round));
    if (set.some((x) => !x || x.samples.length < 4)) continue;
    // Samples are ns per call already.
    const series = set.map((x) => x!.samples);
    const turns = Math.min(...series.map((s) => s.length));
    const pairs: number[] = [];
    for (let a = 0; a < series.length; a++) for (let b = a + 1; b < series.length; b++) pairs.push(spearman(series[a]!.slice(0, turns), series[b]!.slice(0, turns)));
    rhos.push(pairs.reduce((x, y) => x + y, 0) / pairs.length);
    series.forEach((s, i) => setMedians[i]!.push(median(s)));
    for (let i = 1; i < series.length; i++) ratios[i]!.push(median(series[i]!.slice(0, turns).map((x, t) => x / series[0]![t]!)));
  }
  if (!rhos.length) continue;
  const armSwing = median(setMedians.map(swing));
  const ratioSwing = median(ratios.slice(1).map(swing));
  console.log(`| ${c.id} | ${rhos.length} | ${f(median(rhos), 2)} | ${rhos.filter((r) => r > 0).length} of ${rhos.length} | ${f(armSwing, 2)}× | ${f(ratioSwing, 2)}× |`);
}
