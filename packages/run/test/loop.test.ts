/** The run loop with a fake measurer: order, adaptive stopping, budget, interrupt, saving, failures. */
import { describe, expect, it } from 'vitest';
import type { CaseSpec } from '@rtbench/core/suite';
import type { RoundRecord, RunRecord } from '@rtbench/core/schema';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { executeLoop, type Profiler, type ProfilePass, type RoundPlan } from '../src/index.ts';
import { addResults } from '@rtbench/saved-runs';
import { MEASURERS, type Arm, type ArmResult, type Measurer, type Unit } from '../../measurers/src/index.ts';

const CLOCK = { name: 'fake', resolutionNs: 1, readCostNs: 0, edgeAligned: false };

function emptyRun(cases: string[], arms: string[]): RunRecord {
  return {
    schema: 'rtbench.run',
    schemaVersion: 1,
    id: 'test',
    status: 'interrupted',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:00.000Z',
    command: [],
    suite: 'fake',
    mode: 'bench',
    options: { timeMs: 1, warmupMs: 1, rounds: 1, timeoutMs: 1000, order: 'x', seed: 1 },
    host: { os: 'linux', release: '', arch: 'x64', cpuModel: '', cores: 2, memoryBytes: 0, loadavg: [], hostNode: '', env: {} },
    variants: arms.map((id) => ({ id, runtime: 'node', spec: id, flags: [] })),
    cases: cases.map((id) => ({ id, name: id, params: {} })),
    results: [],
    digestMismatches: [],
  };
}

const caseSpec = (id: string): CaseSpec => ({ id, name: id, group: undefined, params: {}, body: () => 1 });
const arm = (id: string): Arm => ({ id, plugin: { name: 'node' } as RuntimePlugin, target: {} as Arm['target'], flags: { args: [], env: {} }, variantFlags: [], bundlePath: '' });

function record(round: number, order: number, samples: number[], lockstep = false): RoundRecord {
  return { round, order, samples, iterationsPerSample: 1, warmupIterations: 0, async: false, clock: CLOCK, digest: { hash: '0123456789abcdef', summary: '1' }, wallMs: 1, ...(lockstep ? { lockstep: { positions: samples.map(() => 0) } } : {}) };
}

interface Call {
  unit: string;
  arms: string[];
  round: number;
}

/** A measurer whose samples come from a function; it logs every call. */
function fakeMeasurer(samples: (armId: string, round: number, unit: string) => number[] | 'unsupported' | 'fail', calls: Call[], onCall?: () => void): Measurer {
  return {
    descriptor: { ...MEASURERS.recorded('processes'), help: 'a fake measurer: samples from a seeded generator' },
    async replicate(unit: Unit, arms: readonly Arm[], context): Promise<ArmResult[]> {
      calls.push({ unit: unit.key, arms: arms.map((a) => a.id), round: context.round });
      onCall?.();
      return arms.map((a, position) => {
        const s = samples(a.id, context.round, unit.key);
        if (s === 'unsupported') return { armId: a.id, warnings: [], outcomes: [{ kind: 'unsupported', reason: 'not here' }] };
        if (s === 'fail') return { armId: a.id, warnings: ['said once'], outcomes: [{ kind: 'failure', failure: { kind: 'crash', message: 'it died' } }] };
        return { armId: a.id, warnings: ['said once'], outcomes: [{ kind: 'round', record: record(context.round, position, s, true) }] };
      });
    },
  };
}

async function run(options: { cases?: string[]; arms?: string[]; schedule: RoundPlan; measurer: (calls: Call[]) => Measurer; signal?: AbortSignal; mode?: RunRecord['mode'] }) {
  const cases = options.cases ?? ['a'];
  const armIds = options.arms ?? ['x', 'y'];
  const record = { ...emptyRun(cases, armIds), ...(options.mode ? { mode: options.mode } : {}) };
  const resultFor = addResults(record, cases.map((id) => ({ id })), armIds.map((id) => ({ id })));
  const calls: Call[] = [];
  const saves: number[] = [];
  const done = await executeLoop(
    record,
    { units: cases.map((id) => ({ key: id, cases: [caseSpec(id)] })), arms: armIds.map(arm), roundPlan: options.schedule, seed: 7, resultFor },
    options.measurer(calls),
    { save: (r) => saves.push(r.results.reduce((n, x) => n + x.rounds.length, 0)), ...(options.signal ? { signal: options.signal } : {}) },
  );
  return { run: done, calls, saves };
}

