/**
 * Host-timed suites through the real CLI, with minimal budgets: cold-start and
 * http-hello on node (cold-start's smallest bundle on workerd too, both ways it
 * starts; http-hello's framework app on all four runtimes, its minimal server
 * on workerd at one connection and the echo route: what a load does to the
 * generator is the same whichever server answers), and a fixture whose
 * servers and programs fail in each way they can. One load round is
 * measured (node, one connection: its phases); the other load runs are smoke
 * runs (--fixed-warmup: a window of load), their figures unread. Every run
 * goes side by side with the others but the two cold-start runs, which go
 * in turn (the second runs the programs the first cached, altered between
 * them); no test reads the run's time, and that no process is left
 * running is checked once all have ended.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { loadOf } from '../../measurer-records/src/index.ts';
import { runCliAsync, tempFile, type CliResult } from '../../../test/helpers/cli.ts';
import { program } from '../../../test/helpers/system-programs.ts';
import { expectEveryCaseRan } from '../../../test/helpers/every-case.ts';
import { cacheDir } from '../src/paths.ts';

/** Where start-up programs and servers are cached (the one program cache). */
const PROGRAMS = join(cacheDir, 'programs') + '/';

// http-hello's load comes from wrk (installed by the test set-up when it is missing).
const WRK = await program('wrk');

/** PIDs of processes whose command line mentions `needle` (Linux /proc). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(join('/proc', entry, 'cmdline'), 'utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

interface Bench {
  status: number | null;
  stderr: string;
  run: RunRecord;
}

const saved = (r: CliResult, out: string): Bench => ({ status: r.status, stderr: r.stderr, run: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) });

async function benchAsync(args: string[], env: Record<string, string> = {}): Promise<Bench> {
  const out = tempFile('run.json');
  return saved(await runCliAsync(['bench', ...args, '--save', out, '--quiet'], { RTBENCH_WRK: WRK, ...env }), out);
}

const result = (run: RunRecord, caseId: string, variant: string) => run.results.find((r) => r.caseId === caseId && r.variantId === variant)!;

/** The cold-start run, then a run of one of its programs after each of node's was altered in the cache. */
interface ColdStart {
  first: Bench;
  second: Bench;
  /** The start-up programs altered, and when. */
  tamperedAt: Map<string, number>;
  /** A file the altered programs write when run. */
  marker: string;
}

/** One round: a round's record is what is read (that rounds repeat is every run's, test/lockstep.test.ts). */
async function coldStartRuns(): Promise<ColdStart> {
  const first = await benchAsync(['cold-start', '--runtime', 'node,workerd', '--rounds', '1', '--filter', 'size=10kb']);
  // The run left node's programs in the cache (beside any of earlier runs in this checkout); alter each so that running it
  // would leave a mark. Start-up programs only: the other runs of this file serve theirs from the same cache meanwhile.
  const marker = tempFile('tampered-program-ran');
  const altered = readdirSync(PROGRAMS).filter((f) => f.startsWith('generated-node-') && f.endsWith('.mjs'));
  for (const f of altered) appendFileSync(join(PROGRAMS, f), `\nimport { writeFileSync as rtbenchTamper } from 'node:fs';\nrtbenchTamper(${JSON.stringify(marker)}, 'ran');\n`);
  const tamperedAt = new Map(altered.map((f) => [f, statSync(join(PROGRAMS, f)).mtimeMs]));
  const second = await benchAsync(['cold-start', '--runtime', 'node', '--rounds', '1', '--filter', 'process start / generated [size=10kb, cache=none]']);
  return { first, second, tamperedAt, marker };
}

