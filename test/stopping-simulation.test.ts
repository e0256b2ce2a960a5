/**
 * The stopping simulation's noise (scripts/measure/stopping/stopping-simulation.ts): what a
 * simulated A/A table is drawn from decides what its false-verdict rate
 * means, so the draws are checked for the spread and correlation they claim.
 */
import { describe, expect, it } from 'vitest';
import { createRandom } from '../packages/stats/src/index.ts';
import { agreementWithFixed, firstCandidate, fixedTable, sameWords, stoppedTable, unitLogRatios, unitSource, type Components, type DesignOptions, type TableOutcome } from '../scripts/measure/stopping/stopping-simulation.ts';

/** Two cases of three candidates against one baseline (a four-arm table), spreads 1–6%. */
const src: Components = {
  cells: ['a · x', 'a · y', 'a · z', 'b · x', 'b · y', 'b · z'],
  cases: ['a', 'b'],
  caseOf: [0, 0, 0, 1, 1, 1],
  variantOf: [0, 1, 2, 0, 1, 2],
  sd: [0.01, 0.02, 0.03, 0.04, 0.05, 0.06],
  mean: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
  standardized: [[1, -1, 0.5, 0, 2, -2], [-1, 1, -0.5, 0, -2, 2]],
};

/** n units of every cell, and each cell's sample sd and the correlation of two cells. */
function draws(noise: 't4' | 't4-arms', n: number): { sd: (i: number) => number; corr: (i: number, j: number) => number; mean: (i: number) => number } {
  const draw = unitSource(src, noise, src.cells.map(() => 0), createRandom(7));
  const units = Array.from({ length: n }, draw);
  const means = src.cells.map((_, i) => units.reduce((a, u) => a + u[i]!, 0) / n);
  const mean = (i: number): number => means[i]!;
  const cov = (i: number, j: number): number => units.reduce((a, u) => a + (u[i]! - means[i]!) * (u[j]! - means[j]!), 0) / (n - 1);
  return { mean, sd: (i) => Math.sqrt(cov(i, i)), corr: (i, j) => cov(i, j) / Math.sqrt(cov(i, i) * cov(j, j)) };
}

describe('the simulations: the statistic a unit reads', () => {
  // The baseline's samples hold a collection in two turns of seven (mean 1,300/7, median 100); the candidate's in none.
  const rounds = (samples: number[], span?: { quietCallNs: number; grownBy: number; capped?: true }) =>
    [0, 1, 2].map((round) => ({ round, samples, turns: {}, ...(span ? { span } : {}) }));
  const base = [100, 100, 100, 100, 100, 400, 400];
  const cand = [200, 200, 200, 200, 200, 200, 200];

  it("is the table's: a cell capped short of its collections reads its sets' means, as its figure and ratio do", () => {
    const capped = { quietCallNs: 100, grownBy: 8, capped: true as const };
    const units = unitLogRatios(rounds(base, capped), rounds(cand, { quietCallNs: 200, grownBy: 1 }));
    expect([...units.keys()]).toEqual(['unit 0', 'unit 1', 'unit 2']);
    for (const d of units.values()) expect(d).toBeCloseTo(Math.log(200 / (1300 / 7)), 12);
  });

  it('and the paired turns of a cell read by its medians', () => {
    for (const d of unitLogRatios(rounds(base), rounds(cand)).values()) expect(d).toBeCloseTo(Math.log(2), 12);
  });

  it("keys a cell's units by their order in time, so cases served by processes of their own draw the same units", () => {
    // Case a's rounds ran in processes 1–3, case b's in 4–6 (a case's own processes); rounds 0 and 1 of case b shared one.
    const inProcesses = (processes: number[], samples: number[]) => processes.map((process, round) => ({ round, samples, turns: { process } }));
    const a = unitLogRatios(inProcesses([1, 2, 3], base), inProcesses([1, 2, 3], cand));
    const b = unitLogRatios(inProcesses([4, 4, 6], base), inProcesses([4, 4, 6], cand));
    expect([...a.keys()]).toEqual(['unit 0', 'unit 1', 'unit 2']);
    expect([...b.keys()]).toEqual(['unit 0', 'unit 1']);
  });
});

