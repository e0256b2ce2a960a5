/**
 * A plan past its flags (src/plan.ts): the variants a runtime store resolves,
 * the cases listed and filtered, the suite's own measurer, and the run's
 * options, planned against a fake store (no runtime resolved, installed or
 * started; no package registry asked).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CaseListing } from '@rtbench/core/protocol';
import { longestWarmupMs } from '@rtbench/measurers';
import { pluginForSpec, type ResolvedVariant, type UnavailableVariant, type VariantSpec } from '@rtbench/runtime-registry';
import { DEFAULT_MEASURER, makePlan, WARMUP_CAP_FACTOR } from '../src/plan.ts';
import { runHeading } from '../src/run/execute.ts';
import type { PlanHost } from '../src/plan/plan-host.ts';
import { UsageError } from '../src/errors.ts';

const resolved = (spec: VariantSpec): ResolvedVariant => ({
  spec,
  plugin: pluginForSpec(spec.runtimeSpec)!,
  target: { binary: `/fake/${spec.runtimeSpec}` } as ResolvedVariant['target'],
  flags: { args: [], env: {} },
  record: { id: spec.id } as ResolvedVariant['record'],
});
const missing = (spec: VariantSpec): UnavailableVariant => ({ spec, plugin: pluginForSpec(spec.runtimeSpec)!, reason: 'not installed or cached', kind: 'runtime-unavailable' });

/** A store that has every runtime but those named missing, an app whose build fails for the runtimes named; what pins and listing were asked, kept. */
function fakeHost(options: { missing?: string[]; buildFails?: string[]; installs?: boolean; platform?: string; listed?: CaseListing[]; absent?: Record<string, string[]> } = {}) {
  const pinned: { entry: string; ids: string[] }[] = [];
  const listings: { entry: string; ids: string[]; file: string }[] = [];
  const host: PlanHost = {
    platform: options.platform ?? 'linux-x64',
    resolveVariant: async (spec) => (options.missing?.includes(spec.runtimeSpec) ? missing(spec) : resolved(spec)),
    installsOnDemand: () => options.installs ?? true,
    pinPackages: async (location, variants) => {
      pinned.push({ entry: location.entry, ids: variants.map((v) => v.spec.id) });
      return variants
        .filter((v) => options.buildFails?.includes(v.spec.runtimeSpec))
        .map((v) => ({ spec: v.spec, plugin: v.plugin, reason: `the Workers side was not built: vite build failed (exit 1) on ${v.spec.id}`, kind: 'build' as const }));
    },
    listInRuntime: async (location, variants, file) => {
      listings.push({ entry: location.entry, ids: variants.map((v) => v.spec.id), file });
      return { cases: options.listed ?? [], notes: ['listed in a fake runtime'], listedBy: variants[0]!.spec.id, absent: options.absent ?? {} };
    },
  };
  return { host, pinned, listings };
}

const ids = (plan: { variants: readonly { spec: { id: string } }[] }): string[] => plan.variants.map((v) => v.spec.id);
const caseIds = (plan: { suite: { cases: readonly CaseListing[] } }): string[] => plan.suite.cases.map((c) => c.id);
const stderrLines = (): string[] => {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => lines.push(String(text)) > 0);
  return lines;
};
afterEach(() => {
  vi.restoreAllMocks();
});

/** trig's cases as its own plan lists them, for the filter and shard checks. */
const trigCases = async (): Promise<string[]> => caseIds(await makePlan('trig', { runtime: ['node'], seed: 1 }, undefined, fakeHost().host));

