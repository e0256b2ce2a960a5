/**
 * Where a lockstep run's wall time went, from its saved run (no new
 * measurement): per case, the mean over its sets of
 *   - wall: the set's time for the case, open to answer (the slowest arm's wallMs);
 *   - warmup: the calls made before the first sample × the median call, for the
 *     arm that warmed longest (its CPU time; four processes on two cores take
 *     about twice that on the wall);
 *   - span: first sample's start to the last sample's end (the longest arm);
 *   - timed: every arm's timed batches together;
 *   - turns, and the sets in which the case was set up afresh (visit 1) or kept warm.
 * For the sets outside their sampling spans, the longest watched warmup (to its
 * steady point, on its process's clock) and the rest; what the host took to
 * open a set (its processes taken or started, the case sent, the next case's
 * processes started ahead), and what it waited for before a set's first
 * turn: its processes ready, then its other processes quiet (runs that
 * recorded them).
 * Then the same over the run, against run.timing; the sets split by first
 * visit (set up and fully warmed in that process) and kept visits (rewarmed),
 * with the wall time outside the sampling spans; and per runtime, what one
 * sample cost: the host's wait from its command to the answer, the span the
 * process saw on its own clock, and the timed batch (medians; lockstep runs
 * that recorded them).
 *
 *   npx tsx scripts/measure/default-table/where-time-goes.ts run.json
 */
import { readFileSync } from 'node:fs';
import { parseRun, type RoundRecord } from '@rtbench/core/schema';
import { NO_PRE_BATCH_NS } from '@rtbench/core/protocol';
import { processesOf } from '@rtbench/stats';
import { lockstepOf, pairable } from '../../../packages/measurer-records/src/index.ts';
import { sampledMs, samplingSpanMs } from '../../lib.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx scripts/measure/default-table/where-time-goes.ts <run.json>');
  process.exit(2);
}
const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const callMs = (r: RoundRecord): number => median(r.samples) / 1e6;

interface Split {
  sets: number;
  kept: number;
  wall: number;
  warmup: number;
  span: number;
  timed: number;
  turns: number[];
}
const byCase = new Map<string, Split>();
/** The same sets split by first visit (set up and fully warmed in that process) and kept visits (rewarmed). */
const visits = new Map<string, { sets: number; wall: number; span: number; timed: number; watched: number; opening: number; ready: number; quiet: number }>();
for (const c of run.cases) {
  const results = run.results.filter((r) => r.caseId === c.id);
  const rounds = new Set(results.flatMap((r) => r.rounds.map((x) => x.round)));
  const split: Split = { sets: 0, kept: 0, wall: 0, warmup: 0, span: 0, timed: 0, turns: [] };
  for (const round of rounds) {
    const set = results.map((r) => r.rounds.find((x) => x.round === round)).filter((x): x is RoundRecord => x !== undefined);
    if (!set.length) continue;
    const kept = set.every((x) => (lockstepOf(x)?.visit ?? 1) > 1);
    const wall = Math.max(...set.map((x) => x.wallMs));
    const span = Math.max(...set.map(samplingSpanMs));
    const timed = sum(set.map(sampledMs));
    split.sets++;
    if (kept) split.kept++;
    split.wall += wall;
    split.warmup += Math.max(...set.map((x) => x.warmupIterations * callMs(x)));
    split.span += span;
    split.timed += timed;
    split.turns.push(set[0]!.samples.length);
    // The longest watched warmup on its process's own clock (to its steady point, or its last batch): wall time, not CPU.
    const watched = Math.max(0, ...set.map((x) => x.warmup?.steadyAt?.ms ?? x.warmup?.ms[x.warmup.ms.length - 1] ?? 0));
    const kind = kept ? 'kept visits' : 'first visits';
    // The host's waits are the set's, the same on each arm's round (lockstep.ts sampleInTurn; absent in older runs).
    const waits = lockstepOf(set[0]!);
    const v = visits.get(kind) ?? { sets: 0, wall: 0, span: 0, timed: 0, watched: 0, opening: 0, ready: 0, quiet: 0 };
    visits.set(kind, {
      sets: v.sets + 1,
      wall: v.wall + wall,
      span: v.span + span,
      timed: v.timed + timed,
      watched: v.watched + watched,
      opening: v.opening + (waits?.openingUs ?? 0) / 1e3,
      ready: v.ready + (waits?.readyWaitUs ?? 0) / 1e3,
      quiet: v.quiet + (waits?.quietWaitUs ?? 0) / 1e3,
    });
  }
  if (split.sets) byCase.set(c.id, split);
}

