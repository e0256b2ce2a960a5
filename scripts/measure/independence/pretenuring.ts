/**
 * Whether a case's cost in a fresh process hangs on V8's allocation-site
 * pretenuring: V8 decides, per allocation site and once, from how much of
 * what the site allocated survived the early scavenges, whether the site
 * allocates straight into the old generation, and a process's samples then
 * stay in the state it chose. A workload's call (plain-program/workloads.ts) timed in
 * fresh processes of each V8 runtime, with pretenuring as shipped, after a
 * full collection forced before the call's set-up (what a warm process's
 * first case met until it no longer took one), and with
 * `--no-allocation-site-pretenuring`, in two loop shapes: one call at a time,
 * and batches of four calls through a helper (as a harness's batch calls a
 * case). 1 s of warm-up, then 30 samples of at least 20 ms; it prints each
 * process's median ms per call.
 *
 *   npx tsx scripts/measure/independence/pretenuring.ts [--workload records-100k] [--runs 6] [--runtime node,deno]
 *
 * `--from <run>` instead reads a saved run (rtbench's own processes, e.g.
 * `bench gc-pressure --filter retained --compare node@26 "node@26
 * --no-allocation-site-pretenuring" --save <run>`) and prints each cell's
 * processes' medians, lowest to highest.
 *
 * Run it on a quiet machine (`flock /tmp/rtbench-measure.lock …` on a shared one).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseRun } from '@rtbench/core/schema';
import { processesOf, summarizeRounds } from '@rtbench/stats';
import { pairable } from '../../../packages/measurer-records/src/index.ts';
import { machineSpeedText } from '../../lib.ts';
import { bundledProgram } from './plain-program/bundled.ts';
import { workloadSource } from './plain-program/workloads.ts';

const { values } = parseArgs({ options: { workload: { type: 'string', default: 'records-100k' }, runs: { type: 'string', default: '6' }, runtime: { type: 'string', default: 'node,deno' }, from: { type: 'string' } } });
const runs = Number(values.runs);

const SHAPES = [
  { name: 'one call at a time', arg: 'single' },
  { name: 'batches of four', arg: 'batch4' },
] as const;
/** Each process's engine: as shipped; with a full collection forced before the workload's set-up (as a warm process once took one before every case); with pretenuring off. */
const PRETENURING = [
  { name: 'as shipped', flags: [], arg: 'plain' },
  { name: 'collected first', flags: ['--expose-gc'], arg: 'collect-first' },
  { name: 'pretenuring off', flags: ['--no-allocation-site-pretenuring'], arg: 'plain' },
] as const;

/** The program each process runs: argv whether to collect first and its loop's shape; prints one line of JSON. */
const PROGRAM = `
if (process.argv.at(-2) === 'collect-first') globalThis.gc();
${workloadSource(values.workload)}
const batched = process.argv.at(-1) === 'batch4';
let sink = 0;
const batch = (n) => { for (let i = 0; i < n; i++) sink += call(); };
const step = batched ? () => batch(4) : () => { sink += call(); };
const perStep = batched ? 4 : 1;
const warm = performance.now();
while (performance.now() - warm < 1000) step();
const samples = [];
for (let i = 0; i < 30; i++) {
  let calls = 0;
  const s = performance.now();
  do { step(); calls += perStep; } while (performance.now() - s < 20);
  samples.push((performance.now() - s) / calls);
}
samples.sort((a, b) => a - b);
console.log(JSON.stringify({ msPerCall: samples[15], sink }));
`;

/** Per cell of a saved run, the median of each of its processes' samples as the table pools them (a round its own process where the run kept no label). */
function printProcesses(file: string): void {
  const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
  for (const result of run.results) {
    const rounds = result.rounds.filter((r) => r.samples.length).map(pairable);
    const processes = processesOf(rounds);
    const perProcess = rounds.length ? summarizeRounds(rounds.map((r) => r.samples), processes ? { processes } : {}).processMedians : [];
    const medians = perProcess.map((ns) => ns / 1e3).sort((a, b) => a - b);
    console.log(`${result.variantId}  ${result.caseId}\n  ${medians.length} processes, µs: ${medians.map((m) => m.toFixed(m < 1000 ? 1 : 0)).join(' ')}`);
  }
}

if (values.from !== undefined) {
  printProcesses(values.from);
  process.exit(0);
}

const program = await bundledProgram(PROGRAM);
try {
  console.log(`${new Date().toISOString()}  ${machineSpeedText()}  ${values.workload}: ${runs} fresh processes per runtime, pretenuring and shape`);
  for (const spec of values.runtime.split(',')) {
    for (const pretenuring of PRETENURING) {
      const runner = await program.runner(spec, pretenuring.flags);
      for (const shape of SHAPES) {
        const ms = Array.from({ length: runs }, () => runner.run<{ msPerCall: number }>([pretenuring.arg, shape.arg]).msPerCall);
        const text = ms.map((m) => (m < 1 ? `${(m * 1000).toFixed(1)} µs` : `${m.toFixed(2)} ms`)).join(', ');
        console.log(`${spec.padEnd(6)} ${pretenuring.name.padEnd(16)} ${shape.name.padEnd(19)} per call: ${text}`);
      }
    }
  }
} finally {
  program.remove();
}
