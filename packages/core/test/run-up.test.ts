/**
 * The untimed run-up before each lockstep sample (run-up.ts): a quarter
 * batch, a whole one once the span saw periodic costs, none before a long
 * batch of few calls; the host reads the run-up a span recorded, and derives
 * it for a run saved before spans recorded it.
 */
import { describe, expect, it } from 'vitest';
import { lockstepPreBatch, lockstepSampleIterations } from '../src/protocol.ts';
import { NO_PRE_BATCH_NS, runUpCalls } from '../src/run-up.ts';

const flat = { quietCallNs: 900, grownBy: 1 };
const grown = { quietCallNs: 900, grownBy: 2 };

describe('the run-up before a lockstep sample', () => {
  it('is a quarter batch, a whole one once the span grew or capped, none for a long batch of few calls', () => {
    expect(runUpCalls(1_000, 1e6, undefined)).toBe(250);
    expect(runUpCalls(1_000, 1e6, flat)).toBe(250);
    expect(runUpCalls(1_001, 1e6, flat)).toBe(250);
    expect(runUpCalls(1_000, 1e6, grown)).toBe(1_000);
    expect(runUpCalls(3, 1e6, { ...flat, capped: true })).toBe(3);
    expect(runUpCalls(3, 1e6, flat)).toBe(1);
    expect(runUpCalls(3, NO_PRE_BATCH_NS, grown)).toBe(0);
    expect(runUpCalls(3, NO_PRE_BATCH_NS - 1, flat)).toBe(1);
    expect(runUpCalls(4, NO_PRE_BATCH_NS, flat)).toBe(1);
    expect(NO_PRE_BATCH_NS).toBe(4e6);
  });
  it("is the span's batch, not the floored sample's, once the sample was raised to the floor", () => {
    expect(runUpCalls(20_000, 20e6, { ...grown, flooredBy: 10 })).toBe(2_000);
    expect(runUpCalls(20_001, 20e6, { ...grown, flooredBy: 10 })).toBe(2_001);
    expect(runUpCalls(20_000, 20e6, { ...flat, capped: true, flooredBy: 4 })).toBe(5_000);
    // Three calls of 8 ms raised from one: none, as for any long batch of few calls.
    expect(runUpCalls(3, 24e6, { ...grown, flooredBy: 3 })).toBe(0);
  });
});

describe("the host's reading of a sample's calls", () => {
  it('takes the run-up the span recorded, and derives it from the batch for a run saved before', () => {
    expect(lockstepPreBatch(1_000, 1e6, { ...flat, cycleCalls: 700, runUpCalls: 1_400 })).toBe(1_400);
    expect(lockstepPreBatch(1_000, 1e6, { ...grown, runUpCalls: 0 })).toBe(0);
    expect(lockstepPreBatch(1_000, 1e6, flat)).toBe(250);
    expect(lockstepPreBatch(1_000, 1e6, grown)).toBe(1_000);
    expect(lockstepPreBatch(3, NO_PRE_BATCH_NS)).toBe(0);
    expect(lockstepSampleIterations(1_000, 1e6, { ...flat, runUpCalls: 1_400 })).toBe(2_400);
  });
});
