/**
 * The loop, run in this process on a virtual clock: a read of the clock costs
 * READ_NS and a call of work(n) costs n ns, so the loop's arithmetic (batches,
 * warmup, edge alignment on a 1 ms clock) is checked exactly, whatever the
 * machine's load. The teardown and serve tests use the real clock and assert
 * only order and answers.
 */
import { describe, expect, it } from 'vitest';
import { bench, suite, type CaseSpec, type SuiteDefinition } from '../src/suite.ts';
import { executeJob, type RuntimeEnvironment } from '../src/execute.ts';
import { probeClock, type Clock } from '../src/clock.ts';
import { caseCommand, type CaseResultMessage, type RuntimeMessage } from '../src/protocol.ts';
import type { MeasureOptions } from '../src/measure.ts';
import { parseRuntimeMessage } from '../src/protocol-schema.ts';

const origin = process.hrtime.bigint();
const realClock: Clock = { name: 'hrtime', now: () => Number(process.hrtime.bigint() - origin) };

const READ_NS = 10;
let virtualNs = 0;
const virtualClock: Clock = {
  name: 'virtual',
  now: () => (virtualNs += READ_NS),
};
/** The virtual clock seen through 1 ms steps, like performance.now() in workerd. */
const coarseClock: Clock = { name: 'virtual floored to 1ms', now: () => Math.floor(virtualClock.now() / 1e6) * 1e6 };

function work(n: number): number {
  virtualNs += n;
  let s = 0;
  for (let i = 0; i < n; i++) s = (s + Math.imul(i, 2654435761)) | 0;
  return s;
}

const testSuite = suite('loop', () => {
  bench('work', function* (ctx) {
    const n = ctx.get<number>('n');
    yield () => work(n);
  }).args('n', [500, 4000]);
  bench('async work', async () => {
    await null;
    return work(500);
  });
  bench('teardown', function* () {
    yield () => 1;
    (globalThis as { teardownRan?: boolean }).teardownRan = true;
  });
});

async function run(caseId: string, clock: Clock = virtualClock, timeMs = 150): Promise<RuntimeMessage[]> {
  const messages: RuntimeMessage[] = [];
  const env: RuntimeEnvironment = {
    facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: false },
    clock,
    emit: (m) => messages.push(m),
  };
  await executeJob(testSuite, { protocol: 1, kind: 'measure', caseId, options: { warmupMs: 50, timeMs, minSamples: 5, maxSamples: 100_000, sampleMs: 0 } }, env);
  return messages;
}

