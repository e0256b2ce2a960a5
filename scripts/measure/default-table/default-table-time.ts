/**
 * The default table's own figures, in one command: runs `bench <suite>`
 * (json-reviver unless named; any bench flags after `--`) and prints its wall
 * time, the loop's, the timed share, the independent process pairs per case,
 * the cells decided, and what the watched warmups found and cost (each
 * process's warmup to its steady point, and the classes), and what a
 * learned warmup would have cost instead (learnedWarmup below). With `--from
 * run.json` it reads a saved run instead (no wall time: not measured).
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/default-table/default-table-time.ts
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/default-table/default-table-time.ts json-reviver -- --runtime node@26,bun
 *   npx tsx scripts/measure/default-table/default-table-time.ts --from results/….json
 *
 * Prints the load beside the figures (it is a measurement: take the lock).
 */
import { readFileSync } from 'node:fs';
import { parseRun, type RoundRecord, type RunRecord } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { processesOf } from '@rtbench/stats';
import { pairable } from '../../../packages/measurer-records/src/index.ts';
import { benchRun, loadText, machineSpeedText } from '../../lib.ts';

const args = process.argv.slice(2);
const from = args[0] === '--from' ? args[1] : undefined;
let run: RunRecord;
let wallMs: number | undefined;
if (from) run = parseRun(JSON.parse(readFileSync(from, 'utf8')), from);
else {
  const dash = args.indexOf('--');
  const suite = (dash < 0 ? args : args.slice(0, dash))[0] ?? 'json-reviver';
  console.log(`before: ${machineSpeedText()}`);
  const r = benchRun([suite, ...(dash < 0 ? [] : args.slice(dash + 1))]);
  if (r.status !== 0) console.log(`! the bench exited with ${r.status}`);
  run = r.run;
  wallMs = r.wallMs;
  console.log(`load after: ${loadText()}; saved ${r.path}`);
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const timing = run.timing;
const pairs = run.cases.map((c) => {
  // Rounds that shared a process count once: an interval's unit is the process pair (rounds name their process).
  const processes = run.results.filter((r) => r.caseId === c.id).map((r) => new Set(processesOf(r.rounds.map(pairable)) ?? r.rounds.map((x) => x.round)).size);
  return Math.min(...processes);
});
const view = benchView(run);
const verdicts = view.cases.flatMap((c) => c.rows.flatMap((r) => (r.relative ? [r.relative.verdict] : [])));
const count = (...words: string[]): number => verdicts.filter((v) => words.includes(v)).length;
const rounds = run.results.flatMap((r) => r.rounds);
const watched = rounds.filter((x) => x.warmup);
const settledMs = watched.map((x) => x.warmup!.steadyAt?.ms ?? x.warmup!.ms[x.warmup!.ms.length - 1] ?? 0);
const classes = new Map<string, number>();
for (const x of rounds) if (x.steadyState) classes.set(x.steadyState.class, (classes.get(x.steadyState.class) ?? 0) + 1);
const marked = view.cases.flatMap((c) => c.rows.filter((r) => r.steady?.mark));

console.log(`${run.suite}: ${run.cases.length} cases × ${run.variants.length} runtimes (${run.variants.map((v) => v.id).join(', ')})`);
if (wallMs !== undefined) console.log(`wall (the whole command): ${(wallMs / 1e3).toFixed(1)} s`);
if (timing) console.log(`loop: ${(timing.wallMs / 1e3).toFixed(1)} s; timed: ${(timing.timedMs / 1e3).toFixed(1)} s, ${((100 * timing.timedMs) / timing.wallMs).toFixed(1)}% of the loop${wallMs !== undefined ? `, ${((100 * timing.timedMs) / wallMs).toFixed(1)}% of the wall` : ''}`);
console.log(`independent process pairs per case: min ${Math.min(...pairs)}, median ${median(pairs)}, max ${Math.max(...pairs)}`);
console.log(`cells: ${verdicts.length} ratios; decided (faster/slower, <1%) ${count('faster', 'slower', 'small')}, equivalent ${count('equivalent')}, inconclusive ${count('inconclusive')}`);
if (watched.length) {
  const total = settledMs.reduce((a, b) => a + b, 0);
  console.log(`watched warmups: ${watched.length} processes × cases; to steady (or the maximum): median ${median(settledMs).toFixed(0)} ms, max ${Math.max(...settledMs).toFixed(0)} ms, sum ${(total / 1e3).toFixed(1)} s of process time`);
}
const learned = learnedWarmup(run, 1.2);
if (learned) console.log(`the slowest arm's warmup per case and round: watched ${(learned.watchedMs / 1e3).toFixed(1)} s; learned (later processes run the first one's calls to steady + 20%) ${(learned.learnedMs / 1e3).toFixed(1)} s, over ${learned.caseRounds} case-rounds`);
console.log(`classes: ${[...classes].map(([c, n]) => `${c} ${n}`).join(', ') || 'none (not classified)'}; cells marked: ${marked.length}`);

/**
 * A learned warmup, projected from a saved run: the first process of each
 * arm and case watches to its steady point, and later ones run that many
 * calls times `margin`. A later process's time to those calls is read from
 * its own watched series (interpolated; past its end, at its median sample's
 * rate). Summed per case and round over the slowest arm (the arms warm side
 * by side and the set waits for the last), beside the watched warmups' sum.
 */
function learnedWarmup(r: RunRecord, margin: number): { watchedMs: number; learnedMs: number; caseRounds: number } | undefined {
  const watchedOf = (x: RoundRecord): number => x.warmup?.steadyAt?.ms ?? x.warmup?.ms[x.warmup.ms.length - 1] ?? 0;
  const slowest = new Map<string, { watched: number; learned: number }>();
  for (const result of r.results) {
    const first = [...result.rounds].sort((a, b) => a.round - b.round).find((x) => x.warmup?.steadyAt);
    for (const x of result.rounds) {
      const watched = watchedOf(x);
      const series = x.warmup;
      let learned = watched;
      if (first && x !== first && series?.calls.length) {
        const target = first.warmup!.steadyAt!.calls * margin;
        const at = series.calls.findIndex((c) => c >= target);
        const last = series.calls.length - 1;
        if (at > 0) learned = series.ms[at - 1]! + ((series.ms[at]! - series.ms[at - 1]!) * (target - series.calls[at - 1]!)) / (series.calls[at]! - series.calls[at - 1]!);
        else if (at === 0) learned = (series.ms[0]! * target) / series.calls[0]!;
        else learned = series.ms[last]! + ((target - series.calls[last]!) * median(x.samples)) / 1e6;
      }
      const key = `${result.caseId}\u0000${x.round}`;
      const entry = slowest.get(key) ?? { watched: 0, learned: 0 };
      slowest.set(key, { watched: Math.max(entry.watched, watched), learned: Math.max(entry.learned, learned) });
    }
  }
  if (!slowest.size) return undefined;
  const sum = (pick: (e: { watched: number; learned: number }) => number): number => [...slowest.values()].reduce((a, e) => a + pick(e), 0);
  return { watchedMs: sum((e) => e.watched), learnedMs: sum((e) => e.learned), caseRounds: slowest.size };
}
