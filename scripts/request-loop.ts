/**
 * CPU per request against the in-process loop, per runtime: two Workers
 * (scripts/request-loop/: a plain computed page of about 1.8 MB, a React
 * renderToString page of about 1.1 MB), each read two ways by the same
 * clock, the host's read of the JavaScript thread's CPU from /proc, with the
 * same steady rule and fresh processes:
 *
 * - the request path: `rtbench run <page>.js`, the runtime's own server
 *   sending the page (p50 of the steady requests);
 * - the loop: `rtbench run scripts/request-loop/in-process.js`, whose one
 *   request calls the page's `fetch` + `text()` LOOP_CALLS times back to
 *   back in the process, as an engineer's loop does; CPU per call is that
 *   request's p50, less the same process's empty handler, over the calls.
 *
 * Beside them, measured apart on each runtime: the same page's text,
 * made once, sent as a response (what the server pays for the body) and
 * read by `text()` (what the loop pays to read it), and the loop at one
 * call a request (each call's own p50, as the request path's p50 is).
 * Prints each runtime's ratio to the first by each path, and again with
 * those parts taken out of each: the page's own work by both paths.
 *
 *   npx tsx scripts/request-loop.ts [--rounds 4] [--page plain,react] [--runtime node,deno,bun,workerd] [--lock /tmp/rtbench-measure.lock] [--from <dir>]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { steadyStart } from '@rtbench/core/cpu-per-request';
import type { RunRecord } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { requestsOf } from '../packages/measurer-records/src/index.ts';
import { median } from '../packages/stats/src/index.ts';
import { loadText, readRun, repoRoot } from './lib.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`);
  return at < 0 ? undefined : argv[at + 1];
};
const rounds = option('rounds') ?? '4';
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
  const command = [process.execPath, join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'run', join('scripts/request-loop', worker), '--runtime', runtimes, '--rounds', rounds, ...args, '--quiet', '--save', out];
  const [file, ...rest] = lock ? ['flock', lock, ...command] : command;
  const started = performance.now();
  const r = spawnSync(file!, rest, { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  return { run: readRun(out), seconds: (performance.now() - started) / 1e3, status: r.status };
}

/** The requests of the in-process Worker for one page (scripts/request-loop/in-process.js). */
const loopRequests = (page: Page) => ({
  loop: `GET /?page=${page}&calls=${LOOP_CALLS[page]}`,
  alone: `GET /?page=${page}&calls=1`,
  sent: `GET /?page=${page}&body=ready`,
  read: `GET /?page=${page}&body=ready&calls=${LOOP_CALLS[page]}`,
});

/** A request's p50 (steady) on a variant, its empty handler's, and the spread of its processes' steady medians. */
interface Read {
  p50: number;
  empty: number;
  processes: [number, number];
  warmup?: { warmupRequests?: number; unsteady: number; processes: number };
}

function readOf(run: RunRecord, request: string, variant: string): Read | undefined {
  const rows = benchView(run).cpuPerRequest?.rows ?? [];
  const caseOf = (figure: string) => run.cases.find((c) => c.id === `${request} [cpu=${figure}]`)?.id;
  const row = (figure: string) => rows.find((r) => r.caseId === caseOf(figure) && r.variantId === variant);
  const js = row('js thread');
  const p50 = js?.distribution?.quantiles.p50.value;
  const empty = row('empty handler')?.distribution?.quantiles.p50.value;
  const roundsOf = run.results.find((r) => r.caseId === caseOf('js thread') && r.variantId === variant)?.rounds ?? [];
  const medians = roundsOf.flatMap((r) => {
    const steady = r.samples.slice(steadyStart(r.samples.length, requestsOf(r)?.phases));
    return steady.length ? [median(steady)] : [];
  });
  if (p50 === undefined || empty === undefined || !medians.length) return undefined;
  return { p50, empty, processes: [Math.min(...medians), Math.max(...medians)], ...(js?.phases ? { warmup: js.phases } : {}) };
}

