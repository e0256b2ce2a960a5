/**
 * The span (amortize.ts) on a scripted case: a call costs `quiet` ns, and
 * every `period`-th call also pays a collection of `pause` ns, so a batch's
 * time is exact and the growth's arithmetic is checked whatever the machine
 * does.
 */
import { describe, expect, it } from 'vitest';
import { cycleCallsOf, cycleFloor, flooredCalls, SAMPLE_FLOOR_MS, SPAN_CAP_TARGETS, SPAN_CYCLES, spanPeriodicCosts, spansCollections, type SpanWindow } from '../src/amortize.ts';
import { bench, suite } from '../src/index.ts';
import { executeJob, type RuntimeEnvironment } from '../src/execute.ts';
import type { Clock } from '../src/clock.ts';
import { lockstepPreBatch, lockstepSampleIterations, NO_PRE_BATCH_NS, type CaseResultMessage, type ReadyMessage, type RuntimeMessage } from '../src/protocol.ts';

const TARGET = 1e6;

/** A case whose calls cost `quiet` ns and whose every `period`-th call also pays `pause` ns; its windows, and the sizes it was asked for. */
function scripted(quiet: number, period: number, pause: number): { window: SpanWindow; sizes: number[] } {
  let calls = 0;
  const sizes: number[] = [];
  const window: SpanWindow = (size, batches) => {
    sizes.push(size);
    const perCall: number[] = [];
    for (let b = 0; b < batches; b++) {
      const collections = Math.floor((calls + size) / period) - Math.floor(calls / period);
      calls += size;
      perCall.push((size * quiet + collections * pause) / size);
    }
    return Promise.resolve(perCall);
  };
  return { window, sizes };
}

