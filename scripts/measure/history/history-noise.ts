/**
 * How often `rtbench history` marks a change point, on synthetic runs whose
 * truth is known (test/history-synthetic.ts: per run R process medians with
 * log-normal noise of sd σ, independent between runs):
 *
 *   npx tsx scripts/measure/history/history-noise.ts [--histories 1000] [--runs 6] [--cases 3] [--rounds 10] [--sigma 0.02]
 *
 * 1. Noise alone: every run the same. The share of histories with any change
 *    point is the false-discovery rate under no change at all (nominal 5%).
 * 2. A step: the last half of the runs slower by 2%, 5% or 10%; the share of
 *    series whose step is marked at the run where it happens, and the false
 *    change points elsewhere: their share of all marked (the false discovery
 *    proportion, whose mean BH keeps under 5%), and of histories with one.
 *
 * Pure computation (no runtime is started), seeded, so the figures repeat.
 */
import { parseArgs } from 'node:util';
import { changePoints, historyView } from '../../../packages/report/src/index.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';

const { values } = parseArgs({
  options: { histories: { type: 'string', default: '1000' }, runs: { type: 'string', default: '6' }, cases: { type: 'string', default: '3' }, rounds: { type: 'string', default: '10' }, sigma: { type: 'string', default: '0.02' } },
});
const histories = Number(values.histories);
const runs = Number(values.runs);
const rounds = Number(values.rounds);
const sigma = Number(values.sigma);
const cases = Array.from({ length: Number(values.cases) }, (_, i) => ({ id: `case ${i + 1}`, ns: 1000 * (i + 1) }));
const stepAt = Math.floor(runs / 2);
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

console.log(`${histories} histories of ${runs} runs × ${cases.length} cases, ${rounds} process medians per run, σ = ${sigma} (log scale, between processes)`);
for (const step of [0, 0.02, 0.05, 0.1]) {
  let withFalse = 0;
  let found = 0;
  let falsePoints = 0;
  let fdp = 0;
  for (let h = 1; h <= histories; h++) {
    const steps = Array.from({ length: runs }, (_, i) => ({ factor: i >= stepAt ? 1 + step : 1 }));
    const view = historyView(historyRuns(steps, { cases, rounds, sigma, seed: h * 104729 }).map((run) => ({ run })));
    const points = changePoints(view);
    const wrong = points.filter(({ point }) => step === 0 || point.run !== stepAt || point.changePoint !== 'slower');
    falsePoints += wrong.length;
    if (wrong.length) withFalse++;
    found += points.length - wrong.length;
    fdp += points.length ? wrong.length / points.length : 0;
  }
  if (step === 0) console.log(`no change: histories with a change point ${pct(withFalse / histories)} (${withFalse}/${histories}); change points ${falsePoints}`);
  else console.log(`+${step * 100}% at run ${stepAt + 1}: found in ${pct(found / (histories * cases.length))} of series; false change points ${falsePoints}, ${pct(fdp / histories)} of those marked on average (the FDR); histories with one ${pct(withFalse / histories)}`);
}
