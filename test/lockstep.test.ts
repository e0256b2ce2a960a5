/**
 * Lockstep sampling on the four real runtimes, through the CLI: one set of
 * live processes per round, asked for samples in turn with a rotating order,
 * the job on a channel case code cannot read back, and harness built-ins a
 * case cannot change. No assertion is on time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { lockstepOf } from '../packages/measurer-records/src/index.ts';
import { fixture, repoRoot, runCliAsync, tempFile } from './helpers/cli.ts';

const ALL = 'node,deno,bun,workerd';
const QUICK = ['--rounds', '2', '--warmup', '10ms'];
/**
 * Each process warmed a fixed 10 ms (a smoke run), for the runs whose checks read no warmup and no figure: what
 * served which case, in which process and order. One run watches its warmup: the hostile built-ins' (the watched
 * warmup's code runs after the case patched them; its floor is recorded).
 */
const FIXED = '--fixed-warmup';
/**
 * Which process serves which case under a schedule (per case, a set per process, sets kept warm) is the host's plan,
 * the same whatever the runtime: those runs are node's alone. Serving several cases and sets in one process, and a
 * kept case's teardown, are each runtime's harness: those runs are on all four.
 */
const HOST_SCHEDULE = 'node';
/** Sampling time over the two rounds: a smoke run takes three samples a set whatever it is, a watched run's are read. */
const timeOf = (extra: string[]): string[] => ['--time', extra.includes(FIXED) ? '10ms' : '40ms'];

/**
 * The four runtimes' results of one case: in each set, `turns` samples each (or at least `turns`), one per turn and
 * where in the turn's order it was taken; in every turn the four processes held the four positions, and over the
 * first four turns (when there were four) each took each position.
 */
function expectTurns(results: RunRecord['results'], turns: number, atLeast = false): void {
  expect(results.map((r) => r.variantId).sort()).toEqual(['bun', 'deno', 'node', 'workerd']);
  for (const round of [0, 1]) {
    const rounds = results.map((r) => r.rounds.find((x) => x.round === round)!);
    const taken = rounds[0]!.samples.length;
    // Beyond its planned turns, a set takes those the host needed to corroborate an arm on a loaded machine, and says so.
    const added = lockstepOf(rounds[0]!)!.addedTurns ?? 0;
    if (atLeast) expect(taken).toBeGreaterThanOrEqual(turns);
    else expect(taken).toBe(turns + added);
    for (const r of rounds) {
      expect(r.samples).toHaveLength(taken);
      expect(lockstepOf(r)?.positions).toHaveLength(taken);
    }
    for (let t = 0; t < taken; t++) expect(rounds.map((r) => lockstepOf(r)!.positions[t]).sort()).toEqual([0, 1, 2, 3]);
    if (taken >= 4) for (const r of rounds) expect(new Set(lockstepOf(r)!.positions.slice(0, 4)).size).toBe(4);
  }
}

/** Every round of the run served by a process that served nothing before it, and no process serving two: `processes` in all. */
function expectOwnProcesses(run: RunRecord, processes: number): void {
  const served = run.results.flatMap((r) => r.rounds.map((x) => lockstepOf(x)!));
  expect(served).toHaveLength(processes);
  for (const l of served) expect([l.visit, l.servedBefore]).toEqual([1, 0]);
  expect(new Set(served.map((l) => l.process)).size).toBe(processes);
}

async function bench(suite: string, extra: string[], runtimes = ALL): Promise<{ run: RunRecord; status: number | null; stderr: string }> {
  const out = tempFile('run.json');
  // Rounds the test names replace the quick run's.
  const quick = extra.includes('--rounds') ? QUICK.filter((a, i) => a !== '--rounds' && QUICK[i - 1] !== '--rounds') : QUICK;
  const r = await runCliAsync(['bench', suite, ...quick, ...timeOf(extra), '--runtime', runtimes, ...extra, '--save', out, '--quiet']);
  return { run: parseRun(JSON.parse(readFileSync(out, 'utf8')), out), status: r.status, stderr: r.stderr };
}