describe('executeLoop', () => {
  it('runs rounds as the outer loop, balances the arms positions, and saves after every replicate', async () => {
    const { run: r, calls, saves } = await run({ cases: ['a', 'b'], schedule: { order: 'balanced', rounds: 4 }, measurer: (calls) => fakeMeasurer(() => [10, 11, 12], calls) });
    expect(calls.map((c) => `${c.round}${c.unit}`)).toEqual(['0a', '0b', '1a', '1b', '2a', '2b', '3a', '3b']);
    // Two arms: each holds the first position in exactly one of every two rounds.
    for (const unit of ['a', 'b']) {
      const firsts = calls.filter((c) => c.unit === unit).map((c) => c.arms[0]);
      expect(firsts.filter((x) => x === 'x')).toHaveLength(2);
    }
    // One save per replicate with the rounds so far, then the final save.
    expect(saves).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 16]);
    expect(r.status).toBe('complete');
    expect(r.results.every((x) => x.rounds.length === 4 && x.stats !== undefined)).toBe(true);
    // A warning repeated every round is kept once.
    expect(r.results[0]!.failures.filter((f) => f.kind === 'warning')).toHaveLength(1);
  });

  it('adds rounds to an undecided case only, until its ratio is precise enough', async () => {
    // Case "steady": y is 0.8 of x in every round. Case "noisy": y swings ±30% around x for 10 rounds, then settles.
    const samples = (armId: string, round: number, unit: string): number[] => {
      if (armId === 'x') return [100, 100, 100];
      if (unit === 'steady') return [80, 80, 80];
      const swing = round < 10 ? (round % 2 ? 1.3 : 0.7) : 1;
      return [100 * swing, 100 * swing, 100 * swing];
    };
    const { run: r, calls } = await run({ cases: ['steady', 'noisy'], schedule: { order: 'shuffled', rounds: 6, adaptive: { target: 0.02, maxRounds: 14 } }, measurer: (calls) => fakeMeasurer(samples, calls) });
    const roundsOf = (unit: string) => calls.filter((c) => c.unit === unit).length;
    expect(roundsOf('steady')).toBe(6);
    expect(roundsOf('noisy')).toBe(14);
    const y = (unit: string) => r.results.find((x) => x.caseId === unit && x.variantId === 'y')!;
    expect(y('steady').precision).toMatchObject({ stoppedBy: 'target', rounds: 6 });
    expect(y('noisy').precision).toMatchObject({ stoppedBy: 'max-rounds', rounds: 14 });
  });

  it("under the 'decided' rule, a case stops once its ratio is decided or out of the budget's reach; the closest goes first", async () => {
    // "clear": y is 0.6 of x. "later": y is 1.1 of x, ±8% round to round. "never": y swings ±30% around 1.002 of x.
    const swing = (round: number, size: number): number => (round % 2 ? 1 + size : 1 - size) * (1 + 0.001 * (round % 3));
    const samples = (armId: string, round: number, unit: string): number[] => {
      if (armId === 'x') return [100, 100, 100];
      const f = unit === 'clear' ? 0.6 * swing(round, 0.01) : unit === 'later' ? 1.1 * swing(round, 0.08) : 1.002 * swing(round, 0.3);
      return [100 * f, 100 * f, 100 * f];
    };
    const { run: r, calls } = await run({
      cases: ['clear', 'later', 'never'],
      schedule: { order: 'shuffled', rounds: 5, adaptive: { target: 0.02, maxRounds: 30, rule: 'decided' } },
      measurer: (calls) => fakeMeasurer(samples, calls),
    });
    const roundsOf = (unit: string) => calls.filter((c) => c.unit === unit).length;
    const stop = (unit: string, arm = 'y') => r.results.find((x) => x.caseId === unit && x.variantId === arm)!.precision;
    expect(roundsOf('clear')).toBe(5);
    expect(stop('clear')).toMatchObject({ stoppedBy: 'decided', rounds: 5 });
    expect(stop('clear', 'x')).toMatchObject({ stoppedBy: 'decided' });
    expect(roundsOf('later')).toBeGreaterThan(5);
    expect(roundsOf('later')).toBeLessThan(30);
    expect(stop('later')).toMatchObject({ stoppedBy: 'decided' });
    // Its projection is beyond 30 rounds from the first look: it gets none added, and is not marked as cut short.
    expect(roundsOf('never')).toBe(5);
    expect(stop('never')).toMatchObject({ stoppedBy: 'out-of-reach', rounds: 5 });
  });

  it("under the 'decided' rule, a case out of reach goes on once another cell's word lowers the table's e-BH bar", async () => {
    // "clear" (0.6 of x) is decided at the first look, the table's only word: the bar is that of no word (α/3).
    // "edge" (1.03 of x, ±3%) would then need 32 pairs, past the 30 allowed: out of reach. "later" (1.1 of x, ±8%)
    // is decided a few rounds on; with two words the bar is 2α/3, at which "edge" needs 29 pairs: within reach again.
    const swing = (round: number, size: number): number => (round % 2 ? 1 + size : 1 - size) * (1 + 0.001 * (round % 3));
    const factor = { clear: 0.6, later: 1.1, edge: 1.03 } as Record<string, number>;
    const size = { clear: 0.01, later: 0.08, edge: 0.03 } as Record<string, number>;
    const samples = (armId: string, round: number, unit: string): number[] => {
      const f = armId === 'x' ? 1 : factor[unit]! * swing(round, size[unit]!);
      return [100 * f, 100 * f, 100 * f];
    };
    const { run: r, calls } = await run({
      cases: ['clear', 'later', 'edge'],
      schedule: { order: 'shuffled', rounds: 5, adaptive: { target: 0.02, maxRounds: 30, rule: 'decided' } },
      measurer: (calls) => fakeMeasurer(samples, calls),
    });
    const roundsOf = (unit: string): number[] => calls.flatMap((c, i) => (c.unit === unit ? [i] : []));
    const stop = (unit: string) => r.results.find((x) => x.caseId === unit && x.variantId === 'y')!.precision;
    expect(roundsOf('clear')).toHaveLength(5);
    expect(stop('later')).toMatchObject({ stoppedBy: 'decided' });
    // "edge" ran no round between the minimum and "later"'s word, and went on after it.
    const laterDone = roundsOf('later').at(-1)!;
    expect(roundsOf('edge').filter((i) => i > 15 && i < laterDone)).toEqual([]);
    expect(roundsOf('edge').filter((i) => i > laterDone).length).toBeGreaterThan(0);
    expect(stop('edge')).toMatchObject({ stoppedBy: 'decided' });
    expect(stop('edge')!.rounds).toBeGreaterThan(5);
    // No budget, so no cell says it ran out (`*`).
    expect(r.results.some((x) => x.precision?.stoppedBy === 'time-budget')).toBe(false);
  });

  it("under the 'decided' rule, one far process pair does not alone put a comparison's case out of reach; a table's it does", async () => {
    // "far": y is 0.976 of x in every round but the third, where it is 1.09: from its five pairs the cell alone
    // would need hundreds more; the other four project a word within a few, so a comparison goes on and decides it.
    const samples = (armId: string, round: number): number[] => {
      const f = armId === 'x' ? 1 : round === 2 ? 1.09 : 0.976 * (1 + 0.001 * (round % 3));
      return [100 * f, 100 * f, 100 * f];
    };
    const schedule: RoundPlan = { order: 'shuffled', rounds: 5, adaptive: { target: 0.02, maxRounds: 30, rule: 'decided' } };
    const compared = await run({ cases: ['far'], schedule, mode: 'compare', measurer: (calls) => fakeMeasurer(samples, calls) });
    expect(compared.calls.length).toBeGreaterThan(5);
    expect(compared.calls.length).toBeLessThan(30);
    expect(compared.run.results.find((x) => x.variantId === 'y')!.precision).toMatchObject({ stoppedBy: 'decided', rounds: compared.calls.length });
    const table = await run({ cases: ['far'], schedule, mode: 'bench', measurer: (calls) => fakeMeasurer(samples, calls) });
    expect(table.calls).toHaveLength(5);
    expect(table.run.results.find((x) => x.variantId === 'y')!.precision).toMatchObject({ stoppedBy: 'out-of-reach', rounds: 5 });
  });

  it('stops adding rounds when the time budget is spent', async () => {
    const { run: r } = await run({
      schedule: { order: 'shuffled', rounds: 6, adaptive: { target: 0.0001, maxRounds: 1000, budgetMs: 1 } },
      measurer: (calls) => fakeMeasurer((a, round) => (a === 'x' ? [100] : [100 + (round % 3)]), calls, () => {
        const until = performance.now() + 2;
        while (performance.now() < until);
      }),
    });
    const y = r.results.find((x) => x.variantId === 'y')!;
    expect(y.rounds).toHaveLength(6);
    expect(y.precision?.stoppedBy).toBe('time-budget');
  });

  it('stops at an interrupt, keeps what was measured and says the run was interrupted', async () => {
    const abort = new AbortController();
    const { run: r, calls } = await run({
      cases: ['a', 'b'],
      schedule: { order: 'shuffled', rounds: 5 },
      signal: abort.signal,
      measurer: (calls) => fakeMeasurer(() => [1, 2, 3], calls, () => calls.length === 3 && abort.abort()),
    });
    expect(calls).toHaveLength(3);
    expect(r.status).toBe('interrupted');
    expect(r.results.find((x) => x.caseId === 'a')!.rounds).toHaveLength(2);
  });

  it('does not ask an arm again once it failed or is unsupported, and goes on with the others', async () => {
    const { run: r, calls } = await run({
      arms: ['x', 'y', 'z'],
      schedule: { order: 'shuffled', rounds: 3 },
      measurer: (calls) => fakeMeasurer((a, round) => (a === 'y' && round === 1 ? 'fail' : a === 'z' ? 'unsupported' : [5, 5]), calls),
    });
    expect(calls.map((c) => [...c.arms].sort().join(''))).toEqual(['xyz', 'xy', 'x']);
    const byArm = Object.fromEntries(r.results.map((x) => [x.variantId, x]));
    expect(byArm.y!.status).toBe('partial');
    expect(byArm.y!.rounds).toHaveLength(1);
    expect(byArm.y!.failures.find((f) => f.kind === 'crash')).toMatchObject({ message: 'it died', round: 1 });
    expect(byArm.z!.status).toBe('unsupported');
    expect(r.status).toBe('failed');
  });
});