describe('samples grown to span the collections', () => {
  it('keeps the calibrated batch for a case that pays nothing periodic: its median is its cost', async () => {
    const { window, sizes } = scripted(100, Infinity, 0);
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET);
    expect(s.n).toBe(10_000);
    expect(s.span).toEqual({ quietCallNs: 100, grownBy: 1 });
    expect(new Set(sizes)).toEqual(new Set([10_000]));
    // 16 sample targets of 1 ms batches, made odd: 17 batches.
    expect(s.calls).toBe(17 * 10_000);
    expect(s.batchNs).toBe(1e6);
  });

  it('doubles the batch until each sample holds its collections, and its median then reads the amortized cost', async () => {
    // A collection of 300 µs every 25,000 calls (2.5 ms): a 1 ms batch holds one in 2.5 batches at most.
    const { window, sizes } = scripted(100, 25_000, 300_000);
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET);
    expect(s.span.quietCallNs).toBe(100);
    expect(s.span.capped).toBeUndefined();
    expect(s.span.grownBy).toBeGreaterThan(1);
    expect(sizes[0]).toBe(10_000);
    expect(sizes.at(-1)).toBe(s.n);
    // amortized: 100 + 300,000 / 25,000 = 112 ns per call
    expect(s.batchNs / s.n).toBeGreaterThan(110);
    expect(s.batchNs / s.n).toBeLessThan(116);
  });

  it('stops at the cap and says so when collections are rarer than the longest sample', async () => {
    // One collection of 3 ms every 150,000 calls (15 ms): most samples of up to 8 ms hold none, the rest one.
    const { window, sizes } = scripted(100, 150_000, 3e6);
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET);
    expect(s.span.capped).toBe(true);
    expect(s.n * 100).toBeLessThanOrEqual(SPAN_CAP_TARGETS * TARGET);
    expect(s.n * 100 * 2).toBeGreaterThan(SPAN_CAP_TARGETS * TARGET);
    expect(sizes).toContain(80_000);
    expect(s.span.grownBy).toBe(8);
    // Its sample as the last window read it: the median batch of 80,000 calls.
    expect(s.batchNs).toBe(80_000 * 100);
    // Windows of 16 targets at least, 7 batches at least, odd: 17 of 10,000 calls, 9 of 20,000, then 7.
    expect(s.calls).toBe(2 * (17 * 10_000 + 9 * 20_000 + 7 * 40_000 + 7 * 80_000));
  });

  it('stops growing at 2^30 calls a batch, whatever the clock says', async () => {
    const window: SpanWindow = (_size, batches) => Promise.resolve(Array.from({ length: batches }, (_, i) => (i === 0 ? 1e-8 : 1e-9)));
    const s = await spanPeriodicCosts(window, 2 ** 29, 1, TARGET);
    expect(s.n).toBe(2 ** 30);
    expect(s.span.capped).toBe(true);
  });

  it("takes the warmup's last batches as its first window: a case that pays nothing periodic times no batch more", async () => {
    const { window, sizes } = scripted(100, Infinity, 0);
    const warmed = [130, 101, 100, 99, 100, 100, 101, 100];
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET, warmed);
    expect(sizes).toEqual([]);
    expect(s.calls).toBe(0);
    // the latest seven: their median
    expect(s.span).toEqual({ quietCallNs: 100, grownBy: 1 });
    // Too few to judge: a window of its own.
    await spanPeriodicCosts(window, 10_000, 1e6, TARGET, [100, 100, 100]);
    expect(sizes).toEqual([10_000]);
  });

  it('grows from an uneven warmup window as from its own, once a window of its own is uneven too', async () => {
    const { window, sizes } = scripted(100, 25_000, 300_000);
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET, [100, 100, 400, 100, 100, 100, 400]);
    // The warmup's window, then one of its own at the same size, then the doubled size.
    expect(sizes.slice(0, 2)).toEqual([10_000, 20_000]);
    expect(s.span.quietCallNs).toBe(100);
    expect(s.span.grownBy).toBeGreaterThan(1);
  });

  it("does not grow for one neighbour's preemption: the window timed again at the same size is even", async () => {
    let windows = 0;
    const sizes: number[] = [];
    const window: SpanWindow = (size, batches) => {
      sizes.push(size);
      // The first window has one batch preempted for 4 ms; the next is clean.
      const preempted = windows++ === 0;
      return Promise.resolve(Array.from({ length: batches }, (_, i) => 100 + (preempted && i === 3 ? 4e6 / size : 0)));
    };
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET);
    expect(sizes).toEqual([10_000, 10_000]);
    expect(s.span).toEqual({ quietCallNs: 100, grownBy: 1 });
    expect(s.n).toBe(10_000);
  });

  it('reads the cost between collections as the lowest window median: a first window slowed throughout does not hide the share', async () => {
    const { window: collecting } = scripted(100, 25_000, 300_000);
    let windows = 0;
    // The first window preempted or still tiering up: every batch three times as long (and uneven: it holds collections too).
    const window: SpanWindow = async (size, batches) => {
      const first = windows++ === 0;
      return (await collecting(size, batches)).map((x) => (first ? 3 * x : x));
    };
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET);
    expect(s.span.quietCallNs).toBe(100);
    expect(s.span.grownBy).toBeGreaterThan(1);
  });

  it('keeps the cost between collections it read when a later window reads 0 (the clock did not see it)', async () => {
    let windows = 0;
    const window: SpanWindow = (_size, batches) => {
      // The first uneven (a third of its batches four times as long), the next all 0.
      const first = windows++ === 0;
      return Promise.resolve(Array.from({ length: batches }, (_, i) => (first ? (i % 3 === 0 ? 400 : 100) : 0)));
    };
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET);
    expect(s.span.quietCallNs).toBe(100);
    expect(s.batchNs).toBe(0);
  });

  it('takes a window whose mean is off its median by exactly the tolerance as even', async () => {
    const { window, sizes } = scripted(100, Infinity, 0);
    // Median 100, mean 105: 5% exactly.
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET, [100, 100, 100, 100, 100, 100, 135]);
    expect(sizes).toEqual([]);
    expect(s.span).toEqual({ quietCallNs: 100, grownBy: 1 });
  });

  it("judges an even count of the warmup's batches by its latest odd count, the oldest left out", async () => {
    const { window, sizes } = scripted(100, Infinity, 0);
    // The latest seven are uneven (two of them four times as long): a window of its own follows.
    await spanPeriodicCosts(window, 10_000, 1e6, TARGET, [100, 100, 100, 400, 100, 100, 100, 400]);
    expect(sizes).toEqual([10_000]);
    // The oldest of eight, slow, is left out: the latest seven are even.
    const s = await spanPeriodicCosts(window, 10_000, 1e6, TARGET, [900, 100, 100, 100, 100, 100, 100, 100]);
    expect(sizes).toEqual([10_000]);
    expect(s.span).toEqual({ quietCallNs: 100, grownBy: 1 });
  });

  it('does not grow a batch whose windows the clock did not see', async () => {
    const window: SpanWindow = (_size, batches) => Promise.resolve(Array.from({ length: batches }, (_, i) => (i === 0 ? 5 : 0)));
    const s = await spanPeriodicCosts(window, 1_000, 0, TARGET);
    expect(s.span).toEqual({ quietCallNs: 0, grownBy: 1 });
  });

  it('takes a call longer than the cap as it is: one window, capped when its mean still leads', async () => {
    // 10 ms a call, every third call 5 ms more.
    const { window, sizes } = scripted(10e6, 3, 5e6);
    const s = await spanPeriodicCosts(window, 1, 10e6, TARGET);
    expect(sizes).toEqual([1, 1]);
    expect(s.span.capped).toBe(true);
  });
});