const f = (ms: number): string => `${ms.toFixed(0).padStart(6)} ms`;
// Rounds per process, from the rounds' own process labels (each round its own process when they name none).
const allRounds = run.results.flatMap((r) => r.rounds);
const perProcess = allRounds.length / Math.max(1, run.results.reduce((n, r) => n + new Set(processesOf(r.rounds.map(pairable)) ?? r.rounds.map((x) => x.round)).size, 0));
console.log(`${file}: ${run.suite}, ${run.variants.length} variants, ${+perProcess.toFixed(2)} rounds per process`);
console.log(`${'case'.padEnd(64)} sets kept     wall/set   warmup/set     span/set    timed/set  turns`);
const total = { wall: 0, warmup: 0, span: 0, timed: 0 };
for (const [id, s] of byCase) {
  total.wall += s.wall;
  total.warmup += s.warmup;
  total.span += s.span;
  total.timed += s.timed;
  console.log(`${id.slice(0, 63).padEnd(64)} ${String(s.sets).padStart(4)} ${String(s.kept).padStart(4)} ${f(s.wall / s.sets)} ${f(s.warmup / s.sets)} ${f(s.span / s.sets)} ${f(s.timed / s.sets)} ${String(median(s.turns)).padStart(6)}`);
}
const t = run.timing;
console.log(
  `\nrun: ${t ? `${(t.wallMs / 1e3).toFixed(1)} s of wall time, ${(t.timedMs / 1e3).toFixed(1)} s timed (${((100 * t.timedMs) / t.wallMs).toFixed(0)}%); ` : ''}` +
    `the cases' sets ${(total.wall / 1e3).toFixed(1)} s, of which sampling spans ${(total.span / 1e3).toFixed(1)} s, ` +
    `warmup ${(total.warmup / 1e3).toFixed(1)} s of CPU in the longest-warming arm; timed ${(total.timed / 1e3).toFixed(1)} s over all arms`,
);

// First visits against kept ones: what a set costs beyond its sampling span.
const s1 = (ms: number): string => `${(ms / 1e3).toFixed(1)} s`;
for (const [kind, v] of visits) {
  console.log(`${kind}: ${v.sets} case-sets, ${s1(v.wall)} of wall time, sampling spans ${s1(v.span)}, timed ${s1(v.timed)}; outside the spans ${((v.wall - v.span) / v.sets).toFixed(0)} ms a case-set`);
  if (v.watched) console.log(`  outside the spans: the longest watched warmup ${s1(v.watched)} (on its process's clock), the rest (set-up, first call and digest, answers, process starts) ${s1(v.wall - v.span - v.watched)}`);
  if (v.opening) console.log(`  the host took ${s1(v.opening)} opening the sets: taking or starting their processes, sending the case, starting the next case's processes ahead`);
  if (v.ready || v.quiet) console.log(`  the host waited ${s1(v.ready)} for the sets' processes to be warm and ready, then ${s1(v.quiet)} for its other processes (ending, or loading ahead) before the first turn`);
}

// One sample's cost per runtime, from what the host and the process recorded beside each sample.
const perSample = new Map<string, { wait: number[]; span: number[]; timed: number[] }>();
for (const r of run.results) {
  for (const x of r.rounds) {
    const waits = lockstepOf(x)?.hostWaitUs;
    const spans = lockstepOf(x)?.spanUs;
    if (!waits) continue;
    // Batches of 4 ms or more (core run-up.ts NO_PRE_BATCH_NS): a bucket of their own, their run-up a call or a few (none in older runs).
    const long = median(x.samples) * x.iterationsPerSample >= NO_PRE_BATCH_NS;
    const key = `${r.variantId}, batches ${long ? '≥' : '<'} 4 ms`;
    const p = perSample.get(key) ?? { wait: [], span: [], timed: [] };
    x.samples.forEach((ns, i) => {
      p.wait.push(waits[i]!);
      if (spans) p.span.push(spans[i]!);
      p.timed.push((ns * x.iterationsPerSample) / 1e3);
    });
    perSample.set(key, p);
  }
}
if (perSample.size) console.log('\none sample (medians): host wait / span on the process\'s clock / timed batch');
for (const [variant, p] of perSample) {
  const us = (xs: number[]): string => (xs.length ? `${(median(xs) / 1e3).toFixed(2)} ms` : '—');
  console.log(`  ${variant.padEnd(36)} ${us(p.wait)} / ${us(p.span)} / ${us(p.timed)}  (${p.timed.length} samples)`);
}