describe('warnings of one case of a unit', () => {
  it("go under that case alone; the arm's warnings go under every case of the unit", async () => {
    const record0 = emptyRun(['handler', 'empty'], ['x']);
    const resultFor = addResults(record0, [{ id: 'handler' }, { id: 'empty' }], [{ id: 'x' }]);
    const measurer: Measurer = {
      descriptor: { ...MEASURERS.recorded('processes'), help: 'a fake measurer: two cases from one measurement' },
      async replicate(_unit, arms, context) {
        return arms.map((a) => ({
          armId: a.id,
          warnings: ['the round stopped early'],
          outcomes: [
            { kind: 'round', record: record(context.round, 0, [10, 11]), warnings: ['some requests got no response'] },
            { kind: 'round', record: record(context.round, 0, [3, 4]) },
          ],
        }));
      },
    };
    const done = await executeLoop(record0, { units: [{ key: 'u', cases: [caseSpec('handler'), caseSpec('empty')] }], arms: [arm('x')], roundPlan: { order: 'balanced', rounds: 2 }, seed: 7, resultFor }, measurer, { save: () => {} });
    const said = (caseId: string): string[] => done.results.find((r) => r.caseId === caseId)!.failures.filter((f) => f.kind === 'warning').map((f) => f.message);
    expect(said('handler')).toEqual(['the round stopped early', 'some requests got no response']);
    expect(said('empty')).toEqual(['the round stopped early']);
  });
});