describe("samples sized in the case's young-generation cycles, where the engine says them", () => {
  it('reads the calls per cycle from two readings of the allocation counter', () => {
    // 3,000 bytes a call over 10,000 calls; a cycle of 4.2 MB: 1,400 calls.
    expect(cycleCallsOf({ allocatedBytes: 1e6, cycleBytes: 1 }, { allocatedBytes: 31e6, cycleBytes: 4.2e6 }, 10_000)).toBe(1_400);
    expect(cycleCallsOf(undefined, { allocatedBytes: 31e6, cycleBytes: 4.2e6 }, 10_000)).toBe(0);
    expect(cycleCallsOf({ allocatedBytes: 1e6, cycleBytes: 4.2e6 }, undefined, 10_000)).toBe(0);
    // Nothing allocated, or no calls: no cycle.
    expect(cycleCallsOf({ allocatedBytes: 1e6, cycleBytes: 4.2e6 }, { allocatedBytes: 1e6, cycleBytes: 4.2e6 }, 10_000)).toBe(0);
    expect(cycleCallsOf({ allocatedBytes: 1e6, cycleBytes: 4.2e6 }, { allocatedBytes: 2e6, cycleBytes: 4.2e6 }, 0)).toBe(0);
  });

  it('starts the span at the calibrated batch doubled to hold the cycles, where they fit under the cap', () => {
    const cap = SPAN_CAP_TARGETS * TARGET;
    expect(SPAN_CYCLES).toBe(2);
    // 1,000 calls of 1 µs; cycles of 1,400 calls: 2,800 calls, so 4,000 (4 ms).
    expect(cycleFloor(1_000, 1_000, 1_400, cap)).toBe(4_000);
    // Cycles the batch already holds, or none known: the batch as it is.
    expect(cycleFloor(1_000, 1_000, 400, cap)).toBe(1_000);
    expect(cycleFloor(1_000, 1_000, 500, cap)).toBe(1_000);
    expect(cycleFloor(1_000, 1_000, 0, cap)).toBe(1_000);
    expect(cycleFloor(1_000, 1_000, NaN, cap)).toBe(1_000);
    // Two cycles longer than the cap: left to the windows' test.
    expect(cycleFloor(1_000, 1_000, 4_001, cap)).toBe(1_000);
    // Two cycles a doubled batch holds exactly.
    expect(cycleFloor(1_000, 1_000, 1_000, cap)).toBe(2_000);
    // A call longer than the cap, whatever the cycle: the batch as it is.
    expect(cycleFloor(1, 9e6, 0.25, cap)).toBe(1);
    // Two cycles exactly at the cap.
    expect(cycleFloor(1_000, 1_000, 4_000, cap)).toBe(8_000);
    // Two cycles under the cap whose doubled batch would pass it: the size below, which holds one cycle at least.
    expect(cycleFloor(3_000, 1_000, 3_500, cap)).toBe(6_000);
  });

  it('times its first window at that size, the warmup still saying the cost between collections, and grows from there', async () => {
    // A collection of 150 µs every 1,400 calls of 1 µs.
    const { window, sizes } = scripted(1_000, 1_400, 150_000);
    const s = await spanPeriodicCosts(window, 1_000, 1e6, TARGET, [1_000, 1_000, 1_150, 1_000, 1_150, 1_000, 1_000], 1_400);
    expect(sizes[0]).toBe(4_000);
    expect(s.span.quietCallNs).toBe(1_000);
    expect(s.span.grownBy).toBeGreaterThanOrEqual(4);
    expect(spansCollections(s.span)).toBe(true);
    // Without a warmup window of its own, the cost between collections is the grown windows' own.
    const again = await spanPeriodicCosts(scripted(1_000, 1_400, 150_000).window, 1_000, 1e6, TARGET, [], 1_400);
    expect(again.span.quietCallNs).toBeGreaterThan(1_000);
    // No cycle known: the windows' test alone, from the calibrated batch.
    const { window: plain, sizes: plainSizes } = scripted(1_000, 1_400, 150_000);
    await spanPeriodicCosts(plain, 1_000, 1e6, TARGET, [], 0);
    expect(plainSizes[0]).toBe(1_000);
  });
});

