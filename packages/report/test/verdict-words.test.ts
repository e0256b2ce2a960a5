/** A count is not a time: verdicts on instruction counts read "fewer"/"more", on times "faster"/"slower". */
import { describe, expect, it } from 'vitest';
import { INSTRUCTIONS_PER_OP, TIME_PER_OP } from '@rtbench/core/schema';
import { comparisonCells, relativeText } from '../src/cells/run.ts';
import { verdictWord, verdictWords, worseThan } from '../src/verdict-words.ts';
import type { BenchRow, CaseComparison } from '../src/views/types.ts';

const ratio = (verdict: 'faster' | 'slower', r: number) => ({ verdict, ratio: r, ci: [r * 0.99, r * 1.01] as [number, number], n: 3, units: 3, confidence: 0.95, inference: { estimate: Math.log(r), se: 0.001, df: 2, units: 3 }, pValue: 0.001, method: 'paired', threshold: 0.005, qValue: 0.01 });

describe('verdict words', () => {
  it('says "fewer"/"more" for instruction counts and "faster"/"slower" for times', () => {
    expect(verdictWords(INSTRUCTIONS_PER_OP)).toMatchObject({ quantity: 'instructions', better: 'fewer', worse: 'more' });
    expect(verdictWords(TIME_PER_OP)).toMatchObject({ quantity: 'time', better: 'faster', worse: 'slower' });
    expect(verdictWords(undefined)).toEqual(verdictWords(TIME_PER_OP));
    expect(verdictWord('equivalent', INSTRUCTIONS_PER_OP)).toBe('equivalent');
    expect(worseThan(verdictWords(INSTRUCTIONS_PER_OP), 'node', '3.1%')).toBe('executes 3.1% more instructions than node');
    expect(worseThan(verdictWords(TIME_PER_OP), 'node', '3.1%')).toBe('is slower than node by 3.1%');
  });

  it('words the table cells by the row\'s metric, keeping the verdict kind for colouring', () => {
    const row = (metric: typeof TIME_PER_OP | undefined, verdict: 'faster' | 'slower') => ({ isBaseline: false, stats: {}, relative: ratio(verdict, verdict === 'faster' ? 0.6 : 1.7), metric }) as unknown as BenchRow;
    expect(relativeText(row(INSTRUCTIONS_PER_OP, 'faster'), false)).toEqual({ relative: '1.67× fewer [1.65–1.68]', verdict: 'faster' });
    expect(relativeText(row(INSTRUCTIONS_PER_OP, 'slower'), false).relative).toMatch(/^1\.70× more \[/);
    expect(relativeText(row(undefined, 'faster'), false).relative).toMatch(/^1\.67× faster \[/);
    const compared = (metric: typeof TIME_PER_OP) => ({ caseId: 'c', metric, baseline: { median: 100 }, candidate: { median: 60 }, comparison: ratio('faster', 0.6) }) as unknown as CaseComparison;
    expect(comparisonCells(compared(INSTRUCTIONS_PER_OP), { pairing: 'paired', threshold: 0.005 })).toMatchObject({ verdict: 'faster', word: 'fewer' });
    expect(comparisonCells(compared(TIME_PER_OP), { pairing: 'paired', threshold: 0.005 })).toMatchObject({ verdict: 'faster', word: 'faster' });
  });
});