describe('stopping simulation: the noise a table is drawn from', () => {
  it('per cell: each cell at its own spread, cells uncorrelated', () => {
    const d = draws('t4', 20_000);
    src.sd.forEach((s, i) => expect(d.sd(i) / s).toBeCloseTo(1, 1));
    expect(Math.abs(d.corr(0, 1))).toBeLessThan(0.05);
  });

  it('per arm: each cell at its own spread, a case\'s cells correlated ½ through their shared baseline, cases apart', () => {
    const d = draws('t4-arms', 20_000);
    src.sd.forEach((s, i) => expect(d.sd(i) / s).toBeCloseTo(1, 1));
    expect(d.corr(0, 1)).toBeGreaterThan(0.4);
    expect(d.corr(0, 1)).toBeLessThan(0.6);
    expect(d.corr(3, 5)).toBeGreaterThan(0.4);
    expect(Math.abs(d.corr(0, 3))).toBeLessThan(0.05);
    expect(Math.abs(d.mean(2))).toBeLessThan(0.002);
  });

  it('two arms: only the first candidate\'s cells, with their spreads, means and standardized units', () => {
    const two = firstCandidate(src);
    expect(two.cells).toEqual(['a · x', 'b · x']);
    expect(two.caseOf).toEqual([0, 1]);
    expect(two.variantOf).toEqual([0, 0]);
    expect(two.sd).toEqual([0.01, 0.04]);
    expect(two.mean).toEqual([0.1, 0.4]);
    expect(two.standardized).toEqual([[1, 0], [-1, 0]]);
    expect(two.cases).toEqual(src.cases);
  });
});

describe('stopping simulation: a comparison against the fixed design', () => {
  /** Four cases of two arms, each pair's log ratio spread 1.4% (a comparison's process pairs here). */
  const pairSrc: Components = {
    cells: ['a · x', 'b · x', 'c · x', 'd · x'],
    cases: ['a', 'b', 'c', 'd'],
    caseOf: [0, 1, 2, 3],
    variantOf: [0, 0, 0, 0],
    sd: [0.014, 0.014, 0.014, 0.014],
    mean: [0, 0, 0, 0],
    standardized: [],
  };
  const design: DesignOptions = { fixedRounds: 15, minRounds: 5, maxRounds: 15, budget: 60, confidence: 0.95, farPair: true };

  it('counts the words given on the cells the reference decides only', () => {
    expect(sameWords(['slower', 'inconclusive', 'equivalent', 'faster'], ['slower', 'slower', 'inconclusive', 'slower'])).toEqual({ decided: 3, same: 1 });
    expect(sameWords(['inconclusive'], ['slower'])).toEqual({ decided: 0, same: 0 });
  });

  it('tallies a design against independent references: the fixed design costs its reference\'s rounds, and a large change gets its word every time', () => {
    const effects = pairSrc.cells.map(() => Math.log(1.3));
    const t = agreementWithFixed(pairSrc, 't4', effects, design, 20, createRandom(3), (r) => fixedTable(pairSrc, 't4', effects, design, r));
    expect(t).toEqual({ comparisons: 20, decided: 80, same: 80, caseRounds: 1200, referenceCaseRounds: 1200, withinHalf: 0, anyDecided: 20 });
    const stopped = agreementWithFixed(pairSrc, 't4', effects, design, 20, createRandom(3), (r) => stoppedTable(pairSrc, 't4', effects, design, r, 'anytime'));
    expect(stopped.same).toBe(80);
    // Every case stops at its 5-pair minimum: a third of the reference's rounds.
    expect(stopped.caseRounds).toBe(400);
    expect(stopped.withinHalf).toBe(20);
  });

  it('counts as false only faster, slower or small words, and a comparison within half only at half the reference\'s rounds or less', () => {
    const none = pairSrc.cells.map(() => 0);
    const run = (verdicts: TableOutcome['verdicts'], caseRounds: number) => agreementWithFixed(pairSrc, 't4', none, design, 3, createRandom(4), () => ({ verdicts, caseRounds }));
    expect(run(['equivalent', 'equivalent', 'inconclusive', 'equivalent'], 30)).toMatchObject({ anyDecided: 0, withinHalf: 3, caseRounds: 90 });
    expect(run(['equivalent', 'small', 'inconclusive', 'inconclusive'], 31)).toMatchObject({ anyDecided: 3, withinHalf: 0 });
    expect(run(['faster', 'inconclusive', 'inconclusive', 'inconclusive'], 10).anyDecided).toBe(3);
    expect(run(['inconclusive', 'inconclusive', 'inconclusive', 'slower'], 10).anyDecided).toBe(3);
  });

  it('a planned last look reads the cells the sequences leave open on t intervals at the horizon, so it decides more of a 2% change', () => {
    const effects = pairSrc.cells.map(() => Math.log(1.02));
    const decided = (finalShare: number): { words: number; rounds: number } => {
      const random = createRandom(11);
      let words = 0;
      let rounds = 0;
      for (let i = 0; i < 40; i++) {
        const out = stoppedTable(pairSrc, 't4', effects, { ...design, finalShare }, random, 'anytime');
        words += out.verdicts.filter((v) => v === 'slower').length;
        rounds += out.caseRounds;
      }
      return { words, rounds };
    };
    const sequencesOnly = decided(0);
    const lastLook = decided(0.8);
    expect(lastLook.words).toBeGreaterThan(sequencesOnly.words);
    // The cells it keeps open go on to the horizon: more rounds, never past the fixed design's.
    expect(lastLook.rounds).toBeGreaterThan(sequencesOnly.rounds);
    expect(lastLook.rounds).toBeLessThanOrEqual(40 * 60);
  });
});
