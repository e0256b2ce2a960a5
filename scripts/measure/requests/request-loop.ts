/**
 * CPU per request against the in-process loop, per runtime: two Workers
 * (scripts/measure/requests/request-loop/: a plain computed page of about 1.8 MB, a React
 * renderToString page of about 1.1 MB), each read two ways by one `rtbench
 * run` of scripts/measure/requests/request-loop/in-process.js, by the same clock (the host's
 * read of the JavaScript thread's CPU from /proc), the same steady rule and
 * fresh processes, one process serving both paths in a mix drawn alike for
 * every process:
 *
 * - the request path: `GET /?page=<page>`, the page's own response sent by
 *   the runtime's own server;
 * - the loop at one call a request: `GET /?page=<page>&calls=1&read=bytes`
 *   calls the page's `fetch` in the process and reads its body as bytes
 *   (`arrayBuffer()`), read per call (each call's p50, as the request
 *   path's is each request's), less the same process's empty handler. Bytes,
 *   since a server must make the body's bytes on every runtime, while
 *   `text()` hands back the string it was given on some runtimes and skips
 *   that work; the same call read by `text()` (`&calls=1`) is served in the
 *   same mix and printed beside as a reference.
 *
 * Prints each runtime's ratio to the first by each path, their quotient
 * (the target wants 0.85–1.15), its 95% interval from whole rounds
 * resampled (request-loop-ratio.ts) and whether the interval lies within;
 * then the same against the call read by `text()`.
 * With --parts, a second run serves each path as its own case and also:
 * the loop of several calls back to back, the loop at one call reading the
 * body as bytes (`arrayBuffer()`), the same page's text made once and sent
 * as a response (what the server pays for the body) and read by `text()`
 * (what the loop pays to read it), and the ratios with those parts taken
 * out of each; by p50 and by mean.
 *
 *   npx tsx scripts/measure/requests/request-loop.ts [--rounds 20] [--page plain,react] [--runtime node,deno,bun,workerd] [--parts] [--lock /tmp/rtbench-measure.lock] [--from <dir>]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { steadyStart } from '@rtbench/core/cpu-per-request';
import type { RunRecord } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { requestsOf } from '../../../packages/measurer-records/src/index.ts';
import { median } from '../../../packages/stats/src/index.ts';
import { loadText, machineSpeedText, readRun, repoRoot } from '../../lib.ts';
import { BAND, ratioCells, type PathRounds } from './request-loop-ratio.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`);
  return at < 0 ? undefined : argv[at + 1];
};
// Twenty rounds (processes a runtime): two runs of six once moved one quotient by 0.12, the band's whole margin.
const rounds = option('rounds') ?? '20';
const parts = argv.includes('--parts');
const runtimes = option('runtime') ?? 'node,deno,bun,workerd';
const lock = option('lock');
const PAGES = ['plain', 'react'] as const;
type Page = (typeof PAGES)[number];
const pages = (option('page')?.split(',') ?? PAGES).filter((p): p is Page => (PAGES as readonly string[]).includes(p));
// --from <dir>: read the runs a former run of this script saved there instead of running them.
const from = option('from');
const dir = from ?? mkdtempSync(join(tmpdir(), 'rtbench-request-loop-'));
/** Calls of the page a loop request makes: about 30 ms of work, against which the server's part of one request (less than 1 ms) is taken out. */
const LOOP_CALLS: Record<Page, number> = { plain: 8, react: 2 };