describe('a table planned against the store', () => {
  it('holds the variants in the order given, the suite\'s cases, the default measurer and what its flags make of the run', async () => {
    const { host, pinned } = fakeHost();
    const plan = await makePlan('trig', { runtime: ['node,deno', 'bun'], seed: '7' }, undefined, host);
    expect(ids(plan)).toEqual(['node', 'deno', 'bun']);
    expect(plan.suite.name).toBe('trig');
    expect(caseIds(plan)).toContain('1000 calls / Math.sin [range=pi]');
    // The table's default warmup (20 ms) is the floor of a watched warmup that may run to three times it.
    const warmupMs = 20 * WARMUP_CAP_FACTOR;
    expect(plan.options).toEqual({
      warmupMs,
      warmupMinMs: 20,
      // Twenty times the longest warmup and one round's sampling (240 ms over 6 rounds).
      timeoutMs: 20 * (longestWarmupMs(warmupMs) + 40),
      seed: 7,
      mode: 'bench',
      roundPlan: { order: 'shuffled', rounds: 6, adaptive: { target: 0.02, maxRounds: 30, budgetMs: 60_000 } },
      timeMs: 240,
      perArm: 1,
      measurer: DEFAULT_MEASURER,
      prepared: expect.objectContaining({ roundsPerProcess: 1 }),
    });
    // A table says in each cell that its rounds are too few; only a comparison carries the line.
    expect(plan).not.toHaveProperty('fewRounds');
    // The pins are resolved once, for every variant, before anything is listed.
    expect(pinned).toEqual([{ entry: plan.suite.entry, ids: ['node', 'deno', 'bun'] }]);
  });

  it('takes a planner\'s times as numbers, and spreads --time over a rule\'s own fewer rounds as the fixed design would', async () => {
    const { host } = fakeHost();
    const given = await makePlan('trig', { runtime: ['node'], seed: 1, timeMs: 90, warmupMs: 5 }, undefined, host);
    expect(given.options).toMatchObject({ timeMs: 90, warmupMs: 5 * WARMUP_CAP_FACTOR, warmupMinMs: 5 });
    // --stop decided starts from 4 rounds, each sampled as one of the fixed design's 6 over 240 ms.
    const decided = await makePlan('trig', { runtime: ['node'], seed: 1, stop: 'decided' }, undefined, host);
    expect(decided.options.roundPlan.rounds).toBe(4);
    expect(decided.options.timeMs).toBe(160);
  });

  it("takes a suite's own run-up (buffer-concat: 150 ms) unless --run-up says otherwise", async () => {
    const plan = await makePlan('buffer-concat', { runtime: ['node'], seed: 1 }, undefined, fakeHost().host);
    expect(plan.options.prepared?.setup).toMatchObject({ runUpMs: 150 });
    const given = await makePlan('buffer-concat', { runtime: ['node'], seed: 1, measurerOptions: { 'run-up': '20ms' } }, undefined, fakeHost().host);
    expect(given.options.prepared?.setup).toMatchObject({ runUpMs: 20 });
    const trig = await makePlan('trig', { runtime: ['node'], seed: 1 }, undefined, fakeHost().host);
    expect(trig.options.prepared?.setup ?? {}).not.toHaveProperty('runUpMs');
  });

  it('--fixed-warmup: the warmup is --warmup exactly, with no floor to watch from', async () => {
    const plan = await makePlan('trig', { runtime: ['node'], seed: 1, warmup: '50ms', fixedWarmup: true }, undefined, fakeHost().host);
    expect(plan.options.warmupMs).toBe(50);
    expect(plan.options).not.toHaveProperty('warmupMinMs');
    const watched = await makePlan('trig', { runtime: ['node'], seed: 1, warmup: '50ms', fixedWarmup: false }, undefined, fakeHost().host);
    expect(watched.options).toMatchObject({ warmupMs: 50 * WARMUP_CAP_FACTOR, warmupMinMs: 50 });
  });

  it('gives a long warmup a longer default time-out, never past what a timer can wait', async () => {
    const { host } = fakeHost();
    const long = await makePlan('trig', { runtime: ['node'], seed: 1, warmup: '10s', rounds: '6' }, undefined, host);
    expect(long.options.timeoutMs).toBe(20 * (longestWarmupMs(30_000) + 40));
    expect(longestWarmupMs(30_000)).toBe(30_000);
    const longest = await makePlan('trig', { runtime: ['node'], seed: 1, warmup: '24h' }, undefined, host);
    expect(longest.options.timeoutMs).toBe(2 ** 31 - 1);
  });

  it('takes a --timeout the warmup floor and one round\'s sampling fit in, and refuses one they only just fill', async () => {
    const flags = { runtime: ['node'], seed: 1, warmup: '20ms', time: '240ms', rounds: '6' };
    const plan = await makePlan('trig', { ...flags, timeout: '61ms' }, undefined, fakeHost().host);
    expect(plan.options.timeoutMs).toBe(61);
    await expect(makePlan('trig', { ...flags, timeout: '60ms' }, undefined, fakeHost().host)).rejects.toThrow(/^--timeout 60ms is not longer than what each process is asked to run/);
  });

  it('draws a seed when none is given (a whole number from 1 to 2^31), and refuses one that is not a positive whole number', async () => {
    const { seed } = (await makePlan('trig', { runtime: ['node'] }, undefined, fakeHost().host)).options;
    expect(Number.isInteger(seed) && seed >= 1 && seed <= 2 ** 31).toBe(true);
    await expect(makePlan('trig', { runtime: ['node'], seed: '0' }, undefined, fakeHost().host)).rejects.toThrow(/--seed/);
  });

  it('draws 1, never 0, when the clock stands at a multiple of 2^31 ms', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(2 ** 31 * 900);
    try {
      expect((await makePlan('trig', { runtime: ['node'] }, undefined, fakeHost().host)).options.seed).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('--metrics memory asks the measurement for memory settled after a collection, gc for collection counts; another view asks nothing of it', async () => {
    const { host } = fakeHost();
    expect((await makePlan('trig', { runtime: ['node'], seed: 1, metrics: 'memory' }, undefined, host)).options.needs).toEqual(['settled-memory']);
    expect((await makePlan('trig', { runtime: ['node'], seed: 1, metrics: 'gc' }, undefined, host)).options.needs).toEqual(['collection-counts']);
    expect((await makePlan('trig', { runtime: ['node'], seed: 1, metrics: 'cpu' }, undefined, host)).options).not.toHaveProperty('needs');
  });

  it('--filter: several are one list, and the plan holds the cases it picks; without one, every case and no filter', async () => {
    const every = await trigCases();
    const plan = await makePlan('trig', { runtime: ['node'], seed: 1, filter: ['Math.tan', 'Math.atan2'] }, undefined, fakeHost().host);
    expect(plan.options.filter).toBe('Math.tan,Math.atan2');
    expect(caseIds(plan)).toEqual(every.filter((id) => id.includes('Math.tan') || id.includes('Math.atan2')));
    expect(caseIds(plan)).toHaveLength(3);
    const all = await makePlan('trig', { runtime: ['node'], seed: 1 }, undefined, fakeHost().host);
    expect(all.options).not.toHaveProperty('filter');
    expect(all.options).not.toHaveProperty('shard');
    expect(caseIds(all)).toEqual(every);
  });

  it('--shard i/n: every n-th of the filtered cases from the i-th', async () => {
    const every = await trigCases();
    const plan = await makePlan('trig', { runtime: ['node'], seed: 1, shard: '2/3' }, undefined, fakeHost().host);
    expect(plan.options.shard).toEqual({ index: 2, count: 3 });
    expect(caseIds(plan)).toEqual(every.filter((_, k) => k % 3 === 1));
    const filtered = await makePlan('trig', { runtime: ['node'], seed: 1, filter: ['sweep'], shard: '1/2' }, undefined, fakeHost().host);
    expect(caseIds(filtered)).toEqual(every.filter((id) => id.startsWith('sweep')).filter((_, k) => k % 2 === 0));
  });

  it('--sets-per-process: the measurer\'s own option reaches its setup, as a planner\'s independent sets do', async () => {
    const plan = await makePlan('trig', { runtime: ['node'], seed: 1, rounds: '4', measurerOptions: { 'sets-per-process': '2' } }, undefined, fakeHost().host);
    expect(plan.options.prepared?.roundsPerProcess).toBe(2);
    const planned = await makePlan('trig', { seed: 1, roundsPerProcess: 3 }, ['node', 'deno'], fakeHost().host);
    expect(planned.options.prepared?.roundsPerProcess).toBe(3);
  });
});

describe('a comparison planned against the store', () => {
  it('runs balanced rounds in compare mode, and carries the line that its fixed rounds are too few to decide', async () => {
    const { host } = fakeHost();
    const few = await makePlan('trig', { seed: 1, rounds: '2', measurerOptions: { 'sets-per-process': '1' } }, ['node', 'deno'], host);
    expect(ids(few)).toEqual(['node', 'deno']);
    expect(few.options).toMatchObject({ mode: 'compare', roundPlan: { order: 'balanced', rounds: 2 } });
    expect(few.fewRounds).toBe('--rounds 2: 2 independent process pairs, fewer than the 3 an interval needs; every ratio will be inconclusive');
    // A comparison's processes serve two sets each by default, which count as one pair: four rounds are two pairs.
    const shared = await makePlan('trig', { seed: 1, rounds: '4' }, ['node', 'deno'], host);
    expect(shared.fewRounds).toContain('--rounds 4 with 2 rounds per process: 2 independent process pairs');
    const enough = await makePlan('trig', { seed: 1 }, ['node', 'deno'], host);
    expect(enough).not.toHaveProperty('fewRounds');
    expect(enough.options.roundPlan).toEqual({ order: 'balanced', rounds: 30 });
  });

  it('names its arms with --compare alone, never with --runtime too', async () => {
    const both = makePlan('trig', { runtime: ['node'] }, ['node', 'deno'], fakeHost().host);
    await expect(both).rejects.toBeInstanceOf(UsageError);
    await expect(both).rejects.toThrow(/^use either --runtime \(a table\) or --compare \(a verdict\), not both: /);
  });
});

describe('a variant the store cannot give', () => {
  it('refuses a comparison without one of its arms, in one line naming it and why, before anything is pinned or listed', async () => {
    const { host, pinned } = fakeHost({ missing: ['deno'] });
    const refusal = makePlan('trig', { seed: 1 }, ['node', 'deno'], host);
    await expect(refusal).rejects.toBeInstanceOf(UsageError);
    const error = (await refusal.catch((e: UsageError) => e)) as UsageError;
    expect(error.errors).toEqual(['deno: not installed or cached']);
    expect(pinned).toEqual([]);
  });

  it('leaves a table to go on without it (its row says why) while the store installs, but refuses it when installing is forbidden', async () => {
    const installing = fakeHost({ missing: ['deno'] });
    const plan = await makePlan('trig', { runtime: ['node,deno'], seed: 1 }, undefined, installing.host);
    expect(ids(plan)).toEqual(['node', 'deno']);
    expect(plan.variants[1]).toMatchObject({ reason: 'not installed or cached', kind: 'runtime-unavailable' });
    expect(installing.pinned[0]!.ids).toEqual(['node', 'deno']);
    const forbidden = makePlan('trig', { runtime: ['node,deno'], seed: 1 }, undefined, fakeHost({ missing: ['deno'], installs: false }).host);
    await expect(forbidden).rejects.toThrow('deno: not installed or cached');
  });

  it("keeps an arm whose app build failed in a table, failed with the build's line, the others planned and listed", async () => {
    const { host, listings } = fakeHost({ buildFails: ['workerd'], listed: [{ id: 'parse small', name: 'parse small', params: {} } as CaseListing] });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const plan = await makePlan(join('examples', 'mitata-json.mjs'), { runtime: ['node,workerd'], seed: 1 }, undefined, host);
    expect(ids(plan)).toEqual(['node', 'workerd']);
    expect(plan.variants[1]).toMatchObject({ reason: 'the Workers side was not built: vite build failed (exit 1) on workerd', kind: 'build' });
    expect(plan.variants[0]).toHaveProperty('target');
    expect(listings.map((l) => l.ids)).toEqual([['node']]);
  });

  it('refuses a comparison one of whose arms failed to build, and a table whose every arm did, naming each arm and its line', async () => {
    const compare = makePlan('trig', { seed: 1 }, ['node', 'workerd'], fakeHost({ buildFails: ['workerd'] }).host);
    expect(((await compare.catch((e: UsageError) => e)) as UsageError).errors).toEqual(['workerd: the Workers side was not built: vite build failed (exit 1) on workerd']);
    const table = makePlan('trig', { runtime: ['node,workerd'], seed: 1 }, undefined, fakeHost({ buildFails: ['node', 'workerd'] }).host);
    const refused = (await table.catch((e: UsageError) => e)) as UsageError;
    expect(refused.errors).toEqual([
      'node: the Workers side was not built: vite build failed (exit 1) on node',
      'workerd: the Workers side was not built: vite build failed (exit 1) on workerd',
    ]);
    // The run's own refusal, not the command's: a claims run of many suites goes on with the others.
    expect(refused.ofRun).toBe(true);
    // A table left with no arm, one by its build and one by a runtime the store lacks: not the build's alone, so the command's.
    const mixed = makePlan('trig', { runtime: ['node,deno'], seed: 1 }, undefined, fakeHost({ buildFails: ['node'], missing: ['deno'] }).host);
    const both = (await mixed.catch((e: UsageError) => e)) as UsageError;
    expect(both.errors).toHaveLength(2);
    expect(both.ofRun).toBe(false);
  });

  it('refuses a table of which no variant can run', async () => {
    const refusal = makePlan('trig', { runtime: ['deno,bun'], seed: 1 }, undefined, fakeHost({ missing: ['deno', 'bun'] }).host);
    const error = (await refusal.catch((e: UsageError) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    // Runtimes missing are the command's to fix: every run would say the same.
    expect(error.ofRun).toBe(false);
    expect(error.errors).toEqual(['deno: not installed or cached', 'bun: not installed or cached']);
  });
});

describe('a brought file', () => {
  const listed: CaseListing[] = ['parse small', 'parse large', 'stringify small'].map((id) => ({ id, name: id, params: {} }) as CaseListing);

  it('is listed in a runtime that can run it (never one the store lacks), its notes said, its cases filtered', async () => {
    const { host, listings } = fakeHost({ missing: ['deno'], listed });
    const lines = stderrLines();
    const plan = await makePlan(join('examples', 'mitata-json.mjs'), { runtime: ['deno,node'], seed: 1, filter: ['small'] }, undefined, host);
    expect(listings).toHaveLength(1);
    expect(listings[0]!.ids).toEqual(['node']);
    expect(listings[0]!.file).toMatch(/examples\/mitata-json\.mjs$/);
    expect(listings[0]!.entry).toBe(plan.suite.entry);
    expect(caseIds(plan)).toEqual(['parse small', 'stringify small']);
    expect(lines).toEqual(['note: listed in a fake runtime\n']);
    expect(plan.suite.absent).toBeUndefined();
  });

  it('carries the cases some runtimes do not define to the run, which leaves those cells unsupported', async () => {
    const absent = { 'parse large': ['deno'] };
    const plan = await makePlan(join('examples', 'mitata-json.mjs'), { runtime: ['node,deno'], seed: 1 }, undefined, fakeHost({ listed, absent }).host);
    expect(caseIds(plan)).toEqual(['parse small', 'parse large', 'stringify small']);
    expect(plan.suite.absent).toEqual(absent);
  });

  const nodeCore = join('examples', 'node-core', 'benchmark', 'buffers', 'buffer-read-write.js');

  it("a Node core file's comparison: its own budget where the command line leaves it out, said with the process per case it implies", async () => {
    const lines = stderrLines();
    const plan = await makePlan(nodeCore, { seed: 1 }, ['node', 'node@24'], fakeHost({ listed }).host);
    expect(plan.options).toMatchObject({ measurer: { name: 'lockstep-per-case' }, roundPlan: { rounds: 12 }, timeMs: 480, warmupMinMs: 50 });
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^note: a Node core file's comparison: 12 sets per configuration, .*\n$/);
    expect(lines[2]).toMatch(/^note: a Node core file: each configuration runs in processes of its own, .*\n$/);
  });

  it('a schedule given is the schedule, with nothing implied said', async () => {
    const lines = stderrLines();
    const plan = await makePlan(nodeCore, { runtime: ['node'], seed: 1, schedule: 'lockstep' }, undefined, fakeHost({ listed }).host);
    expect(plan.options.measurer.name).toBe('lockstep');
    expect(lines).toEqual(['note: listed in a fake runtime\n']);
  });

  it('says what its format implies once its cases are listed (a Node core file: a process per case)', async () => {
    const lines = stderrLines();
    const plan = await makePlan(join('examples', 'node-core', 'benchmark', 'buffers', 'buffer-read-write.js'), { runtime: ['node'], seed: 1 }, undefined, fakeHost({ listed }).host);
    expect(plan.options.measurer.name).toBe('lockstep-per-case');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('note: listed in a fake runtime\n');
    expect(lines[1]).toMatch(/^note: .*Node core file.*\n$/);
  });
});

describe('a suite measured by a measurer of its own', () => {
  it('start-ups: the host-timed measurer, fixed rounds (adaptive rounds dropped), and --rounds still says', async () => {
    const { host } = fakeHost();
    const plan = await makePlan('cold-start', { runtime: ['node'], seed: 1 }, undefined, host);
    expect(plan.options.measurer.name).toBe('host-timed');
    expect(plan.options.roundPlan).toEqual({ order: 'shuffled', rounds: 6 });
    expect((await makePlan('cold-start', { runtime: ['node'], seed: 1, rounds: '3' }, undefined, host)).options.roundPlan).toEqual({ order: 'shuffled', rounds: 3 });
  });

  // Moved from packages/cli/test/host-timed.test.ts, where it was a run of its own.
  it('start-ups: the line that opens the run says its planned rounds by default, not an adaptive range', async () => {
    const heading = runHeading(await makePlan('cold-start', { runtime: ['node'], seed: 1 }, undefined, fakeHost().host), 200).join(' ');
    expect(heading).toContain(`× ${DEFAULT_MEASURER.defaults.bench.rounds} rounds`);
    expect(heading).not.toContain('until ±');
  });

  it('refuses a schedule, and a target, a most or a budget of rounds, naming the suite and its kind', async () => {
    const { host } = fakeHost();
    await expect(makePlan('cold-start', { runtime: ['node'], seed: 1, schedule: 'lockstep' }, undefined, host)).rejects.toThrow(
      'cold-start is timed by the host (start-up, HTTP load): --schedule and --measure instructions apply to cases that run inside the runtime',
    );
    for (const asked of [{ target: '1%' }, { maxRounds: '12' }, { maxTime: '2m' }, { stop: 'decided' }]) {
      await expect(makePlan('cold-start', { runtime: ['node'], seed: 1, ...asked }, undefined, host)).rejects.toThrow(
        'cold-start is timed by the host (start-up, HTTP load): it runs a fixed number of rounds, so --target, --max-rounds and --max-time do not apply (use --rounds)',
      );
    }
  });

  it('request-shaped cases: CPU per request, its own options its own, refused on a platform it cannot read', async () => {
    const plan = await makePlan('request-tail', { runtime: ['node'], seed: 1, measurerOptions: { concurrency: '4' } }, undefined, fakeHost().host);
    expect(plan.options.measurer.name).toBe('request-cpu');
    expect(plan.options.prepared).toEqual({ setup: { concurrency: 4 } });
    // The rounds it declares are the ones its plans take, a table's and a comparison's.
    const compared = await makePlan('request-tail', { seed: 1 }, ['node', 'deno'], fakeHost().host);
    expect([plan.options.roundPlan, compared.options.roundPlan]).toEqual([
      { order: 'shuffled', rounds: plan.options.measurer.defaults.bench.rounds },
      { order: 'balanced', rounds: compared.options.measurer.defaults.compare.rounds },
    ]);
    await expect(makePlan('request-tail', { runtime: ['node'], seed: 1, measurerOptions: { concurrency: 'many' } }, undefined, fakeHost().host)).rejects.toThrow(
      /^--concurrency many: write a whole number/,
    );
    await expect(makePlan('request-tail', { runtime: ['node'], seed: 1 }, undefined, fakeHost({ platform: 'darwin-arm64' }).host)).rejects.toThrow(/^request-cpu \(.*\) does not work on darwin-arm64: /);
  });

  it('an option of a suite\'s own measurer given to a suite that runs in the runtime is refused', async () => {
    const refusal = makePlan('trig', { runtime: ['node'], seed: 1, measurerOptions: { concurrency: '4' } }, undefined, fakeHost().host);
    await expect(refusal).rejects.toBeInstanceOf(UsageError);
    await expect(refusal).rejects.toThrow(/concurrency/);
  });
});
