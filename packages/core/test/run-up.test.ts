/**
 * The untimed run-up before each lockstep sample (run-up.ts): a quarter
 * batch, a whole one once the span saw periodic costs, at least one call,
 * a long batch of few calls included; the host reads the run-up a span
 * recorded, and derives it for a run saved before spans recorded it by the
 * rule of then, which gave a long batch of few calls none.
 */
import { describe, expect, it } from 'vitest';
import { lockstepPreBatch, lockstepSampleIterations } from '../src/protocol.ts';
import { derivedRunUpCalls, NO_PRE_BATCH_NS, runUpCalls } from '../src/run-up.ts';

const flat = { quietCallNs: 900, grownBy: 1 };
const grown = { quietCallNs: 900, grownBy: 2 };

describe('the run-up before a lockstep sample', () => {
  it('is a quarter batch, a whole one once the span grew or capped, at least one call', () => {
    expect(runUpCalls(1_000, undefined)).toBe(250);
    expect(runUpCalls(1_000, flat)).toBe(250);
    expect(runUpCalls(1_001, flat)).toBe(250);
    expect(runUpCalls(1_000, grown)).toBe(1_000);
    expect(runUpCalls(3, { ...flat, capped: true })).toBe(3);
    expect(runUpCalls(3, flat)).toBe(1);
  });

  it('is had by a long batch of few calls too: one 8–16 ms operation after a wait is not its own warm-up', () => {
    expect(runUpCalls(1, flat)).toBe(1);
    expect(runUpCalls(3, grown)).toBe(3);
  });

  it("is the span's batch, not the floored sample's, once the sample was raised to the floor", () => {
    expect(runUpCalls(20_000, { ...grown, flooredBy: 10 })).toBe(2_000);
    expect(runUpCalls(20_001, { ...grown, flooredBy: 10 })).toBe(2_001);
    expect(runUpCalls(20_000, { ...flat, capped: true, flooredBy: 4 })).toBe(5_000);
    // Three calls of 8 ms raised from one: the one call the span held.
    expect(runUpCalls(3, { ...grown, flooredBy: 3 })).toBe(1);
  });

  it('lasts the time asked (--run-up) at the sample\'s rate where that is longer than the rule, never shorter', () => {
    // 150 ms at 5 µs a call: 30,000 calls; the rule's whole batch of 1,000 is shorter.
    expect(runUpCalls(1_000, grown, { ns: 150e6, callNs: 5_000 })).toBe(30_000);
    expect(runUpCalls(1_000, flat, { ns: 150e6, callNs: 5_000 })).toBe(30_000);
    // A call longer than the time asked: the rule's one call.
    expect(runUpCalls(3, grown, { ns: 150e6, callNs: 200e6 })).toBe(3);
    expect(runUpCalls(1, flat, { ns: 150e6, callNs: 200e6 })).toBe(1);
    // A clock that did not see the batch: the rule alone.
    expect(runUpCalls(1_000, grown, { ns: 150e6, callNs: 0 })).toBe(1_000);
  });

  it('of a run saved before spans recorded it: none for a batch of fewer than 4 calls that took 4 ms or more, else the rule above', () => {
    expect(derivedRunUpCalls(3, NO_PRE_BATCH_NS, grown)).toBe(0);
    expect(derivedRunUpCalls(3, 24e6, { ...grown, flooredBy: 3 })).toBe(0);
    expect(derivedRunUpCalls(3, NO_PRE_BATCH_NS - 1, flat)).toBe(1);
    expect(derivedRunUpCalls(4, NO_PRE_BATCH_NS, flat)).toBe(1);
    expect(derivedRunUpCalls(1_000, 1e6, grown)).toBe(1_000);
    expect(NO_PRE_BATCH_NS).toBe(4e6);
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