/** `rtbench run <worker> <args>` saved to `name`.json: the run, its wall time and exit status. */
function rtbenchRun(name: string, worker: string, args: string[]): { run: RunRecord; seconds: number; status: number | null } {
  const out = join(dir, `${name}.json`);
  if (from !== undefined) return { run: readRun(out), seconds: 0, status: null };
  const command = [process.execPath, join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'run', join('scripts/measure/requests/request-loop', worker), '--runtime', runtimes, '--rounds', rounds, ...args, '--quiet', '--save', out];
  const [file, ...rest] = lock ? ['flock', lock, ...command] : command;
  const started = performance.now();
  const r = spawnSync(file!, rest, { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  return { run: readRun(out), seconds: (performance.now() - started) / 1e3, status: r.status };
}

/** The requests of the in-process Worker for one page (scripts/measure/requests/request-loop/in-process.js): the target's mix draws three, --parts serves each as its own case. */
const loopRequests = (page: Page) => ({
  request: `GET /?page=${page}`,
  alone: `GET /?page=${page}&calls=1`,
  loop: `GET /?page=${page}&calls=${LOOP_CALLS[page]}`,
  bytes: `GET /?page=${page}&calls=1&read=bytes`,
  sent: `GET /?page=${page}&body=ready`,
  read: `GET /?page=${page}&body=ready&calls=${LOOP_CALLS[page]}`,
});

/** Requests a process serves of the target's mix: about 60 of each kind, steady from the first few. */
const PAIRED_REQUESTS = 180;

/**
 * The target's paths as one mix, drawn alike for every process: the page's
 * response (`request`), the loop's one call reading the body as bytes
 * (`bytes`, the target's loop) and read by `text()` (`text`, the
 * reference). Served by one process, what differs between processes (the
 * allocator's state, the tier the page's code reached) is in every path's
 * figures and cancels in their ratio. Returns the --requests file, written
 * into the run's folder.
 */
function pairedMix(page: Page): string {
  const file = join(dir, `${page}-paths.json`);
  const asked = loopRequests(page);
  const mix = [
    { name: 'request', weight: 1, request: asked.request },
    { name: 'bytes', weight: 1, request: asked.bytes },
    { name: 'text', weight: 1, request: asked.alone },
  ];
  if (from === undefined) writeFileSync(file, JSON.stringify({ mix, requests: PAIRED_REQUESTS }));
  return file;
}

/** How a figure is taken from a request's steady samples: their pooled p50, or the median over processes of each one's mean (every collection counted). */
type By = 'p50' | 'mean';

/** One request's figures on a variant (by p50 and by mean), its empty handler's, and the spread of its processes' steady medians. */
interface Read {
  p50: number;
  mean: number;
  empty: Record<By, number>;
  processes: [number, number];
  warmup?: { warmupRequests?: number; unsteady: number; processes: number };
}

/** Each round's steady samples (from its steady point; never steady, its later half), in round order (a round not served: empty). */
function steadyOf(run: RunRecord, caseId: string | undefined, variant: string): number[][] {
  const rounds = run.results.find((r) => r.caseId === caseId && r.variantId === variant)?.rounds ?? [];
  return rounds.map((r) => r.samples.slice(steadyStart(r.samples.length, requestsOf(r)?.phases)));
}

const caseIdOf = (run: RunRecord, request: string, figure: string): string | undefined => run.cases.find((c) => c.id === `${request} [cpu=${figure}]`)?.id;

const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function readOf(run: RunRecord, request: string, variant: string): Read | undefined {
  const rows = benchView(run).cpuPerRequest?.rows ?? [];
  const caseOf = (figure: string) => caseIdOf(run, request, figure);
  const row = (figure: string) => rows.find((r) => r.caseId === caseOf(figure) && r.variantId === variant);
  const js = row('js thread');
  const p50 = js?.distribution?.quantiles.p50.value;
  const emptyP50 = row('empty handler')?.distribution?.quantiles.p50.value;
  const steady = steadyOf(run, caseOf('js thread'), variant).filter((s) => s.length > 0);
  const emptySteady = steadyOf(run, caseOf('empty handler'), variant).filter((s) => s.length > 0);
  if (p50 === undefined || emptyP50 === undefined || !steady.length || !emptySteady.length) return undefined;
  const medians = steady.map((s) => median(s));
  return {
    p50,
    mean: median(steady.map(meanOf)),
    empty: { p50: emptyP50, mean: median(emptySteady.map(meanOf)) },
    processes: [Math.min(...medians), Math.max(...medians)],
    ...(js?.phases ? { warmup: js.phases } : {}),
  };
}

const ms = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(2));
const ratio = (x: number | undefined, base: number | undefined): number | undefined => (x !== undefined && base !== undefined && base > 0 ? x / base : undefined);
const spread = (r: Read | undefined, per = 1): string => (r ? `${ms(r.processes[0] / per)}–${ms(r.processes[1] / per)}` : '—');
const warmText = (r: Read | undefined): string => (r?.warmup ? `${r.warmup.warmupRequests ?? '—'} req; ${r.warmup.unsteady}/${r.warmup.processes} never` : '—');
/** A loop request's CPU per call: its figure less its process's empty handler's (the server's part of any request), over its calls. */
const perCall = (r: Read | undefined, calls: number, by: By): number | undefined => (r ? (r[by] - r.empty[by]) / calls : undefined);
const row = (cells: readonly [string, number][]): string => cells.map(([text, width], i) => (i === 0 ? text.padEnd(width) : text.padStart(width))).join(' ');

/** A page's figures on one runtime, by p50 or by mean: the request path, the loop per call (back to back and one a request), and each path's body part. */
function figuresOf(reads: Record<keyof ReturnType<typeof loopRequests>, Read | undefined>, calls: number, by: By) {
  const { request, loop, alone, bytes, sent, read } = reads;
  return {
    request: request?.[by],
    loop: perCall(loop, calls, by),
    alone: perCall(alone, 1, by),
    bytes: perCall(bytes, 1, by),
    // The body's part on each path: the ready text sent, less an empty request; read by text(), per call.
    sent: perCall(sent, 1, by),
    read: perCall(read, calls, by),
  };
}

/** A runtime's steady samples per round of each path, split by kind from the one process that served them all, and that process's empty handler. */
function pathRounds(run: RunRecord, page: Page, variant: string) {
  const caseOf = (figure: string) => caseIdOf(run, `mix (${page}-paths.json)`, figure);
  const rounds = run.results.find((r) => r.caseId === caseOf('js thread') && r.variantId === variant)?.rounds ?? [];
  const ofKind = (kind: string) =>
    rounds.map((r) => {
      const requests = requestsOf(r);
      const from = steadyStart(r.samples.length, requests?.phases);
      return r.samples.flatMap((ms, i) => (i >= from && requests?.kinds?.[i] === kind ? [ms] : []));
    });
  const unsteady = rounds.filter((r) => requestsOf(r)?.phases && requestsOf(r)?.phases?.steadyFrom === undefined).length;
  const text = ofKind('text');
  return {
    request: ofKind('request'),
    bytes: ofKind('bytes'),
    // A mix saved before the loop read bytes named its text() call `call`.
    text: text.some((r) => r.length) ? text : ofKind('call'),
    callEmpty: steadyOf(run, caseOf('empty handler'), variant),
    unsteady,
  };
}

const pooled = (rounds: readonly (readonly number[])[]): number | undefined => (rounds.some((r) => r.length) ? median(rounds.flat()) : undefined);

/** The two loops the request path is read against: the target's (bytes) and the reference (text()). */
const LOOPS = [
  { read: 'bytes', says: 'the target: request path ÷ loop at one call a request reading the body as bytes (arrayBuffer(): the bytes a server must make)' },
  { read: 'text', says: 'reference: request path ÷ the same call reading the body by text() (on some runtimes the string it was given, no bytes made)' },
] as const;

/** The target: each runtime's figures by each path, and its request ÷ one-call loop against the first with its interval over rounds and the verdict; then the same against text(). */
function printTarget(run: RunRecord, page: Page): void {
  const all = run.variants.map(({ id }) => ({ id, rounds: pathRounds(run, page, id) }));
  const perCallOf = (calls: PathRounds['call'], empty: PathRounds['callEmpty']): string => {
    const call = pooled(calls);
    const e = pooled(empty);
    return ms(call !== undefined && e !== undefined ? call - e : undefined);
  };
  const eachRange = (r: ReturnType<typeof pathRounds>, calls: PathRounds['call']): string => {
    const each = r.request.flatMap((req, i) => (req.length && calls[i]?.length && r.callEmpty[i]?.length ? [median(req) / (median(calls[i]!) - median(r.callEmpty[i]!))] : []));
    return each.length ? `${ms(Math.min(...each))}–${ms(Math.max(...each))}` : '—';
  };
  console.log("CPU on the JavaScript thread, ms, steady requests of one process serving every path: request p50; each call's p50 (read as bytes, by text()) less the empty handler p50 (pooled over processes); request ÷ call of each process (lowest–highest)");
  console.log(row([['runtime', 9], ['request p50', 12], ['bytes p50', 10], ['text p50', 9], ['empty p50', 10], ['req ÷ bytes', 12], ['req ÷ text', 12], ['never steady', 13]]));
  for (const { id, rounds: r } of all) {
    console.log(row([[id, 9], [ms(pooled(r.request)), 12], [perCallOf(r.bytes, r.callEmpty), 10], [perCallOf(r.text, r.callEmpty), 9], [ms(pooled(r.callEmpty)), 10], [eachRange(r, r.bytes), 12], [eachRange(r, r.text), 12], [`${r.unsteady}/${r.request.length}`, 13]]));
  }
  const [base, ...others] = all;
  if (!base || !others.length) return;
  for (const loop of LOOPS) {
    if (!base.rounds[loop.read].some((r) => r.length)) {
      console.log(`${loop.says}: not in this run's mix`);
      continue;
    }
    const paths = (r: ReturnType<typeof pathRounds>): PathRounds => ({ request: r.request, call: r[loop.read], callEmpty: r.callEmpty });
    const cells = ratioCells(paths(base.rounds), others.map((o) => paths(o.rounds)));
    console.log(`${loop.says}; against ${base.id}, the geometric mean over processes of each one's median ratio; 95% interval from ${base.rounds.request.length} rounds resampled whole; within: the interval inside ${BAND[0]}–${BAND[1]}, outside: beyond it`);
    console.log(row([['runtime', 9], ['request', 8], [loop.read, 9], ['÷', 6], ['interval', 12], ['verdict', 10]]));
    others.forEach((o, i) => {
      const c = cells[i]!;
      console.log(row([[o.id, 9], [ms(c.request), 8], [ms(c.loop), 9], [ms(c.value), 6], [c.ci ? `${ms(c.ci[0])}–${ms(c.ci[1])}` : '—', 12], [c.verdict, 10]]));
    });
  }
}

/** With --parts: each runtime's ratio to the first by each path, with and without the body's part, by p50 and by mean. */
function printParts(reads: readonly { id: string; reads: Parameters<typeof figuresOf>[0] }[], calls: number): void {
  for (const by of ['p50', 'mean'] as const) {
    const all = reads.map(({ id, reads: r }) => ({ id, ...figuresOf(r, calls, by) }));
    const base = all[0];
    const work = (f: (typeof all)[number] | undefined) => ({
      request: f?.request !== undefined && f.sent !== undefined ? f.request - f.sent : undefined,
      loop: f?.loop !== undefined && f.read !== undefined ? f.loop - f.read : undefined,
    });
    console.log(`by ${by === 'p50' ? 'p50' : "mean (the median over processes of each one's steady mean)"}, against ${base?.id}: request path, loop of ${calls} calls, their quotient; the loop at one call a request, read by text() and as bytes; then each less its body part (request less body sent, loop less body read): the page's own work`);
    console.log(row([['runtime', 9], ['request', 8], ['loop', 6], ['÷', 6], ['one call', 9], ['÷', 6], ['bytes', 6], ['÷', 6], ['work: request', 14], ['loop', 6], ['÷', 6]]));
    for (const f of all) {
      const r = ratio(f.request, base?.request);
      const l = ratio(f.loop, base?.loop);
      const one = ratio(f.alone, base?.alone);
      const bytes = ratio(f.bytes, base?.bytes);
      const wr = ratio(work(f).request, work(base).request);
      const wl = ratio(work(f).loop, work(base).loop);
      console.log(row([[f.id, 9], [ms(r), 8], [ms(l), 6], [ms(ratio(r, l)), 6], [ms(one), 9], [ms(ratio(r, one)), 6], [ms(bytes), 6], [ms(ratio(r, bytes)), 6], [ms(wr), 14], [ms(wl), 6], [ms(ratio(wr, wl)), 6]]));
    }
  }
}

console.log(`before: ${machineSpeedText()}; saving in ${dir}`);
for (const page of pages) {
  const paired = rtbenchRun(`${page}-paired`, 'in-process.js', ['--requests', pairedMix(page)]);
  console.log(`\n${page}: ${paired.seconds.toFixed(0)} s, exit ${paired.status}, load ${loadText()}`);
  printTarget(paired.run, page);
  if (!parts) continue;
  const asked = loopRequests(page);
  const inProcess = rtbenchRun(page, 'in-process.js', Object.values(asked).flatMap((r) => ['--request', r]));
  console.log(`\n${page}, each path its own case (--parts): ${inProcess.seconds.toFixed(0)} s, exit ${inProcess.status}, load ${loadText()}`);
  const calls = LOOP_CALLS[page];
  const reads = inProcess.run.variants.map(({ id }) => ({
    id,
    reads: Object.fromEntries(Object.entries(asked).map(([key, r]) => [key, readOf(inProcess.run, r, id)])) as Parameters<typeof figuresOf>[0],
  }));
  console.log(`CPU on the JavaScript thread, ms, p50 of steady requests (processes' steady medians, lowest–highest); one call: the loop at one call a request, less its empty handler; loop: ${calls} calls a request, per call`);
  console.log(row([['runtime', 9], ['request p50', 12], ['processes', 13], ['warm-up', 18], ['one call', 9], ['warm-up', 18], ['loop/call', 10], ['processes', 13], ['bytes', 7], ['body sent', 10], ['body read', 10]]));
  for (const { id, reads: r } of reads) {
    const f = figuresOf(r, calls, 'p50');
    console.log(row([[id, 9], [ms(f.request), 12], [spread(r.request), 13], [warmText(r.request), 18], [ms(f.alone), 9], [warmText(r.alone), 18], [ms(f.loop), 10], [spread(r.loop, calls), 13], [ms(f.bytes), 7], [ms(f.sent), 10], [ms(f.read), 10]]));
  }
  printParts(reads, calls);
}
