/**
 * How many turns a lockstep set should take, read from saved runs (nothing
 * measured). An interval counts process pairs, so what a turn buys is a
 * narrower pair ratio, and what it costs is time a new pair could have had.
 * Per case, over its cells (each candidate against the first arm):
 *   - the variance of a pair's log ratio split in two: within the pair
 *     (from the difference between its even and odd turns' ratios) and
 *     between pairs (the rest);
 *   - the set's cost: c0 outside the sampling span (set-up, warmup,
 *     answers), c1 per turn (the span over the turns);
 *   - the turns that minimise the pair ratio's variance per second,
 *     sqrt((c0 / c1) · within-per-turn / between), beside the turns taken.
 * Then the whole run re-read as if each set had stopped after its first k
 * turns (cells decided by the table's own reading; every pair kept, or,
 * with --pairs n, each case's first n).
 *
 *   npx tsx scripts/measure/stopping/turns-per-set.ts run.json [more.json…] [--pairs n]
 */
import type { RoundRecord, RunRecord } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { median, turnLogRatio } from '@rtbench/stats';
import { isDecided, readRun, samplingSpanMs } from '../../lib.ts';

const args = process.argv.slice(2);
const pairsAt = args.indexOf('--pairs');
/** With --pairs n, the re-reading keeps each case's first n pairs (rounds 0 to n-1): a shorter run of the same design. */
const pairs = pairsAt >= 0 ? Number(args[pairsAt + 1]) : Infinity;
const files = pairsAt >= 0 ? args.filter((_, i) => i !== pairsAt && i !== pairsAt + 1) : args;
if (!files.length) {
  console.error('usage: npx tsx scripts/measure/stopping/turns-per-set.ts <run.json…> [--pairs n]');
  process.exit(2);
}
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: readonly number[]): number => {
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
};
const ofTurns = (xs: readonly number[], keep: (i: number) => boolean): number[] => xs.filter((_, i) => keep(i));

interface CaseReading {
  turns: number;
  c0: number;
  c1: number;
  withinPerTurn: number;
  between: number;
}

/** One case's costs and its cells' variance components (medians over its cells), or undefined with fewer than 3 pairs. */
function readCase(run: RunRecord, caseId: string): CaseReading | undefined {
  const results = run.results.filter((r) => r.caseId === caseId);
  const baseline = results.find((r) => r.variantId === run.variants[0]!.id);
  if (!baseline) return undefined;
  const sets = baseline.rounds.map((b) => results.map((r) => r.rounds.find((x) => x.round === b.round)).filter((x): x is RoundRecord => x !== undefined && x.samples.length > 0));
  const full = sets.filter((s) => s.length === results.length && s[0]!.samples.length >= 4);
  if (full.length < 3) return undefined;
  const spans = full.map((s) => Math.max(...s.map(samplingSpanMs)));
  const c0 = mean(full.map((s, i) => Math.max(...s.map((x) => x.wallMs)) - spans[i]!));
  const c1 = mean(full.map((s, i) => spans[i]! / s[0]!.samples.length));
  const within: number[] = [];
  const between: number[] = [];
  for (const candidate of results.filter((r) => r !== baseline)) {
    const whole: number[] = [];
    const halves: number[] = [];
    const turns: number[] = [];
    for (const b of baseline.rounds) {
      const c = candidate.rounds.find((x) => x.round === b.round);
      if (!c) continue;
      const n = Math.min(b.samples.length, c.samples.length);
      if (n < 4) continue;
      const ratio = (keep: (i: number) => boolean) => turnLogRatio(ofTurns(b.samples.slice(0, n), keep), ofTurns(c.samples.slice(0, n), keep));
      whole.push(ratio(() => true));
      halves.push(ratio((i) => i % 2 === 0) - ratio((i) => i % 2 === 1));
      turns.push(n);
    }
    if (whole.length < 3 || !whole.every(Number.isFinite) || !halves.every(Number.isFinite)) continue;
    // Each half holds n/2 turns: their difference has four times the whole's within-pair variance.
    const w = mean(halves.map((d) => d * d)) / 4;
    within.push(w * median(turns));
    between.push(Math.max(0, variance(whole) - w));
  }
  if (!within.length) return undefined;
  return { turns: median(full.map((s) => s[0]!.samples.length)), c0, c1, withinPerTurn: median(within), between: median(between) };
}

/** The run as if every set had stopped after its first k turns. */
function decidedAtTurns(run: RunRecord, k: number): number {
  const cut = structuredClone(run);
  for (const r of cut.results) {
    delete (r as { stats?: unknown }).stats;
    r.rounds = r.rounds.filter((x) => x.round < pairs);
    for (const x of r.rounds) {
      x.samples = x.samples.slice(0, k);
      if (x.sampleStartMs) x.sampleStartMs = x.sampleStartMs.slice(0, k);
    }
  }
  return benchView(cut).cases.flatMap((c) => c.rows.filter((row) => isDecided(row.relative?.verdict) || row.relative?.verdict === 'equivalent')).length;
}

const pct = (v: number): string => `${(100 * Math.sqrt(v)).toFixed(1)}%`;
for (const file of files) {
  const run = readRun(file);
  console.log(`${file}: ${run.suite}, ${run.variants.length} arms, ${run.cases.length} cases`);
  console.log(`${'case'.padEnd(60)} turns  c0/set  c1/turn  sd within/turn  sd between  best turns`);
  const taken: number[] = [];
  const bests: number[] = [];
  const betweens: number[] = [];
  for (const c of run.cases) {
    const r = readCase(run, c.id);
    if (!r) continue;
    const best = r.between > 0 ? Math.sqrt((r.c0 / r.c1) * (r.withinPerTurn / r.between)) : Infinity;
    taken.push(r.turns);
    bests.push(best);
    betweens.push(r.between);
    console.log(`${c.id.slice(0, 59).padEnd(60)} ${String(r.turns).padStart(5)} ${r.c0.toFixed(0).padStart(5)} ms ${r.c1.toFixed(1).padStart(6)} ms ${pct(r.withinPerTurn).padStart(15)} ${pct(r.between).padStart(11)} ${Number.isFinite(best) ? best.toFixed(0).padStart(11) : '        any'}`);
  }
  if (taken.length) console.log(`over the cases: turns taken, median ${median(taken)}; best turns, median ${median(bests).toFixed(0)}; sd between pairs, median ${pct(median(betweens))}`);
  const cells = benchView(run).cases.flatMap((c) => c.rows.filter((row) => row.relative)).length;
  console.log(`decided of ${cells}, ${Number.isFinite(pairs) ? `the first ${pairs} pairs kept` : 'every pair kept'}, each set cut to its first k turns: ${[4, 6, 8, 12, 16, 24].map((k) => `${k}: ${decidedAtTurns(run, k)}`).join(', ')}, all: ${decidedAtTurns(run, Infinity)}`);
}