describe('a job that asks for spanned samples', () => {
  // A virtual clock: a read costs 10 ns, a call 500 ns, and every 6,000th call a collection of 600 µs (an eighth of the amortized cost).
  let virtualNs = 0;
  const clock: Clock = { name: 'virtual', now: () => (virtualNs += 10) };
  let calls = 0;
  const collecting = suite('span', () => {
    bench('allocates', () => {
      virtualNs += 500;
      if (++calls % 6_000 === 0) virtualNs += 600_000;
      return calls & 1;
    });
    bench('pure', () => {
      virtualNs += 500;
      return 1;
    });
  });

  async function answer(caseId: string, amortize: boolean, sampleFloorMs?: number): Promise<CaseResultMessage> {
    const messages: RuntimeMessage[] = [];
    const env: RuntimeEnvironment = { facts: { runtime: 'node', version: '0', engine: 'v8', engineVersion: '0', gcExposed: false }, clock, emit: (m) => messages.push(m) };
    const options = { warmupMs: 50, timeMs: 200, minSamples: 5, maxSamples: 100_000, sampleMs: 0, ...(amortize ? { amortize: true as const } : {}), ...(sampleFloorMs ? { sampleFloorMs } : {}) };
    await executeJob(collecting, { protocol: 1, kind: 'measure', caseId, options }, env);
    const r = messages.find((m): m is CaseResultMessage => m.type === 'result');
    if (!r) throw new Error(JSON.stringify(messages));
    return r;
  }

  const medianOf = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

  it('reads the amortized cost where short samples read the cost between collections, and says its span', async () => {
    const short = await answer('allocates', false);
    expect(short.span).toBeUndefined();
    expect(medianOf(short.samples)).toBeLessThan(510);
    const spanned = await answer('allocates', true);
    expect(spanned.span!.grownBy).toBeGreaterThan(1);
    expect(spanned.span!.quietCallNs).toBeLessThan(510);
    // 500 + 600,000 / 6,000 = 600 ns a call
    expect(medianOf(spanned.samples)).toBeGreaterThan(570);
    expect(medianOf(spanned.samples)).toBeLessThan(630);
    expect(spanned.iterationsPerSample).toBeGreaterThan(short.iterationsPerSample);
  });

  it('runs a whole batch untimed before each lockstep sample once grown, and its ready message says the span it follows', async () => {
    const commands = ['sample', 'sample', 'sample', 'finish'];
    const seen: number[] = [];
    const messages: RuntimeMessage[] = [];
    await executeJob(
      collecting,
      { protocol: 1, kind: 'paced', caseId: 'allocates', options: { warmupMs: 50, timeMs: 200, minSamples: 3, maxSamples: 3, sampleMs: 0, amortize: true } },
      {
        facts: { runtime: 'node', version: '0', engine: 'v8', engineVersion: '0', gcExposed: false },
        clock,
        emit: (m) => messages.push(m),
        commands: async () => {
          seen.push(calls);
          return commands.shift();
        },
      },
    );
    const ready = messages.find((m): m is ReadyMessage => m.type === 'ready')!;
    expect(ready.span!.grownBy).toBeGreaterThan(1);
    const n = ready.iterationsPerSample;
    // Each sample: a whole batch untimed, then the timed one.
    expect(seen.slice(1).map((c, i) => c - seen[i]!)).toEqual([2 * n, 2 * n, 2 * n]);
    expect(lockstepSampleIterations(n, ready.batchNs, ready.span)).toBe(2 * n);
  });

  it('raises every sample to the floor, and runs one span batch before a sample whose span grew', async () => {
    const spanned = await answer('allocates', true);
    const floored = await answer('allocates', true, SAMPLE_FLOOR_MS);
    expect(spanned.span!.flooredBy).toBeUndefined();
    const { flooredBy, grownBy, runUpCalls } = floored.span!;
    expect(grownBy).toBe(spanned.span!.grownBy);
    // At 500 ns a call and a collection's 100 ns a call amortized: 20 ms is about 33,000 calls.
    expect(floored.iterationsPerSample * 600).toBeGreaterThanOrEqual(SAMPLE_FLOOR_MS * 1e6 * 0.95);
    expect(flooredBy).toBeCloseTo(floored.iterationsPerSample / spanned.iterationsPerSample, 1);
    expect(runUpCalls).toBe(Math.ceil(floored.iterationsPerSample / flooredBy!));
    expect(medianOf(floored.samples)).toBeGreaterThan(590);
    expect(medianOf(floored.samples)).toBeLessThan(610);
    // A case that pays nothing periodic: raised alike, its run-up a quarter of the floored sample, its figure its cost.
    const pure = await answer('pure', true, SAMPLE_FLOOR_MS);
    expect(pure.span!.grownBy).toBe(1);
    expect(pure.iterationsPerSample * 500).toBeGreaterThanOrEqual(SAMPLE_FLOOR_MS * 1e6 * 0.95);
    expect(pure.span!.flooredBy).toBeGreaterThan(10);
    expect(pure.span!.runUpCalls).toBe(pure.iterationsPerSample >> 2);
    expect(medianOf(pure.samples)).toBeLessThan(510);
  });

  it('keeps the calibrated sample of a case that pays nothing periodic', async () => {
    const r = await answer('pure', true);
    // The engine said no cycle; the run-up each lockstep sample had is recorded: a quarter batch.
    expect(r.span).toEqual({ quietCallNs: expect.any(Number), grownBy: 1, runUpCalls: r.iterationsPerSample >> 2 });
    expect(medianOf(r.samples)).toBeLessThan(510);
  });

  it("starts the span at two of the young generation's cycles where the runtime's probe says them", async () => {
    // The probe counts 1,000 bytes a call and a young generation of 1.5 MB a cycle: 1,500 calls, so samples of 3,000 calls at least.
    let pureCalls = 0;
    const allocating = suite('young', () => {
      bench('pure', () => {
        virtualNs += 500;
        return ++pureCalls & 1;
      });
    });
    const messages: RuntimeMessage[] = [];
    const probe = { start: () => {}, stop: () => undefined, youngGeneration: () => ({ allocatedBytes: 1_000 * pureCalls, cycleBytes: 1.5e6 }) };
    await executeJob(
      allocating,
      { protocol: 1, kind: 'measure', caseId: 'pure', options: { warmupMs: 50, timeMs: 50, minSamples: 3, maxSamples: 100_000, sampleMs: 0, amortize: true } },
      { facts: { runtime: 'node', version: '0', engine: 'v8', engineVersion: '0', gcExposed: false }, clock, emit: (m) => messages.push(m), metrics: probe },
    );
    const r = messages.find((m): m is CaseResultMessage => m.type === 'result')!;
    expect(r.span!.grownBy).toBeGreaterThan(1);
    expect(r.iterationsPerSample).toBeGreaterThanOrEqual(SPAN_CYCLES * 1_500);
    // The cycle the probe said is recorded, and the run-up of a grown sample: a whole batch.
    expect(r.span!.cycleCalls).toBe(1_500);
    expect(r.span!.runUpCalls).toBe(r.iterationsPerSample);
    // A probe that throws says nothing: the calibrated batch, as with none.
    const quiet: RuntimeMessage[] = [];
    const failing = { start: () => {}, stop: () => undefined, youngGeneration: (): never => { throw new Error('replaced'); } };
    await executeJob(
      allocating,
      { protocol: 1, kind: 'measure', caseId: 'pure', options: { warmupMs: 50, timeMs: 50, minSamples: 3, maxSamples: 100_000, sampleMs: 0, amortize: true } },
      { facts: { runtime: 'node', version: '0', engine: 'v8', engineVersion: '0', gcExposed: false }, clock, emit: (m) => quiet.push(m), metrics: failing },
    );
    const unsaid = quiet.find((m): m is CaseResultMessage => m.type === 'result')!;
    expect(unsaid.span!.grownBy).toBe(1);
    expect(unsaid.span!.cycleCalls).toBeUndefined();
  });
});