let cold: ColdStart;
/** One connection and the echo route on node and workerd: each runtime's server, its threads read, the same answers. */
let routes: Bench;
/** One connection on node, measured: a second of steady load at least, after a warm-up told apart. */
let measuredRound: Bench;
/** The other loads on node: what the generator does under each (the server's side is the runs above and below). */
let loads: Bench;
let framework: Bench;
let autocannon: CliResult;
let autocannonOut: string;
let bad: Bench;
const SMOKE = ['--rounds', '1', '--warmup', '10ms', '--fixed-warmup'];

beforeAll(async () => {
  autocannonOut = tempFile('run.json');
  [cold, measuredRound, routes, loads, framework, autocannon, bad] = await Promise.all([
    coldStartRuns(),
    benchAsync(['http-hello', '--runtime', 'node', '--rounds', '1', '--warmup', '10ms', '--filter', '/^hello world \\[load=c1,/']),
    // The rest are smoke runs (--fixed-warmup): one window of load after --warmup, since no figure of theirs is read.
    benchAsync(['http-hello', '--runtime', 'node,workerd', ...SMOKE, '--filter', '/^(hello world \\[load=c1,|json echo)/']),
    benchAsync(['http-hello', '--runtime', 'node', ...SMOKE, '--filter', '/^hello world \\[load=c10/']),
    benchAsync(['http-hello', '--runtime', 'node,deno,bun,workerd', ...SMOKE, '--filter', 'framework app']),
    runCliAsync(['bench', 'http-hello', '--runtime', 'node', ...SMOKE, '--filter', 'hello world [load=c10, metric=req/s]', '--save', autocannonOut, '--quiet'], { RTBENCH_LOAD_GENERATOR: 'autocannon' }),
    benchAsync([join('test', 'fixtures', 'host-timed-bad'), '--runtime', 'node', ...SMOKE]),
  ]);
}, 300_000);

describe('host-timed suites', () => {
  it('cold-start: start-up times per round on node and workerd, with the metric saved and the same first line everywhere', () => {
    const { status, stderr, run } = cold.first;
    expect(status, stderr).toBe(0);
    const coldCase = 'process start / generated [size=10kb, cache=none]';
    expect(run.cases.find((c) => c.id === coldCase)!.metric).toEqual({ name: 'start-up time', unit: 'ms', direction: 'lower-is-better' });
    for (const variant of ['node', 'workerd']) {
      const r = result(run, coldCase, variant);
      expect(r.rounds.map((x) => x.samples.length)).toEqual([1]);
      expect(r.rounds.every((x) => x.samples[0]! > 0)).toBe(true);
    }
    expect(run.digestMismatches).toEqual([]);
    // The top level's own duration, on the runtime's clock: shorter than the whole start-up of the same process.
    const topLevel = result(run, 'process start / generated [size=10kb, cache=none, metric=top level]', 'node');
    expect(topLevel.rounds.length).toBe(1);
    topLevel.rounds.forEach((r, i) => expect(r.samples[0]!).toBeLessThan(result(run, coldCase, 'node').rounds[i]!.samples[0]!));
    expect(result(run, 'process start / generated [size=10kb, cache=none, metric=top level]', 'workerd').status).toBe('unsupported');
    // workerd's worker loader: a new isolate in a running server.
    const isolate = result(run, 'isolate start / generated [size=10kb]', 'workerd');
    expect(isolate.rounds.length, JSON.stringify(isolate.failures)).toBe(1);
    expect(result(run, 'isolate start / generated [size=10kb]', 'node').status).toBe('unsupported');
    expect(result(run, 'process start / generated [size=10kb, cache=warm]', 'workerd').status).toBe('unsupported');
    // What ran, by content, per runtime (the whole suite's programs, so shards of one run agree: the next test's run checks it).
    expect(run.suiteCode?.map((c) => c.runtime)).toEqual(['node', 'workerd']);
    expect(processesMentioning(PROGRAMS)).toEqual([]);
  });

  it('a cached start-up program altered after a run is rebuilt, not run', () => {
    const { first, second, tamperedAt, marker } = cold;
    expect(tamperedAt.size).toBeGreaterThan(0);
    const { status, stderr, run } = second;
    expect(status, stderr).toBe(0);
    expect(result(run, 'process start / generated [size=10kb, cache=none]', 'node').rounds.length).toBe(1);
    expect(existsSync(marker)).toBe(false);
    // The program this run needed was rebuilt over the altered file its content hashes to, never run: two runs of
    // one program leave one program (the generated module's path, which its bundle names, is the same in every run).
    const rebuilt = readdirSync(PROGRAMS).filter((f) => f.startsWith('generated-node-') && f.endsWith('.mjs') && statSync(join(PROGRAMS, f)).mtimeMs > (tamperedAt.get(f) ?? 0));
    // The filter (an id copied from the table, its comma inside the brackets) keeps one program: only it is bundled.
    expect(rebuilt.length).toBe(1);
    expect([...tamperedAt.keys()]).toContain(rebuilt[0]);
    expect(readFileSync(join(PROGRAMS, rebuilt[0]!), 'utf8')).not.toContain('rtbenchTamper');
    // Another filter of the same suite (as another shard would run it): the same code.
    expect(run.suiteCode).toEqual(first.run.suiteCode!.filter((c) => c.runtime === 'node'));
  });
});

