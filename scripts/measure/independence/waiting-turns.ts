/**
 * What waiting its turn costs a process's next sample, per runtime: a case's
 * call (json-reviver's `JSON.stringify` of its 10 KB document) timed in
 * bursts of 40 ms, back to back and with 150 ms of idling between bursts (a
 * lockstep process waits about that while three others take their turns),
 * in a fresh process each, with the minor page faults each call took
 * (process.resourceUsage). Each runtime as shipped, and with the environment
 * its plug-in gives a process that waits its turn (RuntimePlugin.waitingEnv),
 * where it has one. The median µs per call over the bursts after the first
 * five (its first ~2,000 calls: bun's stringify faults its heap in over them
 * whether or not it waits), and its page faults per call.
 *
 *   npx tsx scripts/measure/independence/waiting-turns.ts [--runs 3] [--runtime node,deno,bun]
 *
 * Run it on a quiet machine (`flock /tmp/rtbench-measure.lock …` on a shared one).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@rtbench/stats';
import { machineSpeedText } from '../../lib.ts';
import { bundledProgram } from './plain-program/bundled.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, runtime: { type: 'string', default: 'node,deno,bun' } } });
const runs = Number(values.runs);

/** The program each process runs: prints one line of JSON, [µs per call, page faults per call] per burst. */
const PROGRAM = `
import { flightDocument, SIZES } from ${JSON.stringify(join(process.cwd(), 'bench/json-reviver/document.ts'))};
const value = JSON.parse(flightDocument(SIZES['10kb']));
const idleMs = Number(process.argv.at(-1));
const faults = () => process.resourceUsage().minorPageFault;
let sink = 0;
const bursts = [];
const started = performance.now();
while (performance.now() - started < 3000) {
  const f = faults(); const s = performance.now(); let n = 0;
  while (performance.now() - s < 40) { sink += JSON.stringify(value).length; n++; }
  bursts.push([((performance.now() - s) * 1000) / n, (faults() - f) / n]);
  if (idleMs) await new Promise((r) => setTimeout(r, idleMs));
}
console.log(JSON.stringify({ bursts, sink }));
`;

const program = await bundledProgram(PROGRAM);
try {
  console.log(`${new Date().toISOString()}  ${machineSpeedText()}  ${runs} fresh processes each`);
  for (const spec of values.runtime.split(',')) {
    const runner = await program.runner(spec);
    const envs: [string, Readonly<Record<string, string>>][] = [['as shipped', {}], ...(runner.waitingEnv ? [[Object.entries(runner.waitingEnv).map(([k, v]) => `${k}=${v}`).join(' '), runner.waitingEnv] as [string, Readonly<Record<string, string>>]] : [])];
    for (const [name, env] of envs) {
      for (const idleMs of [0, 150]) {
        const per: { us: number; faults: number }[] = [];
        for (let i = 0; i < runs; i++) {
          const { bursts } = runner.run<{ bursts: [number, number][] }>([String(idleMs)], env);
          const later = bursts.slice(5);
          per.push({ us: median(later.map((b) => b[0])), faults: median(later.map((b) => b[1])) });
        }
        const us = per.map((p) => p.us.toFixed(1)).join(', ');
        console.log(`${spec.padEnd(8)} ${name.padEnd(26)} ${idleMs ? 'idle 150 ms between bursts' : 'back to back             '}  µs/call ${us}  page faults/call ${per.map((p) => p.faults.toFixed(2)).join(', ')}`);
      }
    }
  }
} finally {
  program.remove();
}
