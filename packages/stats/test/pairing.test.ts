import { describe, expect, it } from 'vitest';
import { hodgesLehmann, median, pairRounds, summarizeArm, turnLogRatio, type PairableRound } from '../src/index.ts';

describe('pairRounds', () => {
  it('pairs fresh-process rounds by their medians, on the rounds both arms have', () => {
    const p = pairRounds(
      [{ round: 0, samples: [10, 12, 11], turns: undefined }, { round: 1, samples: [20], turns: undefined }, { round: 2, samples: [30], turns: undefined }],
      [{ round: 2, samples: [15], turns: undefined }, { round: 0, samples: [22, 20, 21], turns: undefined }],
    );
    expect(p).toEqual({ rounds: [0, 2], baseline: [11, 30], candidate: [21, 15] });
  });

  it('pairs lockstep rounds turn by turn, so a state both arms shared cancels', () => {
    // Turns alternate between a fast and a slow machine state (2x apart); the candidate is always 0.8 of the baseline in the same turn.
    const base = [100, 200, 100, 200, 200, 200, 100];
    const cand = base.map((b) => b * 0.8);
    const turns = {};
    // Taken in separate processes, the medians would compare different mixes of states; paired by turn the ratio is exact.
    const p = pairRounds([{ round: 0, samples: base, turns }], [{ round: 0, samples: [80, 80, 160, 80, 80, 160, 80], turns }]);
    expect(p.candidate[0]! / p.baseline[0]!).not.toBeCloseTo(0.8, 2);
    const q = pairRounds([{ round: 0, samples: base, turns }], [{ round: 0, samples: cand, turns }]);
    expect(q.candidate[0]! / q.baseline[0]!).toBeCloseTo(0.8, 10);
  });

  it('takes no round that does not say whether it was taken in turns (a saved round not read through pairable)', () => {
    const saved = [{ round: 0, samples: [10] }];
    // @ts-expect-error turns is required: a lockstep round left unmapped would be paired by its median
    expect(pairRounds(saved, saved).rounds).toEqual([0]);
  });

  it('applies the value map to fresh-process medians (e.g. requests/s as time per request)', () => {
    const p = pairRounds([{ round: 0, samples: [1000], turns: undefined }], [{ round: 0, samples: [2000], turns: undefined }], (m) => 1 / m);
    expect(p.candidate[0]! / p.baseline[0]!).toBeCloseTo(0.5, 12);
  });
});

describe('turnLogRatio', () => {
  it('is robust to a turn in which one arm alone was preempted', () => {
    const b = [100, 100, 100, 100, 100, 100, 100];
    const c = [90, 90, 90, 900, 90, 90, 90];
    expect(Math.exp(turnLogRatio(b, c))).toBeCloseTo(0.9, 6);
  });

  it('skips turns without two positive samples and is NaN when none is left', () => {
    expect(Math.exp(turnLogRatio([100, 0, 100], [50, 50, 50]))).toBeCloseTo(0.5, 12);
    expect(turnLogRatio([0], [1])).toBeNaN();
  });
});

describe('pairRounds: which rounds pair, and how', () => {
  const fresh = (round: number, samples: number[]): PairableRound => ({ round, samples, turns: undefined });
  const warm = (round: number, samples: number[], process?: number): PairableRound => ({ round, samples, turns: process === undefined ? {} : { process } });

  it('pairs come in ascending round order, whatever order the arms list them in', () => {
    const p = pairRounds([fresh(2, [30]), fresh(0, [10]), fresh(1, [20])], [fresh(1, [21]), fresh(2, [31]), fresh(0, [11])]);
    expect(p).toEqual({ rounds: [0, 1, 2], baseline: [10, 20, 30], candidate: [11, 21, 31] });
  });

  it('a round without samples on either side is not paired', () => {
    expect(pairRounds([fresh(0, [10]), fresh(1, [20])], [fresh(0, []), fresh(1, [21])]).rounds).toEqual([1]);
    expect(pairRounds([fresh(0, []), fresh(1, [20])], [fresh(0, [11]), fresh(1, [21])]).rounds).toEqual([1]);
  });

  it('rounds taken in lockstep on both sides pair turn by turn; otherwise by their medians', () => {
    // Turn 3 caught the candidate alone in a slow state: its median moves to 180, its turns stay 0.9× the baseline's.
    const base = [100, 100, 100, 200, 200];
    const cand = [90, 90, 180, 180, 180];
    const turns = pairRounds([warm(0, base)], [warm(0, cand)]);
    expect(turns.candidate[0]! / turns.baseline[0]!).toBeCloseTo(0.9, 10);
    const medians = pairRounds([warm(0, base)], [fresh(0, cand)]);
    expect(medians.candidate[0]! / medians.baseline[0]!).toBeCloseTo(1.8, 10);
  });

  it('lockstep rounds with no turn of two positive samples pair with a candidate of 0 (no ratio)', () => {
    expect(pairRounds([warm(0, [0, 0])], [warm(0, [5, 5])]).candidate).toEqual([0]);
  });

  it('pairs are labelled by their two processes only when every pair names both', () => {
    expect(pairRounds([warm(0, [1], 0), warm(1, [1], 1)], [warm(0, [2], 3), warm(1, [2], 3)]).units).toEqual(['0/3', '1/3']);
    expect(pairRounds([warm(0, [1], 0), warm(1, [1], 1)], [warm(0, [2]), warm(1, [2])]).units).toBeUndefined();
    expect(pairRounds([warm(0, [1], 0), warm(1, [1])], [warm(0, [2], 3), warm(1, [2], 3)]).units).toBeUndefined();
    expect(pairRounds([fresh(0, [1])], [fresh(1, [2])])).toEqual({ rounds: [], baseline: [], candidate: [] });
  });
});

describe('turnLogRatio: which turns count', () => {
  it('a turn where either side read 0 is skipped', () => {
    expect(Math.exp(turnLogRatio([100, 100, 100], [50, 0, 50]))).toBeCloseTo(0.5, 12);
  });

  it('up to 400 turns the Hodges–Lehmann estimate, beyond them the median', () => {
    const turns = (n: number): { b: number[]; c: number[]; d: number[] } => {
      const d = Array.from({ length: n }, (_, t) => (t / n) ** 2);
      return { b: d.map(() => 100), c: d.map((x) => 100 * Math.exp(x)), d };
    };
    const at400 = turns(400);
    expect(turnLogRatio(at400.b, at400.c)).toBeCloseTo(hodgesLehmann(at400.d), 12);
    expect(hodgesLehmann(at400.d)).not.toBeCloseTo(median(at400.d), 3);
    const at401 = turns(401);
    expect(turnLogRatio(at401.b, at401.c)).toBeCloseTo(median(at401.d), 12);
  });
});

describe('summarizeArm', () => {
  it('leaves out rounds without samples', () => {
    const s = summarizeArm([{ round: 0, samples: [1, 2], turns: undefined }, { round: 1, samples: [], turns: undefined }, { round: 2, samples: [3], turns: undefined }]);
    expect(s.rounds).toBe(2);
    expect(s.n).toBe(3);
  });
});
