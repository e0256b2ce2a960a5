import { describe, expect, it } from 'vitest';
import { pairRounds, turnLogRatio } from '../src/index.ts';

describe('pairRounds', () => {
  it('pairs fresh-process rounds by their medians, on the rounds both arms have', () => {
    const p = pairRounds(
      [{ round: 0, samples: [10, 12, 11] }, { round: 1, samples: [20] }, { round: 2, samples: [30] }],
      [{ round: 2, samples: [15] }, { round: 0, samples: [22, 20, 21] }],
    );
    expect(p).toEqual({ rounds: [0, 2], baseline: [11, 30], candidate: [21, 15] });
  });

  it('pairs lockstep rounds turn by turn, so a state both arms shared cancels', () => {
    // Turns alternate between a fast and a slow machine state (2x apart); the candidate is always 0.8 of the baseline in the same turn.
    const base = [100, 200, 100, 200, 200, 200, 100];
    const cand = base.map((b) => b * 0.8);
    const lockstep = { positions: base.map(() => 0) };
    // Taken in separate processes, the medians would compare different mixes of states; paired by turn the ratio is exact.
    const p = pairRounds([{ round: 0, samples: base, lockstep }], [{ round: 0, samples: [80, 80, 160, 80, 80, 160, 80], lockstep }]);
    expect(p.candidate[0]! / p.baseline[0]!).not.toBeCloseTo(0.8, 2);
    const q = pairRounds([{ round: 0, samples: base, lockstep }], [{ round: 0, samples: cand, lockstep }]);
    expect(q.candidate[0]! / q.baseline[0]!).toBeCloseTo(0.8, 10);
  });

  it('applies the value map to fresh-process medians (e.g. requests/s as time per request)', () => {
    const p = pairRounds([{ round: 0, samples: [1000] }], [{ round: 0, samples: [2000] }], (m) => 1 / m);
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
