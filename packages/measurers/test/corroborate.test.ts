/** The host's clock against the runtime's: honest readings under any delay pass, a slowed or hurried clock fails. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SampleReading } from '@rtbench/process';
import { corroborate, corroborateProcess, corroborateSampling, quietestSpanShare, wantsQuietExchange } from '../src/measurers/corroborate.ts';

const FINE = { name: 'fine', resolutionNs: 1, readCostNs: 20, edgeAligned: false };
const COARSE = { name: 'coarse', resolutionNs: 1e6, readCostNs: 20, edgeAligned: true };

/**
 * A set of turns as they happen: the host sends at sentMs, the process reads
 * its clock `delayIn` later (offset by its own origin), works `batchMs`, the
 * answer reaches the host `delayOut` later. `rate` scales the process's clock.
 */
function turns(spec: { sentMs: number; delayIn: number; batchMs: number; delayOut: number }[], rate = 1, clockTick = 0) {
  const origin = 12_345.678;
  const readings: SampleReading[] = [];
  const sampleStartMs: number[] = [];
  const samples: number[] = [];
  for (const t of spec) {
    const startHost = t.sentMs + t.delayIn;
    const reading = (startHost - origin) * rate;
    sampleStartMs.push(clockTick ? Math.floor(reading / clockTick) * clockTick : Math.round(reading * 1000) / 1000);
    samples.push(t.batchMs * rate * 1e6);
    const receivedMs = startHost + t.batchMs + t.delayOut;
    // The process's own span of the exchange: a quarter batch untimed, then the batch.
    readings.push({ ns: t.batchMs * rate * 1e6, spanNs: 1.25 * t.batchMs * rate * 1e6, waitedNs: (receivedMs - t.sentMs) * 1e6, sentMs: t.sentMs, receivedMs });
  }
  return { record: { samples, sampleStartMs, iterationsPerSample: 1, clock: clockTick ? COARSE : FINE }, readings };
}

/** As turns(), each exchange with `runUpMs` of untimed run-up before its batch: in the process's span and the host's wait. */
function turnsWithRunUp(spec: { sentMs: number; delayIn: number; batchMs: number; delayOut: number }[], runUpMs: number) {
  let shift = 0;
  const shifted = spec.map((t) => {
    const out = { ...t, sentMs: t.sentMs + shift, delayIn: t.delayIn + runUpMs };
    shift += runUpMs;
    return out;
  });
  const { record, readings } = turns(shifted);
  // The process's span: the run-up, a quarter batch untimed and the batch.
  return { record, readings: readings.map((r) => ({ ...r, spanNs: r.spanNs! + runUpMs * 1e6 })) };
}

const turnArb = fc.record({ gap: fc.double({ min: 0, max: 50, noNaN: true }), delayIn: fc.double({ min: 0, max: 30, noNaN: true }), batchMs: fc.double({ min: 0.001, max: 16, noNaN: true }), delayOut: fc.double({ min: 0, max: 30, noNaN: true }) });

function schedule(arb: { gap: number; delayIn: number; batchMs: number; delayOut: number }[]) {
  let at = 1000;
  return arb.map((t) => {
    const out = { sentMs: at + t.gap, delayIn: t.delayIn, batchMs: t.batchMs, delayOut: t.delayOut };
    at = out.sentMs + t.delayIn + t.batchMs + t.delayOut;
    return out;
  });
}

/**
 * The assumption the explained-share rule rests on: one exchange of the set
 * (turn `k`) whose round trip stays under nine of its batches. Every other
 * turn keeps whatever delays it drew.
 */
function withQuietTurn(arb: { gap: number; delayIn: number; batchMs: number; delayOut: number }[], k: number) {
  const i = k % arb.length;
  return arb.map((t, j) => (j === i ? { ...t, delayIn: Math.min(t.delayIn, 4 * t.batchMs), delayOut: Math.min(t.delayOut, 4 * t.batchMs) } : t));
}