const ms = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(2));
const ratio = (x: number | undefined, base: number | undefined): number | undefined => (x !== undefined && base !== undefined && base > 0 ? x / base : undefined);
const spread = (r: Read | undefined, per = 1): string => (r ? `${ms(r.processes[0] / per)}–${ms(r.processes[1] / per)}` : '—');
const warmText = (r: Read | undefined): string => (r?.warmup ? `${r.warmup.warmupRequests ?? '—'} req; ${r.warmup.unsteady}/${r.warmup.processes} never` : '—');
/** A loop request's CPU per call: its p50 less its process's empty handler (the server's part of any request), over its calls. */
const perCall = (r: Read | undefined, calls: number): number | undefined => (r ? (r.p50 - r.empty) / calls : undefined);
const row = (cells: readonly [string, number][]): string => cells.map(([text, width], i) => (i === 0 ? text.padEnd(width) : text.padStart(width))).join(' ');

console.log(`load before: ${loadText()}; saving in ${dir}`);
for (const page of pages) {
  const asked = loopRequests(page);
  const req = rtbenchRun(`${page}-requests`, `${page}.js`, []);
  console.log(`\n${page}: request path ${req.seconds.toFixed(0)} s, exit ${req.status}, load ${loadText()}`);
  const inProcess = rtbenchRun(`${page}-loop`, 'in-process.js', Object.values(asked).flatMap((r) => ['--request', r]));
  console.log(`${page}: loop ${inProcess.seconds.toFixed(0)} s, exit ${inProcess.status}, load ${loadText()}`);
  const calls = LOOP_CALLS[page];
  const figures = req.run.variants.map(({ id }) => {
    const request = readOf(req.run, 'GET /', id);
    const loop = readOf(inProcess.run, asked.loop, id);
    const sent = readOf(inProcess.run, asked.sent, id);
    const read = readOf(inProcess.run, asked.read, id);
    return {
      id,
      request,
      loop,
      perCall: perCall(loop, calls),
      alone: perCall(readOf(inProcess.run, asked.alone, id), 1),
      // The body's part on each path: sending the ready text less an empty request; reading it, per call.
      sent: sent ? sent.p50 - sent.empty : undefined,
      read: perCall(read, calls),
    };
  });
  console.log(`CPU on the JavaScript thread, ms, p50 of steady requests (processes' steady medians, lowest–highest); loop: ${calls} calls a request, per call`);
  console.log(row([['runtime', 9], ['request p50', 12], ['processes', 13], ['warm-up', 18], ['loop/call', 10], ['processes', 13], ['loop warm-up', 18], ['one call', 9], ['body sent', 10], ['body read', 10]]));
  for (const f of figures) {
    console.log(row([[f.id, 9], [ms(f.request?.p50), 12], [spread(f.request), 13], [warmText(f.request), 18], [ms(f.perCall), 10], [spread(f.loop, calls), 13], [warmText(f.loop), 18], [ms(f.alone), 9], [ms(f.sent), 10], [ms(f.read), 10]]));
  }
  const base = figures[0];
  const work = (f: (typeof figures)[number] | undefined) => ({ request: f?.request && f.sent !== undefined ? f.request.p50 - f.sent : undefined, loop: f?.perCall !== undefined && f.read !== undefined ? f.perCall - f.read : undefined });
  console.log(`against ${base?.id}: request path, loop, their quotient (target within 0.85–1.15); then each less its body part (request less body sent, loop less body read): the page's own work`);
  console.log(row([['runtime', 9], ['request', 8], ['loop', 6], ['÷', 6], ['one call', 9], ['÷', 6], ['work: request', 14], ['loop', 6], ['÷', 6]]));
  for (const f of figures) {
    const r = ratio(f.request?.p50, base?.request?.p50);
    const l = ratio(f.perCall, base?.perCall);
    const one = ratio(f.alone, base?.alone);
    const w = work(f);
    const wr = ratio(w.request, work(base).request);
    const wl = ratio(w.loop, work(base).loop);
    console.log(row([[f.id, 9], [ms(r), 8], [ms(l), 6], [ms(ratio(r, l)), 6], [ms(one), 9], [ms(ratio(r, one)), 6], [ms(wr), 14], [ms(wl), 6], [ms(ratio(wr, wl)), 6]]));
  }
}
