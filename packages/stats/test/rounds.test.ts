import { describe, expect, it } from 'vitest';
import { summarizeRounds } from '../src/bootstrap.ts';
import { summarize } from '../src/summary.ts';
import { medianBootstrapInterval } from '../src/median-bootstrap.ts';
import { quantile } from '../src/quantile.ts';
import { normalSource } from './helpers.ts';

/** rounds with a per-process offset (sd `between`) and within-process noise (sd `within`), log scale */
function makeRounds(seed: number, rounds: number, perRound: number, between: number, within: number): number[][] {
  const z = normalSource(seed);
  return Array.from({ length: rounds }, () => {
    const offset = between * z();
    return Array.from({ length: perRound }, () => 100 * Math.exp(offset + within * z()));
  });
}

describe('summarizeRounds', () => {
  it('with < 5 processes gives the pooled median and no interval (one blind to process spread would be too narrow)', () => {
    const rounds = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16, 17, 18, 19, 20]];
    const s = summarizeRounds(rounds);
    const { ci: _ci, ciHalfWidthRel: _h, ...pooled } = summarize(rounds.flat());
    expect(s.ciMethod).toBe('none: too few processes');
    expect(s.ci).toBeUndefined();
    expect(s).toMatchObject({ ...pooled, rounds: 4, processes: 4, roundMedians: [2.5, 6.5, 10.5, 16.5] });
  });

  it('rounds of one process are one unit: 8 rounds from 2 processes give no interval, from 8 they do', () => {
    const rounds = makeRounds(8, 8, 30, 0.05, 0.02);
    const shared = summarizeRounds(rounds, { processes: [0, 0, 0, 0, 1, 1, 1, 1] });
    expect(shared).toMatchObject({ rounds: 8, processes: 2, ciMethod: 'none: too few processes' });
    expect(shared.processMedians).toHaveLength(2);
    expect(summarizeRounds(rounds).ci).toBeDefined();
    // the modes are of processes, not rounds: one process's rounds are never "2 modes"
    expect(summarizeRounds(rounds, { processes: [0, 0, 0, 0, 0, 0, 0, 0] }).modes.modes).toHaveLength(1);
  });

  it('with >= 5 rounds bootstraps the round medians: the exact bootstrap of their median', () => {
    const rounds = makeRounds(1, 8, 50, 0.05, 0.02);
    const a = summarizeRounds(rounds);
    expect(a.ciMethod).toBe('process-medians-bootstrap');
    expect(a.median).toBe(quantile([...a.roundMedians].sort((x, y) => x - y), 0.5));
    expect(a.ci).toEqual(medianBootstrapInterval(a.processMedians, 0.95));
    expect(summarizeRounds(rounds, { confidence: 0.5 }).ci).toEqual(medianBootstrapInterval(a.processMedians, 0.5));
    expect(a.ci![0]).toBeLessThanOrEqual(a.median);
    expect(a.ci![1]).toBeGreaterThanOrEqual(a.median);
    expect(a.rounds).toBe(8);
    expect(a.n).toBe(400);
    expect(a.ciHalfWidthRel).toBeCloseTo((a.ci![1] - a.ci![0]) / 2 / a.median, 12);
  });

  it('one disturbed process in ten (2x slower throughout) barely moves the estimate or the CI', () => {
    const calm = makeRounds(5, 10, 100, 0.01, 0.02);
    const disturbed = calm.map((r, i) => (i === 3 ? r.map((x) => 2 * x) : r));
    const a = summarizeRounds(calm);
    const b = summarizeRounds(disturbed);
    expect(Math.abs(b.median / a.median - 1)).toBeLessThan(0.02);
    expect(b.ciHalfWidthRel).toBeLessThan(0.03);
  });

  it('between-process variance widens the CI well beyond the naive pooled interval', () => {
    const rounds = makeRounds(2, 10, 100, 0.05, 0.01);
    const h = summarizeRounds(rounds);
    const naive = summarize(rounds.flat());
    expect(h.ci![1] - h.ci![0]).toBeGreaterThan(3 * (naive.ci[1] - naive.ci[0]));
  });

  it('without between-process variance it is close to the pooled interval', () => {
    const rounds = makeRounds(3, 10, 100, 0, 0.02);
    const h = summarizeRounds(rounds);
    const naive = summarize(rounds.flat());
    const ratio = (h.ci![1] - h.ci![0]) / (naive.ci[1] - naive.ci[0]);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.8);
  });

  it('covers the population median in most seeded simulations with process effects', () => {
    // Population median is 100 (offsets and noise are symmetric on the log scale).
    let hits = 0;
    const sims = 100;
    for (let s = 0; s < sims; s++) {
      const h = summarizeRounds(makeRounds(100 + s, 10, 20, 0.03, 0.02));
      if (h.ci![0] <= 100 && 100 <= h.ci![1]) hits++;
    }
    expect(hits / sims).toBeGreaterThanOrEqual(0.88);
  });

  it('throws on no rounds, an empty round, or bad options', () => {
    expect(() => summarizeRounds([])).toThrow(/no rounds/);
    expect(() => summarizeRounds([[1], []])).toThrow(/round 1/);
    expect(() => summarizeRounds([[1, NaN]])).toThrow(/non-finite/);
  });
});

describe('summarizeRounds: modes and the estimator it names', () => {
  it('names its estimate and reports one mode for processes that agree', () => {
    const s = summarizeRounds(makeRounds(5, 10, 40, 0.02, 0.02));
    expect(s.estimator).toBe('median-of-medians');
    expect(s.modes.modes).toHaveLength(1);
    expect(s.modes.modes[0]!.count).toBe(10);
    expect(summarizeRounds(makeRounds(5, 3, 40, 0.02, 0.02)).estimator).toBe('pooled-median');
  });

  it('finds two groups of processes 1.6x apart in the process medians', () => {
    const fast = makeRounds(6, 12, 40, 0.02, 0.02);
    const slow = makeRounds(7, 18, 40, 0.02, 0.02).map((r) => r.map((x) => x * 1.6));
    const s = summarizeRounds([...fast, ...slow]);
    expect(s.modes.modes.map((m) => m.count)).toEqual([12, 18]);
    expect(s.modes.modes[1]!.center / s.modes.modes[0]!.center).toBeCloseTo(1.6, 1);
    // The headline is still the median of the process medians (see README.md: the comparison of estimators).
    expect(s.median).toBe(quantile([...s.roundMedians].sort((a, b) => a - b), 0.5));
  });
});

describe('summarizeRounds: modes with a zero median', () => {
  it('does not test modes when a round median is 0 (a timer that did not move), and says so', () => {
    const s = summarizeRounds([[0, 0, 0], [1, 1, 1], [1, 1, 1], [2, 2, 2], [1, 1, 1], [1, 1, 1]]);
    expect(s.modes.method).toContain('not tested');
    expect(s.modes.modes).toEqual([{ center: 1, count: 6, low: 0, high: 2 }]);
  });
});
