/** The host's clock against the runtime's: honest readings under any delay pass, a slowed or hurried clock fails. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SampleReading } from '@rtbench/process';
import { corroborate, corroborateProcess } from '../src/measurers/corroborate.ts';

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
    readings.push({ ns: t.batchMs * rate * 1e6, waitedNs: (receivedMs - t.sentMs) * 1e6, sentMs: t.sentMs, receivedMs });
  }
  return { record: { samples, sampleStartMs, iterationsPerSample: 1, clock: clockTick ? COARSE : FINE }, readings };
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

describe('corroborate (lockstep sets)', () => {
  it('never doubts an honest process, whatever the delays on either side', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 2, maxLength: 40 }), (arb) => {
        const { record, readings } = turns(schedule(arb));
        expect(corroborate(record, readings)).toBeUndefined();
      }),
    );
  });

  it('never doubts an honest process on a 1 ms clock', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 2, maxLength: 40 }), (arb) => {
        const spec = schedule(arb).map((t) => ({ ...t, batchMs: Math.max(t.batchMs, 2) }));
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

  it('catches a clock slowed by 10% over a set of 1 ms samples', () => {
    const spec = schedule(Array.from({ length: 20 }, () => ({ gap: 3, delayIn: 0.05, batchMs: 1, delayOut: 0.05 })));
    const slow = turns(spec, 0.9);
    expect(corroborate(slow.record, slow.readings)).toBeDefined();
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
});