describe('corroborate (lockstep sets)', () => {
  it('never doubts an honest process, whatever the delays on either side', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 2, maxLength: 40 }), fc.nat(), (arb, k) => {
        const { record, readings } = turns(schedule(withQuietTurn(arb, k)));
        expect(corroborate(record, readings)).toBeUndefined();
      }),
    );
  });

  it('never doubts an honest process on a 1 ms clock', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 2, maxLength: 40 }), fc.nat(), (arb, k) => {
        const spec = schedule(withQuietTurn(arb.map((t) => ({ ...t, batchMs: Math.max(t.batchMs, 2) })), k));
        const { record, readings } = turns(spec, 1, 1);
        // A batch on an edge-aligned clock is interpolated: it may read up to a tick either way.
        record.samples = record.samples.map((s) => s + 0.9e6);
        expect(corroborate(record, readings)).toBeUndefined();
      }),
    );
  });

  it('fails a clock slowed or hurried by the case, in one line', () => {
    const spec = schedule(Array.from({ length: 20 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 1, delayOut: 0.05 })));
    const slow = turns(spec, 0.01);
    expect(corroborate(slow.record, slow.readings)).toMatch(/^the process's clock advanced .* between its first and last sample while the host's advanced .*: something changed the clock/);
    expect(corroborate(slow.record, slow.readings)).not.toContain('\n');
    const hurried = turns(spec, 3);
    expect(corroborate(hurried.record, hurried.readings)).toMatch(/samples claimed more time than the host waited/);
  });

  it('leaves the run-up the host asked for (--run-up) out of the exchange a sample explains, and still fails shrunk figures', () => {
    const set = (runUpMs: number) => turnsWithRunUp(schedule(Array.from({ length: 12 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 20, delayOut: 0.05 }))), runUpMs);
    // 20 ms samples after 150 ms of run-up, their figures at 0.6 of the batch (harness work in the span): under a tenth of the
    // whole exchange, over a tenth of the rest.
    const { record, readings } = set(150);
    const edge = { ...record, samples: record.samples.map((x) => x * 0.6) };
    expect(corroborate(edge, readings)).toMatch(/^no sample accounts for a tenth of the time its exchange took/);
    expect(corroborate(edge, readings, { runUpMs: 150 })).toBeUndefined();
    const shrunk = { ...record, samples: record.samples.map((x) => x / 100) };
    expect(corroborate(shrunk, readings, { runUpMs: 150 })).toMatch(/^no sample accounts for a tenth of the time its exchange took/);
    // Spans shrunk with the samples: the host's wait, less the run-up, is still there to explain.
    const spansShrunk = readings.map((r) => ({ ...r, spanNs: r.spanNs! / 100 }));
    expect(corroborate(shrunk, spansShrunk, { runUpMs: 150 })).toMatch(/^no sample accounts for a fiftieth of the time the host waited for it/);
    // A run-up a hundred times the sample: honest figures pass, shrunk ones fail.
    const long = set(2_000);
    expect(corroborate(long.record, long.readings, { runUpMs: 2_000 })).toBeUndefined();
    expect(corroborate({ ...long.record, samples: long.record.samples.map((x) => x / 100) }, long.readings, { runUpMs: 2_000 })).toMatch(/^no sample accounts for a tenth/);
  });

  it('fails figures shrunk on their way to the host (the clock untouched), and names the share', () => {
    const spec = schedule(Array.from({ length: 20 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 1, delayOut: 0.05 })));
    const honest = turns(spec);
    expect(corroborate(honest.record, honest.readings)).toBeUndefined();
    const shrunk = { ...honest.record, samples: honest.record.samples.map((s) => s / 100) };
    expect(corroborate(shrunk, honest.readings)).toMatch(/^no sample accounts for a tenth of the time its exchange took on the process's own clock \(at best [\d.]+%\): the figures are smaller/);
    // Spans shrunk with the samples: the host's wait is still there to explain.
    const spansShrunk = honest.readings.map((r) => ({ ...r, spanNs: r.spanNs! / 100 }));
    expect(corroborate(shrunk, spansShrunk)).toMatch(/^no sample accounts for a fiftieth of the time the host waited for it \(at best [\d.]+%\): the figures are smaller than the host's clock allows/);
    // Shrunk by 5, a set still has exchanges it explains: the rule asks no more of the quietest exchange than a tenth.
    expect(corroborate({ ...honest.record, samples: honest.record.samples.map((s) => s / 5) }, honest.readings)).toBeUndefined();
  });

  it('holds the samples against the CPU their process ran, where the kernel tells it, and not against a loaded host\'s wait', () => {
    // Exchanges stretched 100x by a starved host: the samples explain 1% of each wait.
    const spec = schedule(Array.from({ length: 20 }, () => ({ gap: 3, delayIn: 50, batchMs: 1, delayOut: 50 })));
    const honest = turns(spec);
    expect(corroborate(honest.record, honest.readings)).toMatch(/fiftieth of the time the host waited/);
    // The process ran its 20 batches, a quarter batch before each, and its side of the exchanges: 1.3 ms a turn.
    const cpuNs = 20 * 1.3e6;
    expect(corroborate(honest.record, honest.readings, { threadCpuNs: cpuNs })).toBeUndefined();
    // Spans shrunk with the samples, so only the kernel's count is left to explain.
    const shrunk = { ...honest.record, samples: honest.record.samples.map((s) => s / 100) };
    const spansShrunk = honest.readings.map((r) => ({ ...r, spanNs: r.spanNs! / 100 }));
    const doubt = corroborate(shrunk, spansShrunk, { threadCpuNs: cpuNs });
    expect(doubt).toMatch(/^its exchanges, as the process timed them, account for [\d.]+% of the CPU time the main thread of its process ran over the set \(26 ms, read by the host from the kernel; a tenth at least\): the figures are smaller than the host's clock allows/);
    // A process that gives no spans: its samples are held against the CPU instead.
    const noSpans = honest.readings.map(({ spanNs: _, ...r }) => r);
    expect(corroborate(honest.record, noSpans, { threadCpuNs: cpuNs })).toBeUndefined();
    expect(corroborate(shrunk, noSpans, { threadCpuNs: cpuNs })).toMatch(/^its samples account for [\d.]+% of the CPU time/);
    // Samples shrunk 5x beside honest spans: the exchanges still account for the CPU, and the samples for a tenth of the spans.
    expect(corroborate({ ...honest.record, samples: honest.record.samples.map((s) => s / 5) }, honest.readings, { threadCpuNs: cpuNs })).toBeUndefined();
  });

  it('passes an honest set descheduled inside every exchange where the kernel counts its CPU, and still fails shrunk figures', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ batchMs: fc.double({ min: 0.5, max: 5, noNaN: true }), stall: fc.double({ min: 0, max: 200, noNaN: true }) }), { minLength: 2, maxLength: 6 }),
        fc.double({ min: 1, max: 3, noNaN: true }),
        (turnsSpec, extra) => {
          // Each exchange: a whole batch untimed, the batch, and a wait for a core of up to 200x the batch (load ~6 on 2 cores, three samples of a smoke run).
          const spec = schedule(turnsSpec.map((t) => ({ gap: 3, delayIn: 0.05, batchMs: t.batchMs, delayOut: 0.05 + t.stall })));
          const { record, readings } = turns(spec);
          const stalled = readings.map((r, i) => ({ ...r, spanNs: r.spanNs! + (0.75 * turnsSpec[i]!.batchMs + turnsSpec[i]!.stall) * 1e6 }));
          // The thread ran its batches, the untimed ones and its side of the exchanges (`extra` times the batches at most).
          const cpuNs = turnsSpec.reduce((sum, t) => sum + (2 + extra) * t.batchMs * 1e6, 0);
          expect(corroborate(record, stalled, { threadCpuNs: cpuNs })).toBeUndefined();
          const shrunk = { ...record, samples: record.samples.map((s) => s / 100) };
          expect(corroborate(shrunk, stalled, { threadCpuNs: cpuNs })).toMatch(/^no sample accounts for a tenth of the time its exchange took on the process's own clock \(at best [\d.]+%, and its batches together [\d.]+% of the time its main thread ran in them\)/);
        },
      ),
    );
  });

  it('reads the median exchange against what its main thread ran in it, so work done while it waited its turn is not held against it', () => {
    // Three exchanges of 1 ms, each costing its main thread 1.1 ms, and 32 ms of collection between them.
    const spec = schedule(Array.from({ length: 3 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 0.8, delayOut: 0.05 })));
    const { record, readings } = turns(spec);
    const measured = readings.map((r) => ({ ...r, mainThreadNs: 1.1e6 }));
    const set = { threadCpuNs: 35e6, ownMainThread: { runNs: 35e6, waitNs: 0 } };
    expect(corroborate(record, readings, set)).toMatch(/a tenth at least\): the figures are smaller/);
    expect(corroborate(record, measured, set)).toBeUndefined();
    // Figures and spans shrunk 20x: every exchange reads small against its own CPU.
    const shrunk = { ...record, samples: record.samples.map((s) => s / 20) };
    const spansShrunk = measured.map((r) => ({ ...r, spanNs: r.spanNs! / 20 }));
    expect(corroborate(shrunk, spansShrunk, set)).toMatch(/a tenth at least, its median exchange [\d.]+% of what the thread ran in it\): the figures/);
    // A launcher's main thread, not the runtime's, read around the exchanges: its readings stand for nothing.
    const launcher = spansShrunk.map((r) => ({ ...r, mainThreadNs: 0 }));
    expect(corroborate(shrunk, launcher, { threadCpuNs: 35e6, ownMainThread: { runNs: 0.01e6, waitNs: 0 } })).toMatch(/a tenth at least\): the figures/);
  });

  it('asks more of a set whose thread waited for a core, so a loaded machine lets no shrunk figure through', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ runMs: fc.double({ min: 0.1, max: 5, noNaN: true }), waits: fc.double({ min: 0, max: 40, noNaN: true }) }), { minLength: 3, maxLength: 6 }),
        fc.double({ min: 1.05, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        (turnsSpec, overhead, betweenMs) => {
          // Each exchange: the thread runs its batch, waiting `waits` times that for a core inside it (so the batch's
          // figure, on the process's wall clock, is the run and the waits), and `overhead` times its span's run in all.
          const spec = schedule(turnsSpec.map((t) => ({ gap: 3, delayIn: 0.05, batchMs: t.runMs * (1 + t.waits), delayOut: 0.05 })));
          const { record: honest, readings } = turns(spec);
          const loaded = readings.map((r, i) => {
            const runNs = 1.25 * turnsSpec[i]!.runMs * 1e6;
            return { ...r, mainThreadNs: overhead * runNs, mainThreadWaitNs: turnsSpec[i]!.waits * runNs };
          });
          // Over the set, the thread also ran between its exchanges (a collection, idle tasks).
          const runNs = loaded.reduce((sum, r) => sum + r.mainThreadNs, 0) + betweenMs * 1e6 * loaded.length;
          const waitNs = loaded.reduce((sum, r) => sum + r.mainThreadWaitNs, 0);
          const set = { threadCpuNs: runNs, ownMainThread: { runNs, waitNs } };
          expect(corroborate(honest, loaded, set)).toBeUndefined();
          // The same figures and spans shrunk 100x: refused however long the thread waited (up to 40 times its run).
          const shrunk = { ...honest, samples: honest.samples.map((x) => x / 100) };
          const spansShrunk = loaded.map((r) => ({ ...r, spanNs: r.spanNs! / 100 }));
          expect(corroborate(shrunk, spansShrunk, set)).toMatch(/of the CPU time the main thread of its process ran over the set .*: the figures are smaller than the host's clock allows/);
        },
      ),
    );
    // A wait between exchanges (a process woken for its idle work while it waits its turn) lengthens no figure: an
    // honest async set whose exchanges are 12% of its thread's CPU (the median one 8%) passes however long it waited there.
    const between = schedule([0.8, 0.16, 0.16].map((batchMs) => ({ gap: 3, delayIn: 0.05, batchMs, delayOut: 0.05 })));
    const idle = turns(between);
    const idleReadings = idle.readings.map((r, i) => ({ ...r, mainThreadNs: [1.1e6, 2.5e6, 2.5e6][i]!, mainThreadWaitNs: 0 }));
    const idleSet = { threadCpuNs: 1.4e6 / 0.12, ownMainThread: { runNs: 1.4e6 / 0.12, waitNs: 6e6 } };
    expect(corroborate(idle.record, idleReadings, idleSet)).toBeUndefined();
    // An honest smoke set of async batches a tenth of a millisecond long, the harness's work around them five times
    // that, whose thread also waited 2.7 times its run for a core in its exchanges (a clean clone's compare.test.ts at
    // load ~9): 17% of the thread's run, what it reads with no wait at all, passes.
    const smoke = turns(schedule(Array.from({ length: 3 }, () => ({ gap: 3, delayIn: 1.8, batchMs: 0.09, delayOut: 0.05 }))));
    const smokeReadings = smoke.readings.map((r) => ({ ...r, mainThreadNs: 0.1125e6 / 0.17, mainThreadWaitNs: 1.8e6 }));
    expect(corroborate(smoke.record, smokeReadings, { threadCpuNs: 2.01e6, ownMainThread: { runNs: 2.01e6, waitNs: 5.41e6 } })).toBeUndefined();
    // Without the waits read, the old bar: a thread that waited nine times its run lets a 100x-shrunk figure meet a tenth.
    // (Each batch ran 1 ms of its 10 on the wall clock, waiting for a core the rest.)
    const spec = schedule(Array.from({ length: 3 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 10, delayOut: 0.05 })));
    const { record, readings } = turns(spec);
    const waited = readings.map((r) => ({ ...r, spanNs: (10 * 1.25e6) / 100, mainThreadNs: 1.25e6, mainThreadWaitNs: 9 * 1.25e6 }));
    const shrunk = { ...record, samples: record.samples.map((s) => s / 100) };
    const unread = waited.map(({ mainThreadWaitNs: _, ...r }) => r);
    expect(corroborate(shrunk, unread, { threadCpuNs: 3.75e6, ownMainThread: { runNs: 3.75e6, waitNs: 0 } })).toBeUndefined();
    expect(corroborate(shrunk, waited, { threadCpuNs: 3.75e6, ownMainThread: { runNs: 3.75e6, waitNs: 33.75e6 } })).toMatch(/20% at least, as its main thread also waited 33.8 ms for a core in its exchanges, its median exchange 1\d% of what the thread ran in it \(20% asked\), its best span 1.2% of the host's wait for it \(a fiftieth asked\)\)/);
  });

  it('where waits for a core raised the share asked, lets the best exchange\'s span against the host\'s wait tell, which no shrunk figure meets', () => {
    // A smoke set whose thread waited 25 ms for a core before two of its three batches (the wake-up after the command,
    // outside its span): its spans are a quarter of what the thread ran, under the share such waits ask.
    const smokeSet = (wakeUps: number[]) => {
      const { record, readings } = turns(schedule(wakeUps.map((delayIn) => ({ gap: 3, delayIn, batchMs: 0.2, delayOut: 0.05 }))));
      const measured = readings.map((r, i) => ({ ...r, mainThreadNs: 1e6, mainThreadWaitNs: (wakeUps[i]! - 0.1) * 1e6 }));
      const waitNs = measured.reduce((sum, r) => sum + r.mainThreadWaitNs, 0);
      return { record, readings: measured, set: { threadCpuNs: 3.2e6, ownMainThread: { runNs: 3.2e6, waitNs } } };
    };
    const quiet = smokeSet([25, 25, 0.5]);
    expect(corroborate(quiet.record, quiet.readings, quiet.set)).toBeUndefined();
    const loaded = smokeSet([25, 25, 25]);
    expect(corroborate(loaded.record, loaded.readings, loaded.set)).toMatch(/its median exchange 26% of what the thread ran in it \(50% asked\), its best span 0.99% of the host's wait for it \(a fiftieth asked\)\): the figures are smaller/);
    // Shrunk 100x, figures and spans: no span can exceed the host's wait, so none reads more than a hundredth of it.
    const shrunk = { ...quiet.record, samples: quiet.record.samples.map((x) => x / 100) };
    const spansShrunk = quiet.readings.map((r) => ({ ...r, spanNs: r.spanNs! / 100 }));
    expect(corroborate(shrunk, spansShrunk, quiet.set)).toMatch(/its best span [\d.]+% of the host's wait for it \(a fiftieth asked\)\): the figures are smaller/);
    fc.assert(
      fc.property(
        fc.array(fc.record({ batchMs: fc.double({ min: 0.2, max: 5, noNaN: true }), wakeUp: fc.double({ min: 0, max: 60, noNaN: true }), overhead: fc.double({ min: 1, max: 4, noNaN: true }) }), { minLength: 2, maxLength: 8 }),
        fc.nat(),
        (spec, k) => {
          // Batches of 0.2 ms or more: under that the clocks' 10 µs of slack is a tenth of an exchange, whatever it held.
          // One exchange whose wake-up stayed under its batch (the turn a set waits for), the others as drawn.
          const drawn = spec.map((t, j) => (j === k % spec.length ? { ...t, wakeUp: Math.min(t.wakeUp, t.batchMs) } : t));
          const { record, readings } = turns(schedule(drawn.map((t) => ({ gap: 3, delayIn: 0.25 * t.batchMs + t.wakeUp, batchMs: t.batchMs, delayOut: 0.05 }))));
          const measured = readings.map((r, i) => ({ ...r, mainThreadNs: drawn[i]!.overhead * r.spanNs!, mainThreadWaitNs: drawn[i]!.wakeUp * 1e6 }));
          const runNs = measured.reduce((sum, r) => sum + r.mainThreadNs, 0);
          const set = { threadCpuNs: runNs, ownMainThread: { runNs, waitNs: measured.reduce((sum, r) => sum + r.mainThreadWaitNs, 0) } };
          expect(corroborate(record, measured, set)).toBeUndefined();
          const forged = { ...record, samples: record.samples.map((x) => x / 100) };
          expect(corroborate(forged, measured.map((r) => ({ ...r, spanNs: r.spanNs! / 100 })), set)).toMatch(/the figures are smaller than the host's clock allows/);
        },
      ),
    );
  });

  it('asks a set for another turn while every exchange of a natively run, kernel-counted arm is too loaded to tell', () => {
    const exchange = (spanMs: number, waitedMs: number) => ({ ns: 1, spanNs: spanMs * 1e6, waitedNs: waitedMs * 1e6, sentMs: 0, receivedMs: waitedMs, mainThreadNs: 1e6, mainThreadWaitNs: 0 });
    const loaded = [exchange(0.2, 25), exchange(0.2, 30)];
    expect(wantsQuietExchange(loaded, undefined)).toBe(true);
    expect(wantsQuietExchange([...loaded, exchange(0.2, 5)], undefined)).toBe(false);
    // Under an emulator only the clocks are held against each other; off Linux the kernel's count is not at hand.
    expect(wantsQuietExchange(loaded, 'qemu-aarch64-static')).toBe(false);
    expect(wantsQuietExchange(loaded.map(({ mainThreadNs: _, ...r }) => r), undefined)).toBe(false);
    // A whole-millisecond clock tells a span only of an exchange a hundred times two of its ticks.
    expect(quietestSpanShare([exchange(5, 50)], 1)).toBeUndefined();
    expect(quietestSpanShare([exchange(5, 50), exchange(100, 250)], 1)).toBe(0.4);
  });

  it('asks nothing of a case whose calls run untimed work of their own (hooks, self-timed regions)', () => {
    const spec = schedule(Array.from({ length: 20 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 1, delayOut: 0.05 })));
    const honest = turns(spec);
    const selfTimed = { ...honest.record, samples: honest.record.samples.map((s) => s / 100), untimedWork: true as const };
    expect(corroborate(selfTimed, honest.readings)).toBeUndefined();
  });

  it('catches a clock slowed by 10% over a set of 1 ms samples', () => {
    const spec = schedule(Array.from({ length: 20 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 1, delayOut: 0.05 })));
    const slow = turns(spec, 0.9);
    expect(corroborate(slow.record, slow.readings)).toBeDefined();
  });

  it('holds an emulated process to the clocks only: its emulator\'s translation leaves no share to ask for', () => {
    const spec = schedule(Array.from({ length: 20 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 1, delayOut: 0.05 })));
    const honest = turns(spec);
    // Batches a twentieth of their exchanges and of the CPU: what a native process would be refused for.
    const short = { ...honest.record, samples: honest.record.samples.map((s) => s / 20) };
    const cpuNs = 20 * 40e6;
    expect(corroborate(short, honest.readings, { threadCpuNs: cpuNs })).toMatch(/a tenth of the time its exchange took/);
    expect(corroborate(short, honest.readings, { threadCpuNs: cpuNs, emulator: 'qemu-aarch64-static' })).toBeUndefined();
    // Its clock is still held to the host's.
    const slow = turns(spec, 0.9);
    expect(corroborate(slow.record, slow.readings, { emulator: 'qemu-aarch64-static' })).toBeDefined();
  });
});

