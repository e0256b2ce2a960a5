/**
 * Agreement of CPU per request with the in-runtime loop, per runtime:
 * request-tail's steady handler, the same work without reading the body,
 * the work twice, and a handler that only reads the body, as request cases
 * (scripts/measure/requests/request-agreement/requests.ts: p50 of CPU per request on the
 * JavaScript thread, and each case's empty-handler p50 from the same
 * processes), against the same work as an ordinary case
 * (scripts/measure/requests/request-agreement/, its median per call). The work's own cost is
 * read two ways: the work-only p50 less its processes' empty-handler p50,
 * and the work-twice p50 less the work-only p50 (the second call, with no
 * server code in it); what the work-only request holds beyond that second
 * call is the server's part around the handler, printed beside the empty
 * handler's. Every figure they are made from is printed, and each process's
 * median of the two work handlers: a process whose handler's work stayed
 * in V8's middle tier (on workerd, when its top-tier compile outlasts the
 * request) stands apart from the others.
 *
 *   npx tsx scripts/measure/requests/request-agreement.ts [--lock /tmp/rtbench-measure.lock] [-- bench args]
 *
 * Two runs, one after the other, each holding the lock alone. Prints the load.
 */
import { benchView } from '@rtbench/report';
import { median } from '../../../packages/stats/src/index.ts';
import { benchRun, loadText, machineSpeedText } from '../../lib.ts';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash < 0 ? argv : argv.slice(0, dash);
const extra = dash < 0 ? ['--runtime', 'node,deno,bun,workerd'] : argv.slice(dash + 1);
const lockAt = own.indexOf('--lock');
const lock = lockAt < 0 ? undefined : own[lockAt + 1];

console.log(`before: ${machineSpeedText()}`);
const requests = benchRun(['scripts/measure/requests/request-agreement/requests.ts', ...extra], lock);
console.log(`request run: ${(requests.wallMs / 1e3).toFixed(0)} s, load ${loadText()}, saved ${requests.path}`);
const loop = benchRun(['scripts/measure/requests/request-agreement', ...extra], lock);
console.log(`loop run: ${(loop.wallMs / 1e3).toFixed(0)} s, load ${loadText()}, saved ${loop.path}`);
if (requests.status !== 0 || loop.status !== 0) console.log(`! exit codes: request run ${requests.status}, loop run ${loop.status}`);

const rows = benchView(requests.run).cpuPerRequest?.rows ?? [];
const p50 = (caseName: string, cpu: string, variant: string): number | undefined => rows.find((r) => r.variantId === variant && r.caseId.startsWith(caseName) && r.caseId.includes(`cpu=${cpu}`))?.distribution?.quantiles.p50.value;
const loopView = benchView(loop.run);
const f = (ms: number | undefined): string => (ms === undefined ? 'missing' : `${ms.toFixed(3)} ms`);

const ratio = (ms: number | undefined, loopMs: number): string => (ms !== undefined && loopMs > 0 ? (ms / loopMs).toFixed(3) : 'missing');
const less = (a: number | undefined, b: number | undefined): number | undefined => (a !== undefined && b !== undefined ? a - b : undefined);

console.log('\nCPU per request on the JavaScript thread, p50; loop: median per call');
console.log('runtime    steady      work only   its empty   body read   work (only − empty)   2nd call (twice − only)   server part (only − 2nd)   loop median   work / loop   2nd call / loop');
for (const variant of loop.run.variants.map((v) => v.id)) {
  const workOnly = p50('work without body', 'js thread', variant);
  const empty = p50('work without body', 'empty handler', variant);
  const medianMs = (loopView.cases[0]?.rows.find((r) => r.variantId === variant)?.stats?.median ?? NaN) / 1e6;
  const work = less(workOnly, empty);
  const second = less(p50('work twice without body', 'js thread', variant), workOnly);
  const cells = [
    f(p50('steady handler', 'js thread', variant)).padStart(9),
    f(workOnly).padStart(9),
    f(empty).padStart(9),
    f(less(p50('empty reads body', 'js thread', variant), p50('empty reads body', 'empty handler', variant))).padStart(9),
    f(work).padStart(19),
    f(second).padStart(23),
    f(less(workOnly, second)).padStart(24),
    f(medianMs > 0 ? medianMs : undefined).padStart(11),
    ratio(work, medianMs).padStart(11),
    ratio(second, medianMs).padStart(15),
  ];
  console.log(`${variant.padEnd(10)} ${cells.join('   ')}`);
}
console.log('2nd call: the work once more in the same request, so the server\'s part is not in it; server part: the work-only request less that, against its empty handler');

// A process whose handler never got the work into V8's top tier reads far above the others: per process, the split shows.
console.log('\nper process, the median of its warm requests (ms), in the order run');
for (const caseName of ['work without body', 'work twice without body']) {
  for (const result of requests.run.results.filter((r) => r.caseId.startsWith(caseName) && r.caseId.includes('cpu=js thread'))) {
    console.log(`${result.variantId.padEnd(10)} ${caseName.padEnd(24)} ${result.rounds.map((round) => (round.samples.length > 1 ? median(round.samples.slice(1)).toFixed(2) : 'missing')).join('  ')}`);
  }
}
