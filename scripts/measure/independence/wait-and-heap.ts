/**
 * What a turn's wait does to an engine that paces its full collections by
 * the program's allocation rate (docs/lockstep.md, "A longer run-up"), per
 * runtime: one allocating call (--workload, below) in samples of ~20 ms, in a
 * fresh process per schedule, after a 1 s warm-up:
 *
 *   back to back        samples with nothing between them (a long loop)
 *   a turn in four      each sample after a run-up of one batch and a wait of three others' run-ups and samples,
 *                       blocked as a lockstep process blocks on its input (the default run-up)
 *   three batches       the same with a run-up of three batches
 *   --run-up 150ms      the same with 150 ms of run-up
 *
 * It prints the median µs per call over the samples and, on V8 (node and
 * deno, through node:v8's GCProfiler), the full (mark-compact) collections
 * per 1,000 timed calls and the young generation's size at the end; on every
 * runtime the minor page faults per timed call.
 *
 * Workloads (plain-program/workloads.ts): concat-50, the default,
 * retained-200k, retained-20k, records-100k, records-25k.
 *
 *   npx tsx scripts/measure/independence/wait-and-heap.ts [--workload concat-50] [--runs 2] [--runtime node,deno,bun] [--samples 30]
 *
 * Run it on a quiet machine (`flock /tmp/rtbench-measure.lock …` on a shared one).
 */
import { parseArgs } from 'node:util';
import { median } from '@rtbench/stats';
import { machineSpeedText } from '../../lib.ts';
import { bundledProgram } from './plain-program/bundled.ts';
import { workloadSource } from './plain-program/workloads.ts';

const { values } = parseArgs({ options: { workload: { type: 'string', default: 'concat-50' }, runs: { type: 'string', default: '2' }, runtime: { type: 'string', default: 'node,deno,bun' }, samples: { type: 'string', default: '30' } } });
const runs = Number(values.runs);

/** A schedule: the run-up before each sample (none, batches, or ms); the wait is three others' run-ups and samples. */
const SCHEDULES = [
  { name: 'back to back', runUp: 'none' },
  { name: 'a turn in four', runUp: '1' },
  { name: 'three batches', runUp: '3' },
  { name: '--run-up 150ms', runUp: '150ms' },
] as const;

const workload = workloadSource(values.workload);

/** The program each process runs: argv run-up and samples; prints one line of JSON. */
const PROGRAM = `
import * as v8 from 'node:v8';
${workload}
const [runUp, samples] = process.argv.slice(-2);
let sink = 0;
const batch = (n) => { for (let i = 0; i < n; i++) sink += call(); };
let n = 1;
for (;;) { const s = performance.now(); batch(n); if (performance.now() - s >= 20) break; n *= 2; }
const warm = performance.now();
while (performance.now() - warm < 1000) batch(n);
// The sample's length: the median of five batches (one may be preempted, and the waits are three of it).
const lengths = [0, 1, 2, 3, 4].map(() => { const s = performance.now(); batch(n); return performance.now() - s; }).sort((a, b) => a - b);
const sampleMs = lengths[2];
const runUpCalls = runUp === 'none' ? 0 : runUp.endsWith('ms') ? Math.ceil((parseFloat(runUp) * n) / sampleMs) : Number(runUp) * n;
const waitMs = runUp === 'none' ? 0 : (3 * (sampleMs * (runUpCalls + n))) / n;
const blocked = new Int32Array(new SharedArrayBuffer(4));
// V8's collection types: bun's node:v8 is not its engine's.
let profiler; try { if (!globalThis.Bun) profiler = new v8.GCProfiler(); } catch {}
let full = 0;
let faults = 0;
const perCall = [];
for (let i = 0; i < Number(samples); i++) {
  if (waitMs) Atomics.wait(blocked, 0, 0, waitMs);
  batch(runUpCalls);
  profiler?.start();
  const before = process.resourceUsage().minorPageFault;
  const s = performance.now(); batch(n); perCall.push(((performance.now() - s) * 1000) / n);
  faults += process.resourceUsage().minorPageFault - before;
  const stats = profiler?.stop();
  for (const e of stats?.statistics ?? []) if (e.gcType === 'MarkSweepCompact') full++;
}
// The young generation's size at the end (V8's new space: both semi-spaces), where node:v8 reports it.
let youngMB = null; try { if (!globalThis.Bun) youngMB = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20; } catch {}
console.log(JSON.stringify({ perCall, fullPer1k: profiler ? (full * 1000) / (n * perCall.length) : null, faultsPerCall: faults / (n * perCall.length), youngMB, sampleMs, waitMs, sink }));
`;

const program = await bundledProgram(PROGRAM);
try {
  console.log(`${new Date().toISOString()}  ${machineSpeedText()}  ${values.workload}: ${runs} fresh processes per runtime and schedule, ${values.samples} samples each`);
  for (const spec of values.runtime.split(',')) {
    const runner = await program.runner(spec);
    for (const schedule of SCHEDULES) {
      const per: { us: number; full: number | null; faults: number; youngMB: number | null; waitMs: number }[] = [];
      for (let i = 0; i < runs; i++) {
        const out = runner.run<{ perCall: number[]; fullPer1k: number | null; faultsPerCall: number; youngMB: number | null; waitMs: number }>([schedule.runUp, values.samples], runner.waitingEnv);
        per.push({ us: median(out.perCall), full: out.fullPer1k, faults: out.faultsPerCall, youngMB: out.youngMB, waitMs: out.waitMs });
      }
      const full = per[0]!.full === null ? '' : `  full collections/1k calls ${per.map((p) => p.full!.toFixed(2)).join(', ')}`;
      const young = per[0]!.youngMB === null ? '' : `  young MB ${per.map((p) => p.youngMB!.toFixed(1)).join(', ')}`;
      console.log(`${spec.padEnd(8)} ${schedule.name.padEnd(15)} wait ${per.map((p) => p.waitMs.toFixed(0)).join(', ').padEnd(9)} ms  µs/call ${per.map((p) => p.us.toFixed(2)).join(', ')}  page faults/call ${per.map((p) => p.faults.toFixed(1)).join(', ')}${full}${young}`);
    }
  }
} finally {
  program.remove();
}