describe('corroborateProcess (fresh processes)', () => {
  it('lets the answer be read late by a starved host and fails a clock that ran under a quarter of its speed', () => {
    expect(corroborateProcess(600, 640, 1)).toBeUndefined();
    expect(corroborateProcess(600, 700, 1)).toBeUndefined();
    expect(corroborateProcess(219, 689, 1)).toBeUndefined();
    expect(corroborateProcess(50, 600, 1)).toMatch(/from its hello to its answer while the host saw 600 ms pass/);
    expect(corroborateProcess(0, 400, 1)).toMatch(/from its hello to its answer/);
  });

  it("takes off the lateness the host measured in its own event loop, and names it when the clock still ran slow", () => {
    // A host starved for 431 ms of a 503 ms span: the answer was read that late, the process's clock was right.
    expect(corroborateProcess(71.8, 503, 1)).toBeDefined();
    expect(corroborateProcess(71.8, 503, 1, 441)).toBeUndefined();
    // A clock that stood still is still told, the host's lateness said beside it.
    expect(corroborateProcess(0, 900, 1, 300)).toMatch(/while the host saw 900 ms pass \(the host itself ran up to 300 ms late\)/);
  });
});

describe('corroborateSampling (fresh processes)', () => {
  const options = { timeMs: 400, maxSamples: 100_000 };
  it('takes samples that fill the sampling time, and fails figures shrunk below a tenth of it', () => {
    const honest = { samples: Array.from({ length: 300 }, () => 1200), iterationsPerSample: 1000 };
    expect(corroborateSampling(honest, options)).toBeUndefined();
    const shrunk = { ...honest, samples: honest.samples.map((x) => x / 100) };
    expect(corroborateSampling(shrunk, options)).toMatch(/^its samples account for 3\.6 ms of the 400 ms its clock sampled for: the figures are smaller/);
  });

  it('asks nothing of a case with untimed work in its calls, or of a run stopped by its sample cap', () => {
    const few = { samples: [1, 1, 1], iterationsPerSample: 1 };
    expect(corroborateSampling({ ...few, untimedWork: true }, options)).toBeUndefined();
    expect(corroborateSampling(few, { timeMs: 400, maxSamples: 3 })).toBeUndefined();
    expect(corroborateSampling(few, options)).toBeDefined();
  });
});