describe('executeLoop with a measurer that keeps processes across a set', () => {
  /** A fake warm measurer: logs units, and at each set's end reports a crash after the set's last unit on arm y in round 1. */
  function warmMeasurer(calls: Call[], ends: string[][]): Measurer {
    let set: string[] = [];
    const base = fakeMeasurer(() => [5, 6, 7], calls);
    return {
      ...base,
      async replicate(unit, arms, context) {
        set.push(unit.key);
        return base.replicate(unit, arms, context);
      },
      async endSet() {
        ends.push(set);
        const last = set[set.length - 1]!;
        const round = calls[calls.length - 1]!.round;
        set = [];
        return round === 1 ? [{ unitKey: last, armId: 'y', round, failure: { kind: 'crash', message: 'exited with code 1 after its last case' } }] : [];
      },
    };
  }

  it('shuffles the units per set, ends every set, and fails the round a late failure names', async () => {
    const cases = ['a', 'b', 'c', 'd', 'e', 'f'];
    const ends: string[][] = [];
    const { run: r, calls } = await run({ cases, schedule: { order: 'shuffled', rounds: 4 }, measurer: (calls) => warmMeasurer(calls, ends) });
    // Every set holds every unit once, and the orders differ between sets (seeded: the same on every run).
    expect(ends).toHaveLength(4);
    for (const set of ends) expect([...set].sort()).toEqual(cases);
    expect(new Set(ends.map((s) => s.join(''))).size).toBeGreaterThan(1);
    expect(calls).toHaveLength(24);
    // The unit that ended set 1 lost arm y's round 1 and says why.
    const last = ends[1]![5]!;
    const y = r.results.find((x) => x.caseId === last && x.variantId === 'y')!;
    expect(y.rounds.map((x) => x.round)).toEqual([0]);
    expect(y.failures.find((f) => f.kind === 'crash')).toMatchObject({ round: 1 });
    // The arm is not asked again for that unit; the other arm kept all four rounds.
    expect(r.results.find((x) => x.caseId === last && x.variantId === 'x')!.rounds).toHaveLength(4);
    expect(r.timing).toMatchObject({ timedMs: expect.any(Number), wallMs: expect.any(Number) });
  });

  it('ends processes that outlive the last set once, after it, and keeps what they say then', async () => {
    const ends: string[][] = [];
    let runEnds = 0;
    const { run: r } = await run({
      cases: ['a', 'b'],
      schedule: { order: 'shuffled', rounds: 2 },
      measurer: (calls) => ({
        ...warmMeasurer(calls, ends),
        async endRun() {
          runEnds++;
          expect(ends).toHaveLength(2);
          return [{ unitKey: 'a', armId: 'x', round: 1, failure: { kind: 'warning', message: 'left a child running' } }];
        },
      }),
    });
    expect(runEnds).toBe(1);
    expect(r.results.find((x) => x.caseId === 'a' && x.variantId === 'x')!.failures).toContainEqual({ kind: 'warning', message: 'left a child running', round: 1 });
  });

  /** The loop over `cases` × arms x and y with `measurer`, counting the rounds each save holds. */
  function loopSaving(measurer: Measurer, cases: string[], rounds: number, saves: number[]): Promise<RunRecord> {
    const record = emptyRun(cases, ['x', 'y']);
    const resultFor = addResults(record, cases.map((id) => ({ id })), [{ id: 'x' }, { id: 'y' }]);
    const units = cases.map((id) => ({ key: id, cases: [caseSpec(id)] }));
    return executeLoop(record, { units, arms: ['x', 'y'].map(arm), roundPlan: { order: 'shuffled', rounds }, seed: 7, resultFor }, measurer, {
      save: (r) => saves.push(r.results.reduce((n, x) => n + x.rounds.length, 0)),
    });
  }

  it("with a measurer whose replicates start untimed, saves each replicate's results while the next one warms, and the last at the run's end", async () => {
    const saves: number[] = [];
    /** Saves made before and after each replicate's call of whileUntimed. */
    const atUntimed: number[] = [];
    const warm = warmMeasurer([], []);
    const measurer: Measurer = {
      ...warm,
      untimedStart: true,
      async replicate(unit, arms, context) {
        atUntimed.push(saves.length);
        context.whileUntimed?.();
        atUntimed.push(saves.length);
        return warm.replicate(unit, arms, context);
      },
    };
    await loopSaving(measurer, ['a', 'b', 'c'], 2, saves);
    // Three units × two arms per set. A replicate saves nothing as it ends, nor does a set's end; the next
    // replicate's untimed start saves them (the first has nothing to save), and the run's end saves the last set
    // (with the late crash that took one of its rounds away).
    expect(atUntimed).toEqual([0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    expect(saves).toEqual([2, 4, 6, 8, 10, 11]);
  });

  it('saves the results before a replicate that throws, though it never reached its untimed start', async () => {
    const saves: number[] = [];
    let replicates = 0;
    const warm = warmMeasurer([], []);
    const measurer: Measurer = {
      ...warm,
      untimedStart: true,
      async replicate(unit, arms, context) {
        if (++replicates === 2) throw new Error('the host lost a process');
        return warm.replicate(unit, arms, context);
      },
    };
    await expect(loopSaving(measurer, ['a', 'b'], 1, saves)).rejects.toThrow('the host lost a process');
    expect(saves).toEqual([2]);
  });

  it("saves a set's last results when ending the set fails", async () => {
    const saves: number[] = [];
    const warm = warmMeasurer([], []);
    const measurer: Measurer = {
      ...warm,
      untimedStart: true,
      endSet: () => Promise.reject(new Error('a process would not close')),
    };
    await expect(loopSaving(measurer, ['a', 'b'], 1, saves)).rejects.toThrow('a process would not close');
    // The first unit's results were saved as the second warmed; the second's, as the set's end failed.
    expect(saves).toEqual([2, 4]);
  });

  it("saves the run's last results when ending the run fails", async () => {
    const saves: number[] = [];
    const warm = warmMeasurer([], []);
    const measurer: Measurer = {
      ...warm,
      untimedStart: true,
      endRun: () => Promise.reject(new Error('a process would not close')),
    };
    await expect(loopSaving(measurer, ['a', 'b'], 1, saves)).rejects.toThrow('a process would not close');
    // The first unit's results were saved as the second warmed; the second's, as the run's end failed.
    expect(saves).toEqual([2, 4]);
  });

  it('keeps the units in plan order when the measurer does not keep processes', async () => {
    const { calls } = await run({ cases: ['a', 'b', 'c'], schedule: { order: 'shuffled', rounds: 2 }, measurer: (calls) => fakeMeasurer(() => [1], calls) });
    expect(calls.map((c) => c.unit).join('')).toBe('abcabc');
  });
});

describe('the profile phase', () => {
  /** A profiler whose passes log what they take, when, and with which places in the run. */
  function fakeProfiler(log: string[], options: { start?: boolean; onTake?: () => void } = {}) {
    const pass = (label: string): ProfilePass => ({
      label,
      async take(unit, a, at) {
        log.push(`${label} ${unit.key}#${at.unitIndex} ${a.id}#${at.armIndex}`);
        options.onTake?.();
      },
      unitDone: (unit) => void log.push(`${label} ${unit.key} done`),
    });
    return { passes: [pass('cpu'), pass('alloc')], start: (r: RunRecord) => (log.push(`start ${r.status}`), options.start ?? true) };
  }

  async function profiled(profiler: Profiler, signal?: AbortSignal, measurerCalls?: () => void) {
    const cases = ['a', 'b'];
    const record = emptyRun(cases, ['x', 'y']);
    const resultFor = addResults(record, cases.map((id) => ({ id })), [{ id: 'x' }, { id: 'y' }]);
    const events: string[] = [];
    const done = await executeLoop(
      record,
      { units: cases.map((id) => ({ key: id, cases: [caseSpec(id)] })), arms: ['x', 'y'].map(arm), roundPlan: { order: 'balanced', rounds: 2 }, seed: 7, resultFor, profiler },
      fakeMeasurer(() => [10, 11], [], measurerCalls),
      { save: () => {}, onProfile: (e) => events.push(`${e.pass} ${e.caseId} ${e.variantId}`), ...(signal ? { signal } : {}) },
    );
    return { run: done, events };
  }

  it('runs after the measured rounds, on the finished run: each pass over every case and arm in the run order, a unit closed after its last arm', async () => {
    const log: string[] = [];
    const { run: r, events } = await profiled(fakeProfiler(log));
    expect(r.status).toBe('complete');
    expect(log).toEqual([
      'start complete',
      'cpu a#0 x#0',
      'cpu a#0 y#1',
      'cpu a done',
      'cpu b#1 x#0',
      'cpu b#1 y#1',
      'cpu b done',
      'alloc a#0 x#0',
      'alloc a#0 y#1',
      'alloc a done',
      'alloc b#1 x#0',
      'alloc b#1 y#1',
      'alloc b done',
    ]);
    expect(events[0]).toBe('cpu a x');
    expect(events).toHaveLength(8);
  });

  it('takes no profile when the profiler declines the run, or when the run was interrupted', async () => {
    const declined: string[] = [];
    await profiled(fakeProfiler(declined, { start: false }));
    expect(declined).toEqual(['start complete']);
    const abort = new AbortController();
    const interrupted: string[] = [];
    const { run: r } = await profiled(fakeProfiler(interrupted), abort.signal, () => abort.abort());
    expect(r.status).toBe('interrupted');
    expect(interrupted).toEqual([]);
  });

  it('stops between two profiles when the signal comes, keeping what it took', async () => {
    const abort = new AbortController();
    const log: string[] = [];
    const { run: r } = await profiled(fakeProfiler(log, { onTake: () => log.length === 3 && abort.abort() }), abort.signal);
    // The measured run finished before the phase: its record stays complete.
    expect(r.status).toBe('complete');
    expect(log).toEqual(['start complete', 'cpu a#0 x#0', 'cpu a#0 y#1']);
  });
});
