/**
 * What a lockstep sample's shape does to an allocating case's cost, in fresh
 * processes (docs/how-a-number-is-made.md, "Against a long loop"). Per
 * runtime whose programs run as processes, each mode in turn in a process of
 * its own (`pre-batch.mjs`), `--repeat` times: `loop` (batches back to back,
 * as a long loop), `quarter` (an idle wait of 5 ms, then a quarter batch
 * untimed, then the timed batch: lockstep's sample before a span grows) and
 * `whole` (the wait, then a whole batch untimed: a sample whose span grew).
 * Prints the median over processes of the time per timed call (as a sample
 * reads it: run it on a quiet machine) and each mode's ratio to `loop`;
 * every thread's CPU per call beside it.
 *
 *   npx tsx scripts/measure/lockstep/long-loop-check/pre-batch.ts                          encode, 2·10⁶ calls in batches of 10⁴, 3 processes per mode
 *   npx tsx scripts/measure/lockstep/long-loop-check/pre-batch.ts --case csv --runtime node,bun --repeat 5
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pluginForSpec, runtimePlugins } from '@rtbench/runtime-registry';
import { median } from '@rtbench/stats';
import { machineSpeedText } from '../../../lib.ts';

const MODES = [
  { name: 'loop', wait: 0, pre: 0 },
  { name: 'quarter', wait: 5, pre: 0.25 },
  { name: 'whole', wait: 5, pre: 1 },
] as const;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

const kase = option('--case', 'encode');
const calls = Number(option('--calls', '2000000'));
const batch = Number(option('--batch', '10000'));
const repeat = Number(option('--repeat', '3'));
const specs = option('--runtime', runtimePlugins().filter((p) => p.programs.kind === 'process').map((p) => p.name).join(',')).split(',');
const probe = join(import.meta.dirname, 'pre-batch.mjs');

console.log(`${kase}: ${calls} timed calls in batches of ${batch} per process, ${repeat} processes per mode; ${machineSpeedText()}`);
for (const spec of specs) {
  const plugin = pluginForSpec(spec);
  if (!plugin || plugin.programs.kind !== 'process') {
    console.log(`  ${spec}: runs no plain program`);
    continue;
  }
  const target = await plugin.resolve(spec);
  const run = plugin.programs.command(target, plugin.translateFlags([]), probe, { permissions: { read: true } });
  const readings = new Map<string, { timed: number; all: number }[]>(MODES.map((m) => [m.name, []]));
  for (let r = 0; r < repeat; r++) {
    for (const m of MODES) {
      const out = spawnSync(run.command, [...run.args, kase, String(calls), String(batch), String(m.wait), String(m.pre)], { env: run.env, encoding: 'utf8' });
      const last = out.stdout.trim().split('\n').at(-1) ?? '';
      if (out.status !== 0 || !last.startsWith('{')) throw new Error(`${spec} ${m.name}: exit ${out.status}: ${out.stderr.trim().split('\n').at(-1) ?? ''}`);
      const { perTimedCall, allThreadsPerCall } = JSON.parse(last) as { perTimedCall: number; allThreadsPerCall: number };
      readings.get(m.name)!.push({ timed: perTimedCall, all: allThreadsPerCall });
    }
  }
  const loop = median(readings.get('loop')!.map((x) => x.timed));
  const cells = MODES.map((m) => {
    const timed = median(readings.get(m.name)!.map((x) => x.timed));
    const all = median(readings.get(m.name)!.map((x) => x.all));
    return `${m.name} ${timed.toFixed(1)} ns (${(timed / loop).toFixed(2)}; all threads' CPU ${all.toFixed(1)} ns)`;
  });
  console.log(`  ${spec.padEnd(8)} per timed call: ${cells.join(', ')}`);
}