// The runs are independent: side by side.
describe.concurrent('lockstep sets on node, deno, bun and workerd', () => {
  it('samples the live processes of a set in turn and pairs the rounds; with lockstep-shared one warm process per arm serves both cases of both sets', async () => {
    const { run, status, stderr } = await bench(fixture('tiny'), ['--filter', 'sum', '--schedule', 'lockstep-shared', '--sets-per-process', '2', FIXED]);
    expect(status, stderr).toBe(0);
    expect(run.options.measurer).toBe('lockstep');
    expect(run.options.measurerFields).toMatchObject({ processes: 'warm', setsPerProcess: 2 });
    // Both sets ran in the same process per arm: each case set up and warmed in the first set, kept warm and rewarmed in the second.
    for (const r of run.results) expect(r.rounds.map((x) => [x.round, lockstepOf(x)!.process, lockstepOf(x)!.visit])).toEqual([[0, 0, 1], [1, 0, 2]]);
    expect(run.timing!.timedMs).toBeGreaterThan(0);
    expect(run.timing!.timedMs).toBeLessThan(run.timing!.wallMs);
    // In every set, each arm's process served one case first and the other second.
    for (const round of [0, 1]) {
      for (const variant of ['bun', 'deno', 'node', 'workerd']) {
        const served = run.results.filter((r) => r.variantId === variant).map((r) => lockstepOf(r.rounds.find((x) => x.round === round)!)!.servedBefore);
        expect(served.sort()).toEqual([0, 1]);
      }
    }
    // The host's wait for every sample is kept beside it, and the process's span fits inside it.
    for (const r of run.results) {
      for (const x of r.rounds) {
        expect(lockstepOf(x)!.hostWaitUs).toHaveLength(x.samples.length);
        lockstepOf(x)!.spanUs!.forEach((span, i) => expect(span).toBeLessThanOrEqual(lockstepOf(x)!.hostWaitUs![i]! + 2 * x.clock.resolutionNs / 1e3));
      }
    }
    // A smoke run's set takes three turns (measure-options.ts SMOKE_SAMPLES); in each, the four processes held the four positions.
    expectTurns(run.results.filter((r) => r.caseId.includes('n=200')), 3);
    expect(run.digestMismatches).toEqual([]);
  });

  it('keeps its numbers and its protocol when a case replaces the built-ins, and its job out of the process arguments; every arm takes every place in the turns', async () => {
    const { run, status, stderr } = await bench(join(repoRoot, 'test/fixtures/hostile-builtins/index.ts'), []);
    expect(status, stderr).toBe(0);
    // Watched from its floor, which the run records.
    expect(run.options.warmupMinMs).toBe(10);
    for (const r of run.results) {
      expect(r.status, `${r.variantId}: ${JSON.stringify(r.failures)}`).toBe('ok');
      expect(r.rounds).toHaveLength(2);
      for (const round of r.rounds) expect(round.samples.every((s) => s >= 0 && Number.isFinite(s))).toBe(true);
      // The case's value says whether it found a 32-hex-digit token in /proc/self/cmdline: it must not have.
      expect(r.rounds[0]!.digest.summary).toContain('true');
    }
    // A watched run's set takes its turns for its sampling time, two at least once its samples are raised to the 20 ms
    // floor (lockstep.ts turnsFor): in every turn the four processes held the four places, and over the first four
    // turns, when a set took four, each process took each place in the turn's order.
    expectTurns(run.results.filter((r) => r.caseId === run.cases[0]!.id), 2, true);
  });

  it('still runs a fresh process per round with --schedule processes', async () => {
    const { run, status, stderr } = await bench(fixture('tiny'), ['--filter', 'n=200', '--schedule', 'processes', FIXED], 'node,workerd');
    expect(status, stderr).toBe(0);
    expect(run.options.measurer).toBe('processes');
    for (const r of run.results) {
      expect(r.rounds).toHaveLength(2);
      // A smoke run's process takes three samples of its case (measure-options.ts SMOKE_SAMPLES).
      expect(r.rounds.map((x) => [lockstepOf(x), x.samples.length])).toEqual([[undefined, 3], [undefined, 3]]);
    }
  });

  it('gives each case live processes of its own with --schedule lockstep-per-case', async () => {
    const { run, status, stderr } = await bench(fixture('tiny'), ['--filter', 'sum', '--schedule', 'lockstep-per-case', FIXED], HOST_SCHEDULE);
    expect(status, stderr).toBe(0);
    expect(run.options.measurerFields).toMatchObject({ processes: 'per-case' });
    for (const r of run.results) expect(r.rounds.every((x) => lockstepOf(x) !== undefined && lockstepOf(x)!.servedBefore === undefined)).toBe(true);
    // Each set's processes are started as it opens: the opening is kept with its rounds.
    for (const r of run.results) for (const x of r.rounds) expect(lockstepOf(x)!.openingUs).toBeGreaterThan(0);
  });

  it('gives every case processes of its own by default, each started ahead while the case before warmed up: no process serves two cases', async () => {
    const { run, status, stderr } = await bench(fixture('tiny'), ['--filter', 'sum', FIXED], HOST_SCHEDULE);
    expect(status, stderr).toBe(0);
    expect(run.options.measurer).toBe('lockstep');
    expect(run.options.measurerFields).toMatchObject({ processes: 'per-case', startedAhead: true, setsPerProcess: 1 });
    const served = run.results.flatMap((r) => r.rounds.map((x) => lockstepOf(x)!));
    expect(served).toHaveLength(4);
    for (const l of served) expect([l.visit, l.servedBefore]).toEqual([1, 0]);
    // What the host took to open each set and waited for before its first turn is kept with its rounds (where-time-goes reads it).
    for (const l of served) expect([typeof l.readyWaitUs, typeof l.quietWaitUs]).toEqual(['number', 'number']);
    for (const l of served) expect(l.openingUs).toBeGreaterThan(0);
    // Two cases × two sets: four processes, none of which served another case or set.
    expect(new Set(served.map((l) => l.process)).size).toBe(4);
  });

  it('keeps a case in its own processes and hands no other case what it left behind, whatever the order of a set', async () => {
    const { run, status, stderr } = await bench(fixture('leaves-state'), ['--rounds', '4', FIXED], 'node,bun');
    expect(status, stderr).toBe(0);
    const reads = run.results.filter((r) => r.caseId.includes('reads what it finds'));
    expect(reads.map((r) => r.variantId).sort()).toEqual(['bun', 'node']);
    // Shared processes would hand the reader the writer's global in every set that ran the writer first (3 in 4).
    for (const r of reads) {
      expect(r.rounds).toHaveLength(4);
      for (const x of r.rounds) expect(x.digest.summary).toBe('number 0');
    }
    expect(run.digestMismatches).toEqual([]);
  });

  it('runs each sample after the run-up asked (--run-up), records it, and says so in how it measured', async () => {
    const { run, status, stderr } = await bench(fixture('tiny'), ['--rounds', '1', '--filter', 'sum [n=200]', '--run-up', '100ms'], HOST_SCHEDULE);
    expect(status, stderr).toBe(0);
    expect(run.options.measurerFields).toMatchObject({ runUpMs: 100 });
    expect(run.options.measuredBy?.rounds).toContain('each sample followed at least 100 ms of the case run untimed');
    // A sample of the 20 ms floor: the rule's run-up is a batch at most, 100 ms of calls at its rate about five.
    for (const r of run.results) for (const x of r.rounds) expect(x.span!.runUpCalls!).toBeGreaterThanOrEqual(2 * x.iterationsPerSample);
  });

  it("starts bun's processes keeping freed pages while they wait their turn, unless the variant says otherwise, and says so in how it measured", async () => {
    const { run, status, stderr } = await bench(fixture('waiting-env'), ['--rounds', '1', FIXED], 'bun');
    expect(status, stderr).toBe(0);
    expect(run.results[0]!.rounds[0]!.digest.summary).toBe('number -1');
    expect(run.options.measurerFields).toMatchObject({ waitingEnv: { bun: ['MIMALLOC_PURGE_DELAY=-1'] } });
    const own = await bench(fixture('waiting-env'), ['--rounds', '1', FIXED], 'bun MIMALLOC_PURGE_DELAY=25');
    expect(own.status, own.stderr).toBe(0);
    expect(own.run.results[0]!.rounds[0]!.digest.summary).toBe('number 25');
  });

  // Two brought files whose cases would talk through a shared process: a mitata file's module-level Headers, a tinybench task's beforeAll.
  it.each([
    ['shared-headers.mjs', 'read the header', "cases that share a module's object"],
    ['shared-setup.mjs', 'read what was prepared', "tasks, one preparing state in its beforeAll"],
  ])("runs a brought file's (%s) cases each in processes of its own: the reader (%s) never finds what another left, %s", async (file, reader) => {
    const { run, status, stderr } = await bench(join(repoRoot, 'test/fixtures/brought', file), ['--rounds', '4', FIXED], HOST_SCHEDULE);
    expect(status, stderr).toBe(0);
    const read = run.results.find((r) => r.caseId.includes(reader))!;
    expect(read.rounds).toHaveLength(4);
    for (const x of read.rounds) expect(x.digest.summary).toBe('number 0');
    // Two cases × four sets, each in a process that served nothing before it.
    expectOwnProcesses(run, 8);
  });

  it("--self-check: measures a file's cases alone in halves around the table and in a long loop, prints the cells beside both and saves the runs beside the table", async () => {
    const out = tempFile('checked.json');
    // A brought file: the self-check plans its runs from the file as named, not from the suite name the file is given.
    const file = join(repoRoot, 'test/fixtures/brought/shared-headers.mjs');
    const r = await runCliAsync(['run', file, ...QUICK, '--time', '10ms', FIXED, '--filter', 'read the header', '--runtime', 'node,bun', '--self-check', '--save', out, '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    const folder = out.replace(/\.json$/, '.self-check');
    const read = (name: string): RunRecord => parseRun(JSON.parse(readFileSync(join(folder, `${name}.json`), 'utf8')), name);
    const halves = ['node-before', 'bun-before', 'bun-after', 'node-after'].map((h) => read(`alone-${h}`));
    // Each runtime alone: runs of that runtime only, the table's design, the table's rounds shared between two halves.
    expect(halves.map((a) => [a.variants.map((v) => v.id), a.options.measurer, a.results[0]!.rounds.length])).toEqual([
      [['node'], 'lockstep', 1],
      [['bun'], 'lockstep', 1],
      [['bun'], 'lockstep', 1],
      [['node'], 'lockstep', 1],
    ]);
    // In this order around the table, the first runtime's halves outermost: the drift between runs falls on both sides.
    const table = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    const times = [halves[0]!, halves[1]!, table, halves[2]!, halves[3]!].map((x) => [Date.parse(x.startedAt), Date.parse(x.finishedAt)] as const);
    for (let i = 1; i < times.length; i++) expect(times[i]![0]).toBeGreaterThanOrEqual(times[i - 1]![1]);
    // The long loop: fresh processes that call the case back to back, both runtimes, three each.
    const loop = read('loop');
    expect(loop.options.measurer).toBe('processes');
    expect(loop.results.map((x) => [x.variantId, x.rounds.length]).sort()).toEqual([['bun', 3], ['node', 3]]);
    // Every cell of the table beside both, and the line that counts them.
    const rows = r.stdout.split('\n').filter((l) => /^ {2}(node|bun) /.test(l) && /\d\.\d{3}/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(r.stdout).toMatch(/table\/op +alone\/op +loop\/op +table÷alone +table÷loop/);
    expect(r.stdout).toMatch(/^self-check: (no cell of 2 depends on its company|1 of 2 cells depend on their company|2 of 2 cells depend on their company)/m);
    // Halves of one process a case: no spread to size them by, and the line says what each took.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('halves alone: node: 1 process a case each half; bun: 1 process a case each half');
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('starts new warm processes every set with lockstep-shared and --sets-per-process 1, each case set up and warmed in each', async () => {
    const { run, status, stderr } = await bench(fixture('tiny'), ['--filter', 'sum', '--schedule', 'lockstep-shared', '--sets-per-process', '1', FIXED], HOST_SCHEDULE);
    expect(status, stderr).toBe(0);
    expect(run.options.measurerFields).toMatchObject({ setsPerProcess: 1 });
    for (const r of run.results) expect(r.rounds.map((x) => [x.round, lockstepOf(x)!.process, lockstepOf(x)!.visit])).toEqual([[0, 0, 1], [1, 1, 1]]);
  });

  it('fails a kept case whose teardown fails as its warm process closes, on every runtime (two sets of the four a process was planned for)', async () => {
    const { run, status, stderr } = await bench(fixture('throwing'), ['--filter', 'teardown', '--sets-per-process', '4', FIXED]);
    expect(status).toBe(1);
    // Exit 1 says why even with --quiet (the table went to stdout): one line naming a failed case, its runtime and the reason.
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: the run failed: "[^"]*teardown[^"]*" on (bun|deno|node|workerd) failed \(error: teardown failed as the warm \w+ process closed: .*\) and 3 more case × variant$/)]);
    expect(run.results.map((r) => r.variantId).sort()).toEqual(['bun', 'deno', 'node', 'workerd']);
    for (const r of run.results) {
      // The process's last set with the case is the one failed; the first stands.
      expect(r.status).toBe('partial');
      expect(r.rounds.map((x) => x.round)).toEqual([0]);
      expect(r.failures[0]).toMatchObject({ kind: 'error', phase: 'teardown', round: 1, message: expect.stringMatching(new RegExp(`^teardown failed as the warm ${r.variantId} process closed: .*fixture teardown failed on purpose`)) });
    }
  });

  it('keeps a process per case warm for several sets with lockstep-per-case and --sets-per-process: no case shares a process', async () => {
    const { run, status, stderr } = await bench(fixture('tiny'), ['--filter', 'sum', '--schedule', 'lockstep-per-case', '--sets-per-process', '2', FIXED], HOST_SCHEDULE);
    expect(status, stderr).toBe(0);
    // The measurer block whole: a smoke run says so in it, and a run on node alone names no other runtime's environment.
    expect(run.options.measurerFields).toEqual({ processes: 'per-case', setsPerProcess: 2, smoke: true, smokeSamples: 3 });
    for (const variant of [HOST_SCHEDULE]) {
      const results = run.results.filter((r) => r.variantId === variant);
      expect(results).toHaveLength(2);
      // Each case: one process for both sets, set up in the first and kept warm into the second; never served after another case.
      const processes = results.map((r) => {
        expect(r.rounds.map((x) => [x.round, lockstepOf(x)!.visit, lockstepOf(x)!.servedBefore])).toEqual([[0, 1, 0], [1, 2, 0]]);
        expect(new Set(r.rounds.map((x) => lockstepOf(x)!.process)).size).toBe(1);
        return lockstepOf(r.rounds[0]!)!.process;
      });
      expect(new Set(processes).size).toBe(2);
    }
  });
});
