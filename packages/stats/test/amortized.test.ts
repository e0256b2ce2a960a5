/**
 * The amortized figure (amortized.ts): an arm whose samples stayed bimodal by
 * collection at their cap is read by its processes' means, in its figure and
 * in its paired ratio alike; the collector's share is read against each
 * round's cost between collections; a run saved before spans reads as it did.
 */
import { describe, expect, it } from 'vitest';
import { classifyProcess, collectorShare, pairRounds, readByMean, summarizeArm, type PairableRound } from '../src/index.ts';
import { processStatisticOf } from '../src/amortized.ts';

/** Seven turns: two of seven samples hold a collection that triples them. */
const bimodal = (quiet: number): number[] => [quiet, quiet * 3, quiet, quiet, quiet * 3, quiet, quiet];

function rounds(n: number, samples: (i: number) => number[], span?: PairableRound['span']): PairableRound[] {
  return Array.from({ length: n }, (_, i) => ({ round: i, samples: samples(i), turns: {}, ...(span ? { span } : {}) }));
}

describe('an arm read by its means', () => {
  const capped = { quietCallNs: 100, grownBy: 8, capped: true as const };

  it('is one whose spanned rounds hit the cap, half of them or more', () => {
    expect(readByMean(rounds(6, () => [1], capped))).toBe(true);
    const mixed = [...rounds(3, () => [1], capped), ...rounds(3, () => [1], { quietCallNs: 1, grownBy: 2 })];
    expect(readByMean(mixed)).toBe(true);
    expect(readByMean([...mixed, ...rounds(1, () => [1], { quietCallNs: 1, grownBy: 1 })])).toBe(false);
    // A run saved before spans: medians, as it was reported.
    expect(readByMean(rounds(6, () => [1]))).toBe(false);
    expect(processStatisticOf(rounds(6, () => [1]))).toBe('median');
    expect(processStatisticOf(rounds(6, () => [1], capped))).toBe('mean');
  });

  it('has the median of its process means as its figure, and says so', () => {
    const arm = rounds(6, (i) => bimodal(100 + i));
    const before = summarizeArm(arm);
    expect(before.estimator).toBe('median-of-medians');
    expect(before.median).toBeCloseTo(102.5, 9);
    const after = summarizeArm(arm.map((r) => ({ ...r, span: capped })));
    expect(after.estimator).toBe('median-of-means');
    // Each process's mean is 11/7 of its quiet cost.
    expect(after.median).toBeCloseTo((102.5 * 11) / 7, 9);
    expect(after.processMedians[0]).toBeCloseTo((100 * 11) / 7, 9);
  });

  it('with fewer than five processes: the pooled mean', () => {
    const s = summarizeArm(rounds(2, () => bimodal(100), capped));
    expect(s.estimator).toBe('pooled-mean');
    expect(s.median).toBeCloseTo((100 * 11) / 7, 9);
    expect(s.ciMethod).toBe('none: too few processes');
    // The samples' interquartile range against the mean.
    expect(s.rsd).toBeCloseTo((s.p75 - s.p25) / s.median, 9);
    expect(s.p25).toBeLessThan(s.p75);
  });

  it('pairs its sets by their means, so the ratio reads what the figures read', () => {
    // The candidate's collections fall in other turns than the baseline's: turn by turn the ratios are 3, 1/3 and 1.
    const base = rounds(6, () => [100, 300, 100, 100, 300, 100, 100], capped);
    const cand = rounds(6, () => [300, 100, 100, 300, 100, 100, 100].map((x) => x * 2), capped);
    const p = pairRounds(base, cand);
    for (let i = 0; i < 6; i++) expect(p.candidate[i]! / p.baseline[i]!).toBeCloseTo(2, 9);
    const bFigure = summarizeArm(base).median;
    const cFigure = summarizeArm(cand).median;
    expect(cFigure / bFigure).toBeCloseTo(2, 9);
    // Either arm read by its means makes both: one side's samples spanned, the other's capped.
    const spanned = cand.map((r) => ({ ...r, span: { quietCallNs: 200, grownBy: 2 } }));
    expect(pairRounds(base, spanned).baseline[0]).toBeCloseTo((100 * 11) / 7, 9);
    expect(pairRounds(spanned, base).candidate[0]).toBeCloseTo((100 * 11) / 7, 9);
  });
});

describe("the collector's share", () => {
  it('is 1 − the cost between collections / the figure, per round, their median', () => {
    const spanned = rounds(5, (i) => [150 + i, 150 + i, 150 + i], { quietCallNs: 50, grownBy: 4 });
    expect(collectorShare(spanned)).toBeCloseTo(1 - 50 / 152, 9);
  });

  it('is read against the mean where the arm is read by its means', () => {
    expect(collectorShare(rounds(3, () => bimodal(100), { quietCallNs: 100, grownBy: 8, capped: true }))).toBeCloseTo(1 - 7 / 11, 9);
  });

  it('is none for rounds whose samples needed no growth, however their short batches read', () => {
    // A case of a few ns: its short batches read a third of its samples' time (the clock and the loop), not a collection.
    expect(collectorShare(rounds(3, () => [16, 17, 15], { quietCallNs: 5, grownBy: 1 }))).toBe(0);
    expect(collectorShare([...rounds(2, () => [16], { quietCallNs: 5, grownBy: 1 }), ...rounds(3, () => [20], { quietCallNs: 10, grownBy: 2 })])).toBeCloseTo(0.5, 9);
  });

  it('leaves out a round whose figure the clock did not see (0), which says nothing of the share', () => {
    const grown = { quietCallNs: 50, grownBy: 4 };
    expect(collectorShare([...rounds(2, () => [0, 0, 0], grown), ...rounds(1, () => [100], grown)])).toBeCloseTo(0.5, 9);
  });

  it('is none below nothing, and unknown for a run saved before spans', () => {
    expect(collectorShare(rounds(3, () => [90], { quietCallNs: 100, grownBy: 1 }))).toBe(0);
    expect(collectorShare(rounds(3, () => [90]))).toBeUndefined();
  });
});

describe('a process whose samples were grown past its warmup', () => {
  it("is not read as slowed down by its warmup's short batches, which missed the collections its samples hold", () => {
    const warmup = { calls: [100, 200, 300, 400, 500, 600, 700, 800, 900], ms: [1, 2, 3, 4, 5, 6, 7, 8, 9], ns: [100, 100, 101, 99, 100, 100, 101, 99, 100], calibrationCalls: 50, steadyAt: { calls: 900, ms: 9 } };
    const samples = Array.from({ length: 10 }, (_, i) => 150 + (i % 3));
    expect(classifyProcess(warmup, samples).class).toBe('slowdown');
    expect(classifyProcess({ ...warmup, samplesGrown: 4 }, samples)).toEqual({ class: 'flat' });
    expect(classifyProcess({ ...warmup, samplesGrown: 4, steadyAt: undefined }, samples)).toEqual({ class: 'no-steady-state' });
    // A first phase slower than the grown samples is still where it warmed.
    expect(classifyProcess({ ...warmup, ns: warmup.ns.map((x) => 4 * x), samplesGrown: 4 }, samples)).toEqual({ class: 'warmed', calls: 900, ms: 9 });
  });
});
