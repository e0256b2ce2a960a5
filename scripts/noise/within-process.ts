/**
 * Two speeds inside the harness's own processes. Reads saved runs and, for
 * every process (round), asks detectModes whether its samples form two
 * clusters, and how often consecutive samples cross between them. Sample
 * times come from `sampleStartMs` where the run has it, else from the
 * cumulative sample durations (samples x iterationsPerSample), which ignore
 * the gaps between samples.
 *
 *   npx tsx scripts/noise/within-process.ts <run.json> [...]
 */
import { readFileSync } from 'node:fs';
import { parseRun } from '@rtbench/core/schema';
import { detectModes } from '../../packages/stats/src/index.ts';
import { f, median } from './lib.ts';

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: npx tsx scripts/noise/within-process.ts <run.json> [...]');
  process.exit(2);
}
type Tally = { processes: number; twoModes: number; slowShares: number[]; crossingsPerS: number[]; ratios: number[] };
const byVariant = new Map<string, Tally>();
for (const file of files) {
  const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
  for (const result of run.results) {
    const t = byVariant.get(result.variantId) ?? { processes: 0, twoModes: 0, slowShares: [], crossingsPerS: [], ratios: [] };
    byVariant.set(result.variantId, t);
    for (const round of result.rounds) {
      if (round.samples.length < 20 || round.samples.some((s) => !(s > 0))) continue;
      t.processes++;
      const m = detectModes(round.samples, { minShare: 0.1 });
      if (m.modes.length < 2) continue;
      t.twoModes++;
      const cut = Math.sqrt(m.modes[0]!.high * m.modes[1]!.low);
      const slow = round.samples.map((s) => s > cut);
      let crossings = 0;
      for (let i = 1; i < slow.length; i++) if (slow[i] !== slow[i - 1]) crossings++;
      const spanMs = round.sampleStartMs?.length
        ? round.sampleStartMs[round.sampleStartMs.length - 1]! - round.sampleStartMs[0]!
        : round.samples.reduce((a, s) => a + (s * round.iterationsPerSample) / 1e6, 0);
      t.slowShares.push(slow.filter(Boolean).length / slow.length);
      t.crossingsPerS.push(crossings / (spanMs / 1000));
      t.ratios.push(m.modes[1]!.center / m.modes[0]!.center);
    }
  }
}
console.log('| variant | processes (≥ 20 samples) | with two modes in their samples | upper/lower mode (median) | share of samples in the slow mode (median) | crossings per s of sampling (median) |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const [variant, t] of byVariant) {
  if (!t.processes) continue;
  const pct = (t.twoModes / t.processes) * 100;
  const med = (xs: number[], d: number): string => (xs.length ? f(median(xs), d) : '–');
  console.log(`| ${variant} | ${t.processes} | ${t.twoModes} (${f(pct, 0)}%) | ${med(t.ratios, 2)}× | ${t.slowShares.length ? f(median(t.slowShares) * 100, 0) : '–'}% | ${med(t.crossingsPerS, 0)} |`);
}