function result(messages: RuntimeMessage[]): CaseResultMessage {
  const r = messages.find((m): m is CaseResultMessage => m.type === 'result');
  if (!r) throw new Error(`no result: ${JSON.stringify(messages)}`);
  return r;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

describe('measure loop', () => {
  it('measures 8x the work as 8x the time (fine clock)', async () => {
    const small = median(result(await run('work [n=500]')).samples);
    const large = median(result(await run('work [n=4000]')).samples);
    // Each call also pays the loop's own clock reads, spread over a batch: a few ns at most.
    expect(small).toBeGreaterThanOrEqual(500);
    expect(small).toBeLessThan(520);
    expect(large / small).toBeGreaterThan(7.7);
    expect(large / small).toBeLessThanOrEqual(8);
  });

  it('recovers sub-tick times from a 1 ms clock by edge alignment', async () => {
    expect(probeClock(coarseClock).edgeAligned).toBe(true);
    expect(probeClock(virtualClock).edgeAligned).toBe(false);
    const coarse = result(await run('work [n=500]', coarseClock, 300));
    expect(coarse.clock.edgeAligned).toBe(true);
    expect(coarse.clock.resolutionNs).toBe(1e6);
    // One call costs 500 ns, a two-thousandth of a tick; counting reads to the next edge recovers it.
    const perCall = median(coarse.samples);
    expect(perCall).toBeGreaterThan(450);
    expect(perCall).toBeLessThan(550);
  });

  it('awaits async cases and reports them as async', async () => {
    const r = result(await run('async work'));
    expect(r.async).toBe(true);
    expect(r.digest.summary).toBe(`number ${work(500)}`);
    expect(r.samples.length).toBeGreaterThanOrEqual(5);
  });

  it('digests the value the case returns', async () => {
    const a = result(await run('work [n=500]')).digest;
    const b = result(await run('work [n=4000]')).digest;
    expect(a.summary).toBe(`number ${work(500)}`);
    expect(a.hash).not.toBe(b.hash);
  });

  it('runs the code after yield as teardown', async () => {
    (globalThis as { teardownRan?: boolean }).teardownRan = false;
    result(await run('teardown', realClock, 20));
    expect((globalThis as { teardownRan?: boolean }).teardownRan).toBe(true);
  });

  it('timestamps every sample: one start per sample, in order, each after the previous sample ended', async () => {
    const r = result(await run('work [n=4000]'));
    const starts = r.sampleStartMs!;
    expect(starts).toHaveLength(r.samples.length);
    for (let i = 1; i < starts.length; i++) {
      const previousSampleMs = (r.samples[i - 1]! * r.iterationsPerSample) / 1e6;
      // Starts are rounded to 1 µs, hence the 2 µs of slack.
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(previousSampleMs - 0.002);
    }
    // The message, timestamps included, passes the host's validation; a message without them (older runners) too.
    expect(parseRuntimeMessage(JSON.parse(JSON.stringify(r)))).toMatchObject({ sampleStartMs: starts });
    const { sampleStartMs: _dropped, ...older } = r;
    expect(parseRuntimeMessage(older)).not.toHaveProperty('sampleStartMs');
  });

  it("gives a case under 100 ns per call the process's floor (an empty case timed by the loop), and a longer case none", async () => {
    // The real clock: the floor is near a ns, and an empty call's result (1) is below 100 ns too.
    const short = result(await run('teardown', realClock, 20));
    expect(short.floorNs).toBeGreaterThan(0);
    expect(short.floorNs).toBeLessThan(100);
    // 500 virtual ns per call: no floor is taken for it.
    expect(result(await run('work [n=500]')).floorNs).toBeUndefined();
    expect(parseRuntimeMessage(JSON.parse(JSON.stringify(short)))).toMatchObject({ floorNs: short.floorNs });
  });

  it("says in the digest's summary when the case's harness returns nothing by design", async () => {
    // 500 virtual ns of work per call, then nothing returned.
    const body = (): undefined => void work(500);
    const spec = (id: string, returnsNothing?: string): CaseSpec => ({ id, name: id, group: undefined, params: {}, body, ...(returnsNothing ? { returnsNothing } : {}) });
    const harness: SuiteDefinition = { kind: 'rtbench.suite', name: 'nothing', cases: () => [spec('plain'), spec('region', 'it times a region')] };
    const summaryOf = async (caseId: string): Promise<string> => {
      const messages: RuntimeMessage[] = [];
      const env: RuntimeEnvironment = { facts: { runtime: 'node', version: '0', engine: 'v8', engineVersion: '0', gcExposed: false }, clock: virtualClock, emit: (m) => messages.push(m) };
      await executeJob(harness, { protocol: 1, kind: 'measure', caseId, options: { warmupMs: 1, timeMs: 1, minSamples: 1, maxSamples: 5, sampleMs: 0 } }, env);
      return result(messages).digest.summary;
    };
    expect(await summaryOf('plain')).toBe('undefined');
    expect(await summaryOf('region')).toBe('undefined (it times a region)');
  });

  it('reports an unknown case as an error message, not a throw', async () => {
    const messages = await run('nope');
    expect(messages.find((m) => m.type === 'error')).toMatchObject({ phase: 'load', message: expect.stringContaining('no case "nope"') });
  });
});

/** A serve job driven by a list of commands (consumed as the process reads them); the messages it said, as the host validates them. */
async function serve(suiteDefinition: SuiteDefinition, commands: string[], clock = realClock, options: MeasureOptions = { warmupMs: 5, timeMs: 1, minSamples: 1, maxSamples: 10, sampleMs: 0 }): Promise<RuntimeMessage[]> {
  const messages: RuntimeMessage[] = [];
  const env: RuntimeEnvironment = {
    facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: false },
    clock,
    emit: (m) => messages.push(parseRuntimeMessage(JSON.parse(JSON.stringify(m)))),
    commands: async () => commands.shift(),
  };
  await executeJob(suiteDefinition, { protocol: 1, kind: 'serve', options }, env);
  return messages;
}

