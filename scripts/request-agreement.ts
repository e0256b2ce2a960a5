/**
 * Agreement of CPU per request with the in-runtime loop: request-tail's
 * steady handler as a request case (its p50 of CPU per request on the
 * JavaScript thread, and the empty handler's beside it) against the same
 * work as an ordinary case (scripts/request-agreement/, its median per call),
 * per runtime. The handler's own work is the steady p50 less the empty
 * handler's p50, both read in the same processes; both figures are printed.
 *
 *   npx tsx scripts/request-agreement.ts [--lock /tmp/rtbench-measure.lock] [-- bench args]
 *
 * Two runs, one after the other, each holding the lock alone. Prints the load.
 */
import { benchView } from '@rtbench/report';
import { benchRun, loadText } from './lib.ts';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash < 0 ? argv : argv.slice(0, dash);
const extra = dash < 0 ? ['--runtime', 'node,deno,bun,workerd'] : argv.slice(dash + 1);
const lockAt = own.indexOf('--lock');
const lock = lockAt < 0 ? undefined : own[lockAt + 1];

console.log(`load before: ${loadText()}`);
const requests = benchRun(['request-tail', '--filter', 'steady handler,empty handler', ...extra], lock);
console.log(`request run: ${(requests.wallMs / 1e3).toFixed(0)} s, load ${loadText()}, saved ${requests.path}`);
const loop = benchRun(['scripts/request-agreement', ...extra], lock);
console.log(`loop run: ${(loop.wallMs / 1e3).toFixed(0)} s, load ${loadText()}, saved ${loop.path}`);
if (requests.status !== 0 || loop.status !== 0) console.log(`! exit codes: request run ${requests.status}, loop run ${loop.status}`);

const rows = benchView(requests.run).requests?.rows ?? [];
const p50 = (caseName: string, variant: string): number | undefined => rows.find((r) => r.variantId === variant && r.caseId.startsWith(caseName) && r.caseId.includes('cpu=js thread'))?.distribution.quantiles.p50.value;
const loopView = benchView(loop.run);

console.log('\nruntime    request p50   empty p50   handler (p50 − empty)   loop median   handler / loop   request p50 / loop');
for (const variant of loop.run.variants.map((v) => v.id)) {
  const steady = p50('steady handler', variant);
  const empty = p50('empty handler', variant);
  const medianMs = (loopView.cases[0]?.rows.find((r) => r.variantId === variant)?.stats?.median ?? NaN) / 1e6;
  if (steady === undefined || empty === undefined || !(medianMs > 0)) {
    console.log(`${variant.padEnd(10)} missing (request p50 ${steady}, empty ${empty}, loop ${medianMs})`);
    continue;
  }
  const handler = steady - empty;
  const f = (ms: number): string => `${ms.toFixed(3)} ms`;
  console.log(`${variant.padEnd(10)} ${f(steady).padStart(11)}   ${f(empty).padStart(9)}   ${f(handler).padStart(21)}   ${f(medianMs).padStart(11)}   ${(handler / medianMs).toFixed(3).padStart(14)}   ${(steady / medianMs).toFixed(3).padStart(18)}`);
}