/**
 * The load runs and the failing fixture (mostly waits: servers starting,
 * load runs of at least a second each, a quarter second in the smoke runs,
 * whose figures no test reads); each test checks its own run, and that none
 * of the file's runs left a process. The default rounds of a start-up run,
 * and the options it refuses, are checked without a run: the header in
 * plan-resolved.test.ts, the refusal in usage-probed.test.ts.
 */
describe('host-timed suites: load runs', () => {
  it('http-hello: requests/s, the latency line and the server\'s CPU per request under each named load (node; one connection on workerd too), the server stopped after each', () => {
    for (const { status, stderr } of [measuredRound, routes, loads]) expect(status, stderr).toBe(0);
    const profiles = { c1: [1, 1], c10: [10, 1], c100: [100, 1], 'c100-p10': [100, 10] } as const;
    const echo = 'json echo [body=1.6kb, load=c10';
    const measured = (run: RunRecord) => run.cases.map((c) => c.id.slice(0, c.id.indexOf(', metric=')));
    expect(new Set([...measured(routes.run), ...measured(loads.run)])).toEqual(new Set([...Object.keys(profiles).map((l) => `hello world [load=${l}`), echo]));
    expect(new Set(measured(routes.run))).toEqual(new Set(['hello world [load=c1', echo]));
    // Each round's steady windows last 1 s, within 1 s of warm-up and twice that, and the run says so; a smoke run's
    // one window (250 ms) within its --warmup and twice that.
    expect(measuredRound.run.options).toMatchObject({ timeMs: 1_000, warmupMs: 1_000 });
    for (const { run } of [routes, loads]) expect(run.options).toMatchObject({ timeMs: 250, warmupMs: 10 });
    const id = (measurement: string, metric: string) => `${measurement}, metric=${metric}]`;
    // Served in windows: some before the steady ones (the warm-up, its requests/s kept), the figures from the rest.
    const phases = loadOf(result(measuredRound.run, id('hello world [load=c1', 'req/s'), 'node').rounds[0]!)!.phases!;
    expect(phases).toMatchObject({ warmupMs: expect.any(Number), warmup: expect.any(Number) });
    expect(phases.windows).toBeGreaterThan(phases.steadyFrom ?? 1);
    for (const variant of ['node', 'workerd']) {
      for (const [load, [connections, pipelining]] of Object.entries(profiles)) {
        if (variant === 'workerd' && load !== 'c1') continue;
        const run = load === 'c1' ? routes.run : loads.run;
        const hello = `hello world [load=${load}`;
        const rps = result(run, id(hello, 'req/s'), variant);
        expect(rps.rounds.length, JSON.stringify(rps.failures)).toBe(1);
        expect(rps.stats!.median).toBeGreaterThan(0);
        // The server's CPU per request, read from its threads: the JavaScript thread's part of all of them.
        const js = result(run, id(hello, 'cpu/req js'), variant).rounds[0]!.samples[0]!;
        expect(js).toBeGreaterThan(0);
        expect(result(run, id(hello, 'cpu/req'), variant).rounds[0]!.samples[0]!).toBeGreaterThanOrEqual(js);
        // Its wake-ups per request (voluntary switches), read from the same threads: one connection waits for each request.
        const wakeups = result(run, id(hello, 'wake/req js'), variant).rounds[0]!.samples[0]!;
        if (load === 'c1') expect(wakeups).toBeGreaterThan(0);
        expect(result(run, id(hello, 'wake/req'), variant).rounds[0]!.samples[0]!).toBeGreaterThanOrEqual(wakeups);
        expect(result(run, id(hello, 'preempt/req'), variant).rounds.length).toBe(1);
        // wrk generated the load, and each round records it: how busy wrk was, the load, how the requests ended.
        expect(rps.rounds[0]!.load).toEqual({ generator: 'wrk', generatorBusy: expect.any(Number), connections, pipelining, outcomes: expect.objectContaining({ responses: expect.any(Number) }), phases: expect.objectContaining({ windows: expect.any(Number) }) });
        // A smoke run's one window (no window starts past its warm-up and one window's time).
        expect(loadOf(rps.rounds[0]!)!.phases!.windows).toBeGreaterThanOrEqual(1);
        expect(loadOf(rps.rounds[0]!)!.outcomes!.responses).toBeGreaterThan(0);
        expect(result(run, id(hello, 'max'), variant).rounds.length).toBe(1);
      }
      if (variant === 'workerd') continue;
      const run = loads.run;
      const quantiles = ['p2.5', 'p50', 'p97.5', 'p99'].map((q) => result(run, id('hello world [load=c100', q), variant).rounds[0]!.samples[0]!);
      expect(quantiles).toEqual([...quantiles].sort((a, b) => a - b));
      // Pipelined, wrk times batches, not requests, and then corrects them with the interval between responses: said, not shown.
      const pipelined = result(run, id('hello world [load=c100-p10', 'p50'), variant);
      expect(pipelined.status).toBe('unsupported');
      expect(pipelined.failures[0]!.message).toContain('each batch of 10 requests');
    }
    // The echo route answered with the body it was sent (its digest is of that answer), on both runtimes.
    expect(result(routes.run, id(echo, 'req/s'), 'node').rounds[0]!.digest.summary).toMatch(/^string\(1[56]\d\d\)$/);
    expect(result(routes.run, id(echo, 'req/s'), 'workerd').rounds.length).toBe(1);
    expect(routes.run.digestMismatches).toEqual([]);
    for (const { run } of [measuredRound, routes, loads]) {
      // Every case of these routes on node, as test/suites.test.ts checks the rest of the suite (which it runs alone).
      expectEveryCaseRan(run, 'node');
      expect(run.results.flatMap((r) => r.rounds).every((round) => loadOf(round)!.generatorBusy > 0)).toBe(true);
      expect(run.results.flatMap((r) => r.failures).map((f) => f.message)).not.toContainEqual(expect.stringContaining('autocannon generated the load'));
    }
    expect(processesMentioning(PROGRAMS)).toEqual([]);
    expect(processesMentioning('load-worker.mjs')).toEqual([]);
    expect(processesMentioning('rtbench-wrk-')).toEqual([]);
  });

  it('http-hello: the framework app (Hono: router, timing middleware, error handler) starts and answers the same JSON on all four runtimes', () => {
    const { status, stderr, run } = framework;
    expect(status, stderr).toBe(0);
    const rps = 'framework app [framework=hono, load=c10, metric=req/s]';
    expect(run.cases[0]!.id).toBe(rps);
    for (const variant of ['node', 'deno', 'bun', 'workerd']) {
      const r = result(run, rps, variant);
      expect(r.rounds.length, JSON.stringify(r.failures)).toBe(1);
      expect(r.rounds[0]!.samples[0]).toBeGreaterThan(0);
      // {"id":"42","name":"user 42","roles":["reader"]}: the route's parameter went through the router into the JSON.
      expect(r.rounds[0]!.digest.summary).toBe('string(47)');
    }
    expect(run.digestMismatches).toEqual([]);
    expect(run.suiteCode?.map((c) => c.runtime)).toEqual(['node', 'deno', 'bun', 'workerd']);
    expectEveryCaseRan(run, 'node');
    expect(processesMentioning(PROGRAMS)).toEqual([]);
  });

  it('http-hello: without wrk the load comes from autocannon, and each result says so', () => {
    const r = autocannon;
    expect(r.status, r.stderr).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(autocannonOut, 'utf8')), autocannonOut);
    const hello = result(run, 'hello world [load=c10, metric=req/s]', 'node');
    expect(hello.rounds[0]!.samples[0]).toBeGreaterThan(0);
    expect(hello.failures).toContainEqual(expect.objectContaining({ kind: 'warning', message: expect.stringContaining('autocannon generated the load (RTBENCH_LOAD_GENERATOR=autocannon)') }));
    expect(hello.rounds[0]!.load).toMatchObject({ generator: 'autocannon', connections: 10, pipelining: 1 });
    expect(processesMentioning('load-worker.mjs')).toEqual([]);
  });

  it('a server that exits, reports a dead port or dies under load, and a program that throws, fail their own cases; the rest is measured, errors counted', () => {
    const { status, run } = bad;
    expect(status).toBe(1);
    const failure = (name: string) => run.results.find((r) => r.caseId.startsWith(name))!.failures[0]!;
    expect(run.results.find((r) => r.caseId === 'good server [load=c4, metric=req/s]')!.rounds.length).toBe(1);
    // A 500 on every tenth request: the round is measured, its error statuses counted, not a failed round.
    const some500 = run.results.find((r) => r.caseId === 'answers 500 to some requests [load=c4, metric=req/s]')!;
    expect(some500.rounds.length, JSON.stringify(some500.failures)).toBe(1);
    const outcomes = loadOf(some500.rounds[0]!)!.outcomes!;
    expect(outcomes.errorStatus).toBeGreaterThan(0);
    expect(outcomes.errorStatus).toBeLessThan(outcomes.responses);
    expect(some500.failures).toContainEqual(expect.objectContaining({ kind: 'warning', message: expect.stringContaining('counted in each round') }));
    expect(run.results.find((r) => r.caseId === 'start / prints a line')!.rounds.length).toBe(1);
    // The server's end, said as a request round says it: how it ended, and its last error line.
    expect(failure('exits before listening')).toMatchObject({ kind: 'crash', message: 'the node server exited with code 3 before it listened (fixture: refusing to start)' });
    expect(failure('exits before listening').stderr).toContain('refusing to start');
    expect(failure('reports a port nothing answers on')).toMatchObject({ kind: 'error', message: expect.stringMatching(/reported port \d+, but a request to 127\.0\.0\.1:\d+ failed/) });
    expect(failure('dies under load')).toMatchObject({ kind: 'crash', message: 'the node server exited with code 7 under load (Error: fixture: gave up after its first request)' });
    expect(failure('start / throws at top level')).toMatchObject({ kind: 'crash', message: 'the node process exited with code 1 before printing a line (Error: fixture: broken at start-up)' });
    expect(failure('start / throws at top level').stderr).toContain('broken at start-up');
    expect(processesMentioning(PROGRAMS)).toEqual([]);
    expect(processesMentioning('load-worker.mjs')).toEqual([]);
  });
});