describe('the sample floor', () => {
  it('raises the calls until the batch lasts the floor, and leaves a batch that already does', () => {
    expect(flooredCalls(1_000, 1e6, 20e6)).toBe(20_000);
    // One call of 8 ms: three.
    expect(flooredCalls(1, 8e6, 20e6)).toBe(3);
    expect(flooredCalls(1_000, 20e6, 20e6)).toBe(1_000);
    expect(flooredCalls(1_000, 30e6, 20e6)).toBe(1_000);
    // A batch the clock did not see is not scaled.
    expect(flooredCalls(1_000, 0, 20e6)).toBe(1_000);
  });
});

describe('the untimed batch before a lockstep sample', () => {
  it('is a whole batch once the span saw the case pay something periodic, a quarter otherwise', () => {
    expect(spansCollections(undefined)).toBe(false);
    expect(spansCollections({ quietCallNs: 100, grownBy: 1 })).toBe(false);
    expect(spansCollections({ quietCallNs: 100, grownBy: 2 })).toBe(true);
    expect(spansCollections({ quietCallNs: 100, grownBy: 1, capped: true })).toBe(true);
    expect(lockstepPreBatch(1_000, 1e6)).toBe(250);
    expect(lockstepPreBatch(1_000, 1e6, { quietCallNs: 900, grownBy: 1 })).toBe(250);
    expect(lockstepPreBatch(1_000, 1e6, { quietCallNs: 900, grownBy: 4 })).toBe(1_000);
    expect(lockstepPreBatch(3, 1e6, { quietCallNs: 9e5, grownBy: 1, capped: true })).toBe(3);
    expect(lockstepSampleIterations(1_000, 1e6, { quietCallNs: 900, grownBy: 2 })).toBe(2_000);
    expect(lockstepSampleIterations(1_000, 1e6)).toBe(1_250);
  });

  it('stays none for a long batch of few calls, grown or not', () => {
    expect(lockstepPreBatch(3, NO_PRE_BATCH_NS)).toBe(0);
    expect(lockstepPreBatch(3, NO_PRE_BATCH_NS, { quietCallNs: 2e6, grownBy: 1, capped: true })).toBe(0);
  });

});
