import { describe, expect, it } from 'vitest';
import { formatChange, formatDuration, formatPercent, formatRange, formatRatio, formatThreshold, percentText } from '../src/format.ts';
import { claimFigure } from '../src/cells/claims.ts';
import { budgetReachedLine } from '../src/campaign-lines.ts';
import { metricsCells, metricsChange, type MetricsSummary } from '../src/metrics.ts';

describe('duration formatting', () => {
  it('picks the unit by magnitude, three significant digits', () => {
    expect(formatDuration(0.508)).toBe('0.508 ns');
    expect(formatDuration(44_500)).toBe('44.5 µs');
    expect(formatDuration(2_940_000)).toBe('2.94 ms');
  });

  it('moves to the next unit when rounding reaches it', () => {
    expect(formatDuration(999.7)).toBe('1 µs');
    expect(formatRange(990, 999.7)).toBe('0.990–1.00 µs');
  });

  it('shows a range in the unit of its upper end', () => {
    expect(formatRange(821_000, 1_060_000)).toBe('0.821–1.06 ms');
  });
});

describe('absurd percentages and ratios', () => {
  // A run whose samples are edited or broken can give a ratio of 1e295: toFixed would print "3.06e+297%".
  it('writes a percentage past ±100,000% as a multiple, never in e-notation', () => {
    expect(formatChange(3.06e295)).toBe('>1000×');
    expect(formatPercent(3.06e295)).toBe('>1000×');
    expect(formatPercent(-3.06e295)).toBe('<−1000×');
    expect(percentText(Infinity, 1, true)).toBe('>1000×');
    expect(percentText(Number.NaN, 1)).toBe('—');
    expect(formatThreshold(1e300)).toBe('>1000×');
    expect(formatRatio(3.06e295)).toBe('>1000');
  });

  it('leaves ordinary figures as they were', () => {
    expect(formatChange(1.052)).toBe('+5.2%');
    expect(formatChange(1.302)).toBe('+30%');
    expect(formatChange(0.939)).toBe('−6.1%');
    expect(formatChange(1000)).toBe('+99900%');
    expect(formatPercent(0.052)).toBe('5.2%');
    expect(formatPercent(-0.052)).toBe('-5.2%');
    expect(formatThreshold(0.025)).toBe('2.5%');
    expect(formatRatio(456.7)).toBe('457');
    expect(formatRatio(1.05)).toBe('1.050');
  });

  it('keeps the figures of every percent printer out of e-notation', () => {
    expect(claimFigure({ expect: { kind: 'same' }, ratio: 3.06e295, interval: [1e290, 1e300] })).toBe('>1000× [>1000×, >1000×]');
    const summary = { reasons: {}, gcShare: 1e300 } as unknown as MetricsSummary;
    expect(metricsCells(summary).gcShare).toBe('>1000×');
    expect(metricsChange(3.06e295, summary, summary)).toMatch(/^>1000× time, /);
  });
});

describe("a campaign's budget line", () => {
  it('names the budget as a clock and says the same command continues', () => {
    expect(budgetReachedLine(15 * 60_000)).toBe('budget of 15:00 reached; run the same command again to continue (or raise --budget)');
  });

  it('says what was finished before the budget ran out, when given', () => {
    expect(budgetReachedLine(3_725_000, '4 measurements')).toBe('budget of 1:02:05 reached after 4 measurements; run the same command again to continue (or raise --budget)');
  });
});
