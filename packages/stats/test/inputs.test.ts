/**
 * Bad input fails loudly, not as a NaN printed later: every public function
 * refuses it with a RangeError that names the function and what was wrong,
 * and accepts the edges of what it allows.
 */
import { describe, expect, it } from 'vitest';
import {
  applyFdr,
  benjaminiHochberg,
  comparePaired,
  compareUnpaired,
  createRandom,
  detectModes,
  geometricMeanRatio,
  geometricMeanRatioUnpaired,
  intervalAt,
  mannWhitney,
  medianCI,
  normalQuantile,
  pairedStopping,
  quantile,
  summarize,
  summarizeRounds,
  unitInference,
  unitMeans,
  welchInference,
  wilcoxonSignedRank,
} from '../src/index.ts';
import { rankSumNull, signedRankNull } from '../src/rank-tests.ts';

const INF = { estimate: 0, se: 0.01, df: 5, units: 6 };

/** [what is wrong, the call, the message it must give] */
const REFUSED: [string, () => unknown, RegExp][] = [
  ['summarizeRounds: a bad confidence', () => summarizeRounds([[1]], { confidence: 1 }), /^summarizeRounds: confidence must be in \(0, 1\), got 1$/],
  ['summarizeRounds: a non-finite sample', () => summarizeRounds([[1, Infinity]]), /^summarizeRounds: non-finite value Infinity$/],
  ['summarizeRounds: process labels that do not match the rounds', () => summarizeRounds([[1], [2]], { processes: [0] }), /^summarizeRounds: 2 rounds but 1 process labels$/],
  ['summarize: no samples', () => summarize([]), /^summarize: empty sample$/],
  ['summarize: a non-finite sample', () => summarize([1, NaN]), /^summarize: non-finite value NaN$/],
  ['summarize: a bad confidence', () => summarize([1], 0), /^summarize: confidence must be in \(0, 1\), got 0$/],
  ['medianCI: no samples', () => medianCI([]), /^medianCI: empty sample$/],
  ['medianCI: a bad confidence', () => medianCI([1], 1.5), /^medianCI: confidence must be in \(0, 1\), got 1.5$/],
  ['quantile: q below 0', () => quantile([1, 2], -0.1), /^quantile: q must be in \[0, 1\], got -0.1$/],
  ['quantile: q above 1', () => quantile([1, 2], 1.1), /^quantile: q must be in \[0, 1\], got 1.1$/],
  ['comparePaired: a negative threshold', () => comparePaired([1], [1], { threshold: -0.1 }), /^comparePaired: threshold must be finite and >= 0, got -0.1$/],
  ['comparePaired: a bad confidence', () => comparePaired([1], [1], { confidence: 0 }), /^comparePaired: confidence must be in \(0, 1\), got 0$/],
  ['comparePaired: a baseline value of 0', () => comparePaired([1, 0], [1, 1]), /^comparePaired: values must be finite and > 0, got 0$/],
  ['comparePaired: a negative candidate value', () => comparePaired([1, 1], [1, -2]), /^comparePaired: values must be finite and > 0, got -2$/],
  ['compareUnpaired: an empty baseline', () => compareUnpaired([], [1]), /^compareUnpaired: both arms need values$/],
  ['compareUnpaired: an empty candidate', () => compareUnpaired([1], []), /^compareUnpaired: both arms need values$/],
  ['compareUnpaired: a NaN threshold', () => compareUnpaired([1], [1], { threshold: NaN }), /^compareUnpaired: threshold must be finite and >= 0, got NaN$/],
  ['compareUnpaired: a bad confidence', () => compareUnpaired([1], [1], { confidence: 1 }), /^compareUnpaired: confidence must be in \(0, 1\), got 1$/],
  ['compareUnpaired: a baseline value of 0', () => compareUnpaired([0], [1]), /^compareUnpaired: values must be finite and > 0, got 0$/],
  ['compareUnpaired: a candidate value of Infinity', () => compareUnpaired([1], [Infinity]), /^compareUnpaired: values must be finite and > 0, got Infinity$/],
  ['unitMeans: a NaN value', () => unitMeans([1, NaN]), /^unitMeans: non-finite value NaN$/],
  ['unitMeans: labels that do not match the values', () => unitMeans([1, 2], [0]), /^unitMeans: 2 values but 1 unit labels$/],
  ['unitInference: no values', () => unitInference([]), /^unitInference: no values$/],
  ['welchInference: an empty baseline', () => welchInference({ values: [] }, { values: [1] }), /^welchInference: both arms need values$/],
  ['welchInference: an empty candidate', () => welchInference({ values: [1] }, { values: [] }), /^welchInference: both arms need values$/],
  ['intervalAt: a bad confidence', () => intervalAt(INF, 2), /^intervalAt: confidence must be in \(0, 1\), got 2$/],
  ['pairedStopping: a bad confidence', () => pairedStopping([1], [1], { confidence: 1 }), /^pairedStopping: confidence must be in \(0, 1\), got 1$/],
  ['pairedStopping: a target of 0', () => pairedStopping([1], [1], { target: 0 }), /^pairedStopping: target must be in \(0, 1\), got 0$/],
  ['pairedStopping: a target of 1', () => pairedStopping([1], [1], { target: 1 }), /^pairedStopping: target must be in \(0, 1\), got 1$/],
  ['pairedStopping: a negative budget', () => pairedStopping([1], [1], { maxRounds: -1 }), /^pairedStopping: maxRounds must be >= 0, got -1$/],
  ['geometricMeanRatio: a bad confidence', () => geometricMeanRatio([{ values: [0.1] }], { confidence: 0 }), /^geometricMeanRatio: confidence must be in \(0, 1\), got 0$/],
  ['geometricMeanRatio: a non-finite value', () => geometricMeanRatio([{ values: [0.1, NaN] }]), /^geometricMeanRatio: non-finite value NaN$/],
  ['geometricMeanRatio: labels that do not match the values', () => geometricMeanRatio([{ values: [0.1, 0.2], units: [0] }]), /^geometricMeanRatio: case 0 has 2 values but 1 unit labels$/],
  ['geometricMeanRatioUnpaired: a bad confidence', () => geometricMeanRatioUnpaired([{ baseline: { values: [1] }, candidate: { values: [1] } }], { confidence: 1 }), /^geometricMeanRatioUnpaired: confidence must be in \(0, 1\), got 1$/],
  ['benjaminiHochberg: a negative p-value', () => benjaminiHochberg([0.1, -0.01]), /^benjaminiHochberg: p-values must be in \[0, 1\], got -0.01$/],
  ['benjaminiHochberg: a p-value above 1', () => benjaminiHochberg([1.2]), /^benjaminiHochberg: p-values must be in \[0, 1\], got 1.2$/],
  ['applyFdr: an alpha of 0', () => applyFdr([], { alpha: 0 }), /^applyFdr: alpha must be in \(0, 1\), got 0$/],
  ['applyFdr: an alpha of 1', () => applyFdr([], { alpha: 1 }), /^applyFdr: alpha must be in \(0, 1\), got 1$/],
  ['createRandom: a NaN seed', () => createRandom(NaN), /^createRandom: seed must be finite, got NaN$/],
  ['normalQuantile: p below 0', () => normalQuantile(-0.1), /^normalQuantile: p must be in \[0, 1\], got -0.1$/],
  ['normalQuantile: p above 1', () => normalQuantile(1.2), /^normalQuantile: p must be in \[0, 1\], got 1.2$/],
  ['detectModes: a minShare of 0', () => detectModes([1, 2, 3], { minShare: 0 }), /^detectModes: minShare must be in \(0, 0.5\], got 0$/],
  ['detectModes: a minShare above 1/2', () => detectModes([1, 2, 3], { minShare: 0.6 }), /^detectModes: minShare must be in \(0, 0.5\], got 0.6$/],
  ['detectModes: an alpha of 0', () => detectModes([1, 2, 3], { alpha: 0 }), /^detectModes: alpha must be in \(0, 0.5\), got 0$/],
  ['detectModes: an alpha of 1/2', () => detectModes([1, 2, 3], { alpha: 0.5 }), /^detectModes: alpha must be in \(0, 0.5\), got 0.5$/],
  ['detectModes: a minRatio below 1', () => detectModes([1, 2, 3], { minRatio: 0.99 }), /^detectModes: minRatio must be >= 1, got 0.99$/],
  ['detectModes: no values', () => detectModes([]), /^detectModes: empty sample$/],
  ['detectModes: a value of 0', () => detectModes([1, 0]), /^detectModes: values must be finite and > 0, got 0$/],
  ['wilcoxonSignedRank: a bad confidence', () => wilcoxonSignedRank([1], 1), /^wilcoxonSignedRank: confidence must be in \(0, 1\), got 1$/],
  ['wilcoxonSignedRank: a non-finite value', () => wilcoxonSignedRank([1, -Infinity]), /^wilcoxonSignedRank: non-finite value -Infinity$/],
  ['wilcoxonSignedRank: more Walsh averages than fit', () => wilcoxonSignedRank(new Array<number>(6325).fill(1)), /^wilcoxonSignedRank: 6325 observations is too many \(pass per-round medians, not raw samples\)$/],
  ['mannWhitney: a bad confidence', () => mannWhitney([1], [2], 0), /^mannWhitney: confidence must be in \(0, 1\), got 0$/],
  ['mannWhitney: an empty x', () => mannWhitney([], [1]), /^mannWhitney: both samples must be non-empty$/],
  ['mannWhitney: an empty y', () => mannWhitney([1], []), /^mannWhitney: both samples must be non-empty$/],
  ['mannWhitney: a non-finite x', () => mannWhitney([NaN], [1]), /^mannWhitney: non-finite value NaN$/],
  ['mannWhitney: a non-finite y', () => mannWhitney([1], [Infinity]), /^mannWhitney: non-finite value Infinity$/],
  ['signedRankNull: a weight of 0', () => signedRankNull([1, 0]), /^signedRankNull: weights must be positive integers, got 0$/],
  ['signedRankNull: a fractional weight', () => signedRankNull([1.5]), /^signedRankNull: weights must be positive integers, got 1.5$/],
  ['rankSumNull: a negative subset size', () => rankSumNull([1, 2], -1), /^rankSumNull: bad subset size -1$/],
  ['rankSumNull: a fractional subset size', () => rankSumNull([1, 2], 1.5), /^rankSumNull: bad subset size 1.5$/],
  ['rankSumNull: a subset larger than the set', () => rankSumNull([1, 2], 3), /^rankSumNull: bad subset size 3$/],
  ['rankSumNull: a negative weight', () => rankSumNull([1, -2], 1), /^rankSumNull: weights must be non-negative integers, got -2$/],
  ['rankSumNull: a fractional weight', () => rankSumNull([1, 2.5], 1), /^rankSumNull: weights must be non-negative integers, got 2.5$/],
];

describe('bad input', () => {
  it.each(REFUSED)('%s is refused, and the message says where and what', (_what, call, message) => {
    expect(call).toThrow(RangeError);
    expect(call).toThrow(message);
  });
});

describe('the edges of what is allowed', () => {
  it('are accepted', () => {
    expect(pairedStopping([1, 2, 3], [1, 2, 3], { maxRounds: 0 }).withinBudget).toBe(false);
    expect(detectModes([1, 2, 3], { minShare: 0.5 }).modes).toHaveLength(1);
    expect(detectModes([1, 2, 3], { minRatio: 1 }).modes).toHaveLength(1);
    expect(benjaminiHochberg([0, 1])).toEqual([0, 1]);
    expect(quantile([1, 2], 0)).toBe(1);
    expect(quantile([1, 2], 1)).toBe(2);
    // A subset of none has the sum 0; a subset of all, the sum of all; a weight of 0 counts.
    expect(Array.from(rankSumNull([1, 2], 0))).toEqual([1]);
    expect(Array.from(rankSumNull([1, 2], 2))).toEqual([0, 0, 0, 1]);
    expect(Array.from(rankSumNull([0, 1], 1))).toEqual([0.5, 0.5]);
  });
});