describe('a serve job (a warm process that serves many cases)', () => {
  it('answers each case it is asked for as a lockstep job would, in order, and ends when the host closes the channel', async () => {
    (globalThis as { teardownRan?: boolean }).teardownRan = false;
    const commands = ['case "work [n=500]"', 'sample', 'sample', 'finish', 'case "no such case"', 'finish', 'case "teardown"', 'sample', 'finish'];
    const ids = testSuite.cases().map((c) => c.id);
    commands[0] = `case ${JSON.stringify(ids.find((id) => id.includes('500')))}`;
    commands[6] = `case ${JSON.stringify(ids.find((id) => id.includes('teardown')))}`;
    const messages = await serve(testSuite, commands);
    expect(messages.map((m) => m.type)).toEqual(['hello', 'ready', 'sample', 'sample', 'result', 'error', 'ready', 'sample', 'result']);
    const samples = messages.filter((m) => m.type === 'sample');
    // Each sample says how long the whole exchange took on the process's clock: at least its timed batch.
    for (const s of samples) expect(s.type === 'sample' && s.spanNs! >= s.ns).toBe(true);
    expect(messages[5]).toMatchObject({ type: 'error', phase: 'load', caseId: 'no such case' });
    expect((globalThis as { teardownRan?: boolean }).teardownRan).toBe(true);
    expect(commands).toEqual([]);
  });

  it('keeps a case opened with keep: set up and fully warmed once, rewarmed when opened again, torn down when the channel closes', async () => {
    const log: string[] = [];
    // On the virtual clock, each call 100 µs: warmups end the same way every time and cost little real time.
    const spend = (): number => (virtualNs += 100_000);
    const kept = suite('kept', () => {
      bench('counted', function* () {
        log.push('setup');
        yield spend;
        log.push('teardown');
      });
      bench('other', spend);
    });
    const [counted, other] = kept.cases().map((c) => JSON.stringify(c.id)) as [string, string];
    const commands = [`keep ${counted}`, 'sample', 'finish', `case ${other}`, 'sample', 'finish', `keep ${counted}`, 'sample', 'sample', 'finish', `case ${counted}`, 'sample', 'finish', `keep ${counted}`, 'sample', 'finish'];
    const messages: RuntimeMessage[] = [];
    const env: RuntimeEnvironment = {
      facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: true },
      clock: virtualClock,
      emit: (m) => messages.push(parseRuntimeMessage(JSON.parse(JSON.stringify(m)))),
      commands: async () => {
        const next = commands.shift();
        if (next !== undefined) log.push(next.split(' ')[0]!);
        return next;
      },
      collect: () => log.push('collect'),
    };
    await executeJob(kept, { protocol: 1, kind: 'serve', options: { warmupMs: 240, warmupMinMs: 80, timeMs: 1, minSamples: 1, maxSamples: 10, sampleMs: 0, collectBeforeSampling: true } }, env);
    // Set up by the first keep; the second keep reuses it; the plain case after it tears it down; the last keep sets it up anew, torn down at the close.
    expect(log.filter((l) => l === 'setup' || l === 'teardown' || l === 'keep' || l === 'case')).toEqual(['keep', 'setup', 'case', 'keep', 'case', 'teardown', 'keep', 'setup', 'teardown']);
    // A collection between a case's command and its setup or rewarm, every time after the process's first case, kept or not
    // (what ran before is garbage by then; before the first only the process's loading ran); one after its warmup, before its
    // ready (asked for: collectBeforeSampling), and one after its last sample, before its answer (the host reads the
    // resident set as each of those messages arrives).
    expect(log.filter((l) => l !== 'sample' && l !== 'setup' && l !== 'teardown')).toEqual([
      ...['keep', 'collect', 'finish', 'collect'],
      ...['case', 'keep', 'case', 'keep'].flatMap((opened) => [opened, 'collect', 'collect', 'finish', 'collect']),
    ]);
    const results = messages.filter((m): m is CaseResultMessage => m.type === 'result');
    expect(results.map((r) => r.samples.length)).toEqual([1, 1, 2, 1, 1]);
    const ready = messages.filter((m) => m.type === 'ready');
    // Each ready says the process collected before it (and will after the last sample).
    expect(ready.map((m) => m.collected)).toEqual([true, true, true, true, true]);
    // A rewarm is REWARM_MS (10 ms) of batches: far fewer calls than a first warmup of at least 80 ms (all 240 here, every
    // call the same on the virtual clock); the batch size is kept.
    expect(ready[2]!.warmupIterations).toBeLessThan(ready[0]!.warmupIterations / 4);
    expect(ready[2]!.iterationsPerSample).toBe(ready[0]!.iterationsPerSample);
    expect(results[2]!.digest).toEqual(results[0]!.digest);
  });

  it('collects between warmup and the first sample only when the job asks (the memory view), and its ready says so', async () => {
    const log: string[] = [];
    const one = suite('one', () => bench('one', () => work(100)));
    const id = JSON.stringify(one.cases()[0]!.id);
    const readyOf = async (collectBeforeSampling: boolean): Promise<RuntimeMessage | undefined> => {
      const commands = [`case ${id}`, 'sample', 'finish'];
      const messages: RuntimeMessage[] = [];
      const env: RuntimeEnvironment = {
        facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: true },
        clock: realClock,
        emit: (m) => {
          if (m.type === 'ready') log.push('ready');
          messages.push(m);
        },
        commands: async () => commands.shift(),
        collect: () => log.push('collect'),
      };
      const options = { warmupMs: 30, warmupMinMs: 5, timeMs: 1, minSamples: 1, maxSamples: 2, sampleMs: 0, ...(collectBeforeSampling ? { collectBeforeSampling } : {}) };
      await executeJob(one, { protocol: 1, kind: 'serve', options }, env);
      return messages.find((m) => m.type === 'ready');
    };
    expect((await readyOf(false)) as { collected?: boolean }).not.toHaveProperty('collected');
    // Not asked: one collection after its last sample, none just before ready (nor as the process's first case opens).
    expect(log.splice(0)).toEqual(['ready', 'collect']);
    expect((await readyOf(true)) as { collected?: boolean }).toMatchObject({ collected: true });
    expect(log.splice(0)).toEqual(['collect', 'ready', 'collect']);
  });

  it('reads what the engine held right after the collections before the first sample and after the last, asked for the memory view', async () => {
    const one = suite('one', () => bench('one', () => work(100)));
    const id = JSON.stringify(one.cases()[0]!.id);
    const resultOf = async (collectBeforeSampling: boolean): Promise<RuntimeMessage | undefined> => {
      const commands = [`case ${id}`, 'sample', 'sample', 'finish'];
      const messages: RuntimeMessage[] = [];
      // The engine's figure goes up by 1 MiB at each collection: the readings must come right after the one before ready and the last.
      let collections = 0;
      const env: RuntimeEnvironment = {
        facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: true },
        clock: realClock,
        emit: (m) => messages.push(m),
        commands: async () => commands.shift(),
        collect: () => void collections++,
        metrics: { start: () => {}, stop: () => ({ source: 'fake', heap: { heapUsedBytes: 1 } }), heldBytes: () => collections * 1024 * 1024 },
      };
      const options = { warmupMs: 30, warmupMinMs: 5, timeMs: 1, minSamples: 1, maxSamples: 2, sampleMs: 0, ...(collectBeforeSampling ? { collectBeforeSampling } : {}) };
      await executeJob(one, { protocol: 1, kind: 'serve', options }, env);
      return messages.find((m) => m.type === 'result');
    };
    expect((await resultOf(true)) as { metrics?: { heap?: object } }).toMatchObject({ metrics: { heap: { heapUsedBytes: 1, heldReadyBytes: 1 * 1024 * 1024, heldEndBytes: 2 * 1024 * 1024 } } });
    // Not asked: no collection before the first sample, so nothing the engine held there is what the case kept.
    expect(((await resultOf(false)) as { metrics?: { heap?: object } }).metrics?.heap).not.toHaveProperty('heldReadyBytes');
  });

  it('opens a case with the rate known past the tier-up horizon when the case command carries it, and with the horizon alone otherwise', async () => {
    // 5 virtual µs a call: 30,000 calls in 150 ms, within the horizon's 1.5 s, so the horizon holds a plain open.
    const flat = suite('flat', () => bench('flat', () => work(5_000)));
    const id = flat.cases()[0]!.id;
    const steady = { windowBatches: 8, tolerance: 0.02, minMs: 5, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };
    const commands = [caseCommand(id, false, 5_000), 'sample', 'finish', caseCommand(id, false, 2_000), 'sample', 'finish', caseCommand(id), 'sample', 'finish'];
    const options: MeasureOptions = { warmupMs: 30, warmupMinMs: 5, timeMs: 1, minSamples: 1, maxSamples: 5, sampleMs: 0, steady };
    const [known, faster, held] = (await serve(flat, commands, virtualClock, options)).filter((m): m is CaseResultMessage => m.type === 'result');
    expect(known!.warmup!.tierUp).toMatchObject({ kind: 'waived' });
    expect(known!.warmupIterations).toBeLessThan(30_000);
    // Known to run 2.5× faster past the horizon than this process does: it waits.
    expect(faster!.warmup!.tierUp).toMatchObject({ kind: 'crossed' });
    expect(faster!.warmupIterations).toBeGreaterThanOrEqual(30_000);
    expect(held!.warmup!.tierUp).toMatchObject({ kind: 'crossed', stepped: false });
    expect(held!.warmupIterations).toBeGreaterThanOrEqual(30_000);
  });

  it('says when a kept case fails its teardown as the channel closes: one late error for that case, after every answer', async () => {
    const failing = suite('failing-teardown', () => {
      bench('leaky', function* () {
        yield () => work(50);
        throw new Error('the pool was not drained');
      });
      bench('tidy', function* () {
        yield () => work(50);
      });
    });
    const [leaky, tidy] = failing.cases().map((c) => JSON.stringify(c.id)) as [string, string];
    const commands = [`keep ${leaky}`, 'sample', 'finish', `keep ${tidy}`, 'sample', 'finish'];
    const answers = (await serve(failing, commands)).filter((m) => m.type === 'result' || m.type === 'error');
    expect(answers.map((m) => m.type)).toEqual(['result', 'result', 'error']);
    expect(answers[2]).toMatchObject({ type: 'error', caseId: JSON.parse(leaky), phase: 'teardown', message: expect.stringContaining('the pool was not drained') });
  });
});
