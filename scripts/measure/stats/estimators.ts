/**
 * Which headline estimate survives back-to-back runs? Reads saved runs of the
 * same suite, recomputes every candidate estimator from the raw samples, and
 * prints per estimator:
 *   - run-to-run stability: |difference| between consecutive runs, per case
 *     (median and worst over cases and pairs, and the share within 3%);
 *   - bias with one mode: on case x runs whose process medians and pooled
 *     samples both show one mode, the estimate relative to the median of
 *     process medians (the centre of that one mode);
 *   - dependence on the amount of data: the estimate from the first half of
 *     every process's samples against all of them (a consistent estimator
 *     barely moves; the minimum keeps falling as samples are added).
 *
 *   npx tsx scripts/measure/stats/estimators.ts /tmp/node-1.json /tmp/node-2.json ...   [--per-case]
 *
 * Files are grouped by the variant they ran; pairs are formed in the order given.
 */
import { readFileSync } from 'node:fs';
import { parseRun } from '@rtbench/core/schema';
import { detectModes, estimators, type EstimatorName } from '../../../packages/stats/src/index.ts';

const args = process.argv.slice(2);
const perCase = args.includes('--per-case');
const files = args.filter((a) => !a.startsWith('--'));
if (files.length < 2) {
  console.error('usage: npx tsx scripts/measure/stats/estimators.ts <run.json> <run.json> [...] [--per-case]');
  process.exit(2);
}

type Rounds = number[][];
/** variant -> case -> one entry per run (file order) */
const data = new Map<string, Map<string, Rounds[]>>();
for (const file of files) {
  const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
  for (const r of run.results) {
    if (r.rounds.length < 5) continue;
    const byCase = data.get(r.variantId) ?? new Map<string, Rounds[]>();
    data.set(r.variantId, byCase);
    const list = byCase.get(r.caseId) ?? [];
    byCase.set(r.caseId, list);
    list.push(r.rounds.map((x) => x.samples));
  }
}

const names = Object.keys(estimators) as EstimatorName[];
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const med = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const firstHalf = (rounds: Rounds): Rounds => rounds.map((r) => r.slice(0, Math.max(1, Math.ceil(r.length / 2))));

for (const [variant, byCase] of data) {
  const runs = Math.max(...[...byCase.values()].map((l) => l.length));
  console.log(`\n${variant}: ${byCase.size} cases, ${runs} runs`);
  const diffs = new Map<EstimatorName, number[]>(names.map((n) => [n, []]));
  const biases = new Map<EstimatorName, number[]>(names.map((n) => [n, []]));
  const halves = new Map<EstimatorName, number[]>(names.map((n) => [n, []]));
  let unimodal = 0;
  let multimodal = 0;
  for (const [caseId, list] of byCase) {
    const row: string[] = [];
    for (const name of names) {
      const est = list.map((rounds) => estimators[name](rounds));
      for (let i = 1; i < est.length; i++) diffs.get(name)!.push(est[i]! / est[i - 1]! - 1);
      for (const rounds of list) halves.get(name)!.push(estimators[name](firstHalf(rounds)) / estimators[name](rounds) - 1);
      const caseDiffs = est.slice(1).map((e, i) => Math.abs(e / est[i]! - 1));
      row.push(`${name.padEnd(22)} run-to-run |diff| median ${caseDiffs.length ? (med(caseDiffs) * 100).toFixed(1) : '–'}%: ${est.map((e) => e.toPrecision(4)).join(' ')}`);
    }
    for (const rounds of list) {
      const medians = rounds.map((r) => med(r));
      const oneMode = detectModes(medians).modes.length === 1 && detectModes(rounds.flat()).modes.length === 1;
      if (!oneMode) {
        multimodal++;
        continue;
      }
      unimodal++;
      const center = estimators['median-of-medians'](rounds);
      for (const name of names) biases.get(name)!.push(estimators[name](rounds) / center - 1);
    }
    if (perCase) console.log(`  ${caseId}\n    ${row.join('\n    ')}`);
  }
  console.log(`  case x runs with one mode (process medians and samples): ${unimodal}; with two: ${multimodal}`);
  console.log('  | estimator | run-to-run |diff| median | worst | within 3% | bias with one mode (median) | first half of samples vs all (median) |');
  console.log('  |---|--:|--:|--:|--:|--:|');
  for (const name of names) {
    const d = diffs.get(name)!.map(Math.abs);
    const within = d.filter((x) => x <= 0.03).length / d.length;
    const b = biases.get(name)!;
    console.log(
      `  | ${name} | ${(med(d) * 100).toFixed(1)}% | ${(Math.max(...d) * 100).toFixed(1)}% | ${(within * 100).toFixed(0)}% | ${b.length ? pct(med(b)) : 'n/a'} | ${pct(med(halves.get(name)!))} |`,
    );
  }
}
