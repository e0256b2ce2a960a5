/**
 * CPU per request against the in-process loop, per runtime: two Workers
 * (scripts/request-loop/: a plain computed page of about 1.8 MB, a React
 * renderToString page of about 1.1 MB) served by rtbench's request rounds
 * (`rtbench run <worker>`: each runtime's own server, CPU per request on
 * the JavaScript thread, p50 of the steady requests) and the same `fetch`
 * + `text()` called in the runtime's own loop (`rtbench bench
 * scripts/request-loop/loop.ts`, warmed until steady: the JavaScript
 * thread's CPU over the set per call, and the loop's own time per call, which
 * only a quiet machine keeps near it), each round a fresh process. Prints both figures, each runtime's ratio to the
 * first runtime by each path, and the request path's ratio over the loop's:
 * within ±15% the request path adds only the server's own cost. The loop's
 * CPU counts everything its thread did over the set, work the engine left
 * for later included; so does the request path's second figure: the steady
 * requests' mean with the CPU after each (from its idle read to the next
 * request's start, `requests.afterMs`), beside the p50 of the requests' own.
 *
 *   npx tsx scripts/request-loop.ts [--rounds 4] [--requests 200] [--runtime node,deno,bun,workerd] [--lock /tmp/rtbench-measure.lock]
 *
 * --requests fixes the requests each server process serves (absent: the
 * default, served until steady within its bounds). Prints the load.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { steadyStart } from '@rtbench/core/cpu-per-request';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { lockstepOf, requestsOf } from '../packages/measurer-records/src/index.ts';
import { median } from '../packages/stats/src/index.ts';
import { benchRun, loadText, repoRoot } from './lib.ts';
import { CALLS_PER_OPERATION } from './request-loop/call.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`);
  return at < 0 ? undefined : argv[at + 1];
};
const rounds = option('rounds') ?? '4';
const runtimes = option('runtime') ?? 'node,deno,bun,workerd';
const requests = option('requests');
const lock = option('lock');
const PAGES = ['plain', 'react'] as const;
type Page = (typeof PAGES)[number];
const dir = mkdtempSync(join(tmpdir(), 'rtbench-request-loop-'));

/** `rtbench run <worker>` for one page: its request rounds, the JavaScript thread's figure only. */
function requestRun(page: string): { run: RunRecord; wallMs: number; status: number | null } {
  const out = join(dir, `${page}-requests.json`);
  const extra: string[] = [];
  if (requests !== undefined) {
    const file = join(dir, `${page}-requests-file.json`);
    writeFileSync(file, JSON.stringify({ mix: [{ name: 'page', weight: 1, request: 'GET /' }], requests: Number(requests) }));
    extra.push('--requests', file);
  }
  const command = [process.execPath, join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'run', join('scripts/request-loop', `${page}.js`), '--runtime', runtimes, '--rounds', rounds, '--filter', 'cpu=js thread', ...extra, '--quiet', '--save', out];
  const [file, ...args] = lock ? ['flock', lock, ...command] : command;
  const started = performance.now();
  const r = spawnSync(file!, args, { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  return { run: parseRun(JSON.parse(readFileSync(out, 'utf8')), out), wallMs: performance.now() - started, status: r.status };
}

/**
 * The loop's CPU per call on the JavaScript thread: per round, the main
 * thread's CPU the host read over the sampling stretch (lockstep
 * mainThreadCpuUs) over the calls made in it (each sample's operations, its
 * untimed pre-batch's too, `memory.callsPerSample` when recorded, times the
 * calls an operation makes), the median over rounds. Unlike the loop's time
 * per call, it holds on a loaded machine, as CPU per request does.
 */
function loopCpuMs(page: Page, variant: string): number | undefined {
  const caseId = loop.run.cases.find((c) => c.name === page)?.id;
  const rounds = loop.run.results.find((r) => r.caseId === caseId && r.variantId === variant)?.rounds ?? [];
  const perCall = rounds.flatMap((r) => {
    const operations = r.samples.length * (r.memory?.callsPerSample ?? r.iterationsPerSample);
    const cpuUs = lockstepOf(r)?.mainThreadCpuUs;
    return cpuUs !== undefined && operations ? [cpuUs / 1e3 / (operations * CALLS_PER_OPERATION[page])] : [];
  });
  return perCall.length ? median(perCall) : undefined;
}

/**
 * The request path's steady CPU per request with what each request left for
 * later: per process, the mean over its steady requests (from its steady
 * point, core steadyStart; never steady, its later half) of the request's own CPU and the CPU
 * after it; the median over processes. Undefined for a run saved without
 * `afterMs`.
 */
function withAfterMs(run: RunRecord, variant: string): { own: number; after: number } | undefined {
  const rounds = run.results.find((r) => r.variantId === variant)?.rounds ?? [];
  const per = rounds.flatMap((r) => {
    const after = requestsOf(r)?.afterMs;
    if (!after || after.length !== r.samples.length) return [];
    const from = steadyStart(r.samples.length, requestsOf(r)?.phases);
    const own = r.samples.slice(from);
    const later = after.slice(from);
    return own.length ? [{ own: own.reduce((a, b) => a + b, 0) / own.length, after: later.reduce((a, b) => a + b, 0) / later.length }] : [];
  });
  return per.length ? { own: median(per.map((p) => p.own)), after: median(per.map((p) => p.after)) } : undefined;
}

const ms = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(2));
const ratio = (x: number | undefined, base: number | undefined): number | undefined => (x !== undefined && base !== undefined && base > 0 ? x / base : undefined);

console.log(`load before: ${loadText()}`);
const loop = benchRun(['scripts/request-loop/loop.ts', '--runtime', runtimes, '--rounds', rounds], lock);
console.log(`loop run: ${(loop.wallMs / 1e3).toFixed(0)} s, load ${loadText()}, exit ${loop.status}`);
const loopView = benchView(loop.run);

for (const page of PAGES) {
  const req = requestRun(page);
  console.log(`\n${page}: request run ${(req.wallMs / 1e3).toFixed(0)} s, load ${loadText()}, exit ${req.status}`);
  const rows = benchView(req.run).cpuPerRequest?.rows ?? [];
  const loopRows = loopView.cases.find((c) => c.name === page)?.rows ?? [];
  const variants = req.run.variants.map((v) => v.id);
  const figures = variants.map((id) => {
    const row = rows.find((r) => r.variantId === id);
    // The loop's time is per operation, CALLS_PER_OPERATION calls.
    const loopNs = loopRows.find((r) => r.variantId === id)?.stats?.median;
    return { id, request: row?.distribution?.quantiles.p50.value, first: row?.distribution?.first.value, warmup: row?.phases, whole: withAfterMs(req.run, id), loop: loopCpuMs(page, id), loopWall: loopNs === undefined ? undefined : loopNs / 1e6 / CALLS_PER_OPERATION[page] };
  });
  const base = figures[0];
  const wholeOf = (f: (typeof figures)[number] | undefined): number | undefined => (f?.whole ? f.whole.own + f.whole.after : undefined);
  console.log('runtime    request p50 (steady)   first   warm-up (req, ms; never steady)   loop CPU/call   loop time/call   request / loop   vs first runtime: request   loop   request ÷ loop');
  for (const f of figures) {
    const r = ratio(f.request, base?.request);
    const l = ratio(f.loop, base?.loop);
    const warm = f.warmup ? `${f.warmup.warmupRequests ?? '—'} req, ${ms(f.warmup.warmupMs)} ms; ${f.warmup.unsteady} of ${f.warmup.processes}` : '—';
    console.log(
      [f.id.padEnd(10), `${ms(f.request)} ms`.padStart(20), ms(f.first).padStart(8), warm.padStart(33), `${ms(f.loop)} ms`.padStart(15), `${ms(f.loopWall)} ms`.padStart(16), ms(ratio(f.request, f.loop)).padStart(16), ms(r).padStart(27), ms(l).padStart(6), ms(ratio(r, l)).padStart(16)].join(' '),
    );
  }
  // Means against the loop's mean: what each thread did over the steady stretch, work left for later included.
  console.log('runtime    steady mean: own   after   own + after   (own + after) / loop   vs first runtime: own + after   loop   ÷ loop');
  for (const f of figures) {
    const r = ratio(wholeOf(f), wholeOf(base));
    const l = ratio(f.loop, base?.loop);
    console.log(
      [f.id.padEnd(10), `${ms(f.whole?.own)} ms`.padStart(21), ms(f.whole?.after).padStart(7), ms(wholeOf(f)).padStart(13), ms(ratio(wholeOf(f), f.loop)).padStart(22), ms(r).padStart(31), ms(l).padStart(6), ms(ratio(r, l)).padStart(8)].join(' '),
    );
  }
}
console.log(`\nsaved: ${dir}, ${loop.path}`);
