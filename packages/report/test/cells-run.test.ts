/**
 * The cells a reader reads a ratio from (cells/run.ts): the printed estimate
 * sits inside its printed interval and on the side its word says, for every
 * comparison; "≠ work" replaces any verdict for different work; an undecided
 * comparison says how many more units would decide it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { comparePaired, compareUnpaired } from '@rtbench/stats';
import type { Metric } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { benchView } from '../src/index.ts';
import { benchCells, benchLegend, bestRows, comparisonCells, geomeanLeftOut, relativeText } from '../src/cells/run.ts';
import type { BenchRow, CaseComparison } from '../src/views/types.ts';
import type { RatioComparison } from '@rtbench/verdicts';

const run = syntheticRun({ cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'node@24', factor: 1.2 }], rounds: 6 });
const view = benchView(run);
const [baseRow, candidateRow] = view.cases[0]!.rows as [BenchRow, BenchRow];
const withRelative = (relative: RatioComparison): BenchRow => ({ ...candidateRow, relative });

/** A comparison of `n` pairs whose log ratios are `mean` ± `spread`. */
function comparison(mean: number, spread: number, n: number): RatioComparison {
  const d = Array.from({ length: n }, (_, i) => mean + (i % 2 ? spread : -spread) * (1 + i / n));
  return { ...comparePaired(d.map(() => 1), d.map(Math.exp)), qValue: 0.01 };
}

/** "1.23× faster [1.20–1.26]" → its estimate, word and bounds. */
function parse(text: string): { estimate: number; word: string; lo: number; hi: number } {
  const m = /^(?:[=≈] )?(\d+\.\d+)× (.*?)\s*\[(\d+\.\d+)–(\d+\.\d+)\]$/.exec(text);
  expect(m, text).not.toBeNull();
  return { estimate: Number(m![1]), word: m![2]!, lo: Number(m![3]), hi: Number(m![4]) };
}

describe('the relative cell', () => {
  it('prints a decided estimate inside its interval, one way: a factor of at least 1 and its direction; an undecided one its interval alone', () => {
    fc.assert(
      fc.property(fc.double({ min: -0.3, max: 0.3, noNaN: true }), fc.double({ min: 0.0005, max: 0.2, noNaN: true }), fc.integer({ min: 3, max: 12 }), (mean, spread, n) => {
        const c = comparison(mean, spread, n);
        const cell = relativeText(withRelative(c), false);
        if (c.verdict === 'inconclusive') {
          // No direction: the word, then the interval as measured, which holds 1.
          const m = /^undecided \[(\d+\.\d+)–(\d+\.\d+)\]$/.exec(cell.relative);
          expect(m, cell.relative).not.toBeNull();
          expect(Number(m![1])).toBeLessThanOrEqual(1);
          expect(Number(m![2])).toBeGreaterThanOrEqual(1);
          expect(cell.relative).not.toMatch(/faster|slower|×/);
          return;
        }
        const p = parse(cell.relative);
        expect(cell.verdict).toBe(c.verdict);
        expect(p.lo).toBeLessThanOrEqual(p.estimate);
        expect(p.estimate).toBeLessThanOrEqual(p.hi);
        const turned = c.ratio < 1;
        const shown = turned ? 1 / c.ratio : c.ratio;
        expect(p.estimate).toBeGreaterThanOrEqual(1);
        // To the printed digits: half a unit of the last one.
        const digits = cell.relative.split('×')[0]!.split('.')[1]!.length;
        expect(Math.abs(p.estimate - shown)).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-12);
        expect(p.word).toMatch(turned ? /^faster/ : /^slower/);
        if (c.verdict === 'equivalent') expect(cell.relative.startsWith('= ')).toBe(true);
        // An interval that excludes 1 is printed on one side of 1.
        if (c.ci[0] > 1 || c.ci[1] < 1) expect(p.lo > 1 || p.hi < 1).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('an undecided ratio says no direction on either side of 1 ("undecided [0.86–1.11]", never "≈ 1.03× faster")', () => {
    for (const c of [comparison(Math.log(0.97), 0.05, 4), comparison(Math.log(1.04), 0.05, 4)]) {
      expect(c.verdict).toBe('inconclusive');
      expect(relativeText(withRelative(c), false)).toEqual({ relative: `undecided [${c.ci[0].toFixed(2)}–${c.ci[1].toFixed(2)}]`, verdict: 'inconclusive' });
    }
  });

  it('"≠ work" for different work, whatever the verdict; the baseline says so; no interval says how few units', () => {
    const decided = comparison(0.3, 0.01, 6);
    expect(decided.verdict).toBe('slower');
    expect(relativeText(withRelative(decided), true)).toEqual({ relative: '≠ work', verdict: 'different-work' });
    expect(benchCells(withRelative(decided), true).relative).toBe('≠ work');
    expect(relativeText(baseRow, false)).toEqual({ relative: 'baseline', verdict: 'baseline' });
    expect(relativeText({ ...baseRow, stats: undefined }, false)).toEqual({ relative: '' });
    const two = { ...comparePaired([1, 1], [1.1, 1.2]), qValue: 1 };
    expect(relativeText(withRelative(two), false)).toEqual({ relative: 'undecided (no interval: 2 process pairs)', verdict: 'inconclusive' });
    expect(relativeText({ ...candidateRow, relative: undefined, relativeNote: 'not measured' }, false).relative).toBe('—');
  });

  it('the best median is the lowest cost, or the highest throughput; a 0 ns median is not singled out', () => {
    const bc = view.cases[0]!;
    expect([...bestRows(bc)]).toEqual(['node']);
    const throughput: Metric = { name: 'requests', unit: 'req/s', direction: 'higher-is-better' };
    expect([...bestRows({ ...bc, rows: bc.rows.map((r) => ({ ...r, metric: throughput })) })]).toEqual(['node@24']);
    expect([...bestRows({ ...bc, rows: [bc.rows[0]!] })]).toEqual([]);
    const zero = { ...bc, rows: bc.rows.map((r, i) => (i === 0 ? { ...r, stats: { ...r.stats!, median: 0 } } : r)) };
    expect([...bestRows(zero)]).toEqual([]);
  });
});

describe('the comparison cells', () => {
  const row = (c: RatioComparison, extra: Partial<CaseComparison> = {}): CaseComparison => ({ caseId: 'c', label: 'c', baseline: { median: 1000, rounds: 6 }, candidate: { median: 1200, rounds: 6 }, comparison: c, ...extra });

  it('"~N more process pairs to decide": the units the interval needs less the units it has', () => {
    const c = comparison(0.02, 0.03, 4);
    expect(c.verdict).toBe('inconclusive');
    for (const [needed, text] of [
      [c.units + 1, '~1 more process pair to decide'],
      [c.units + 12, '~12 more process pairs to decide'],
      [c.units + 1234, '~1200 more process pairs to decide'],
    ] as const) {
      expect(comparisonCells(row({ ...c, unitsToDecide: needed }), { pairing: 'paired', threshold: 0.01 }).detail).toBe(text);
    }
    expect(comparisonCells(row({ ...c, unitsToDecide: c.units + 12 }), { pairing: 'unpaired', threshold: 0.01 }).detail).toBe('~12 more processes a run to decide');
    const { unitsToDecide: _none, ...undecidable } = c;
    expect(comparisonCells(row(undecidable), { pairing: 'paired', threshold: 0.01 }).detail).toBe('needs >100× the processes for ±1%');
  });

  it('a decided change as a percentage (a throughput as its own change), a small one under the threshold, an equivalent one within it', () => {
    const slower = comparison(Math.log(1.25), 0.01, 6);
    const cells = comparisonCells(row(slower), { pairing: 'paired', threshold: 0.01 });
    expect(cells).toMatchObject({ verdict: 'slower', word: 'slower', q: '0.010' });
    expect(cells.detail).toMatch(/^\+2\d\.\d?%$|^\+2\d%$/);
    expect(cells.ratio).toMatch(/^1\.2\d+ \[1\.\d+–1\.\d+\]$/);
    const throughput: Metric = { name: 'requests', unit: 'req/s', direction: 'higher-is-better' };
    expect(comparisonCells(row(slower, { metric: throughput }), { pairing: 'paired', threshold: 0.01 }).detail).toMatch(/^−20\.?\d?% req\/s$/);
    const small = comparison(Math.log(1.005), 0.0005, 6);
    expect(small.verdict).toBe('small');
    expect(comparisonCells(row(small), { pairing: 'paired', threshold: 0.01 })).toMatchObject({ word: 'slower <1%', detail: '+0.5%, under 1%' });
    const same = comparison(0, 0.001, 6);
    expect(comparisonCells(row(same), { pairing: 'paired', threshold: 0.01 })).toMatchObject({ verdict: 'equivalent', detail: 'within ±1%' });
  });

  it('no comparison: the note; no interval: how few units, paired or unpaired', () => {
    const { comparison: _c, ...bare } = row(comparison(0, 0.01, 4));
    expect(comparisonCells({ ...bare, note: 'not measured' }, { pairing: 'paired', threshold: 0.01 })).toMatchObject({ verdict: '—', word: '—', detail: 'not measured', ratio: '' });
    const two = { ...compareUnpaired([1, 1.1], [1.2, 1.3]), qValue: 1 };
    const cells = comparisonCells(row(two), { pairing: 'unpaired', threshold: 0.01 });
    expect(cells.detail).toBe('no interval from 2 processes (the smaller run)');
    expect(cells.ratio).toMatch(/\(no interval\)$/);
  });
});

describe('what a geomean leaves out', () => {
  it('says each kind of case left out, counted, and nothing when none is', () => {
    expect(geomeanLeftOut({ excluded: 0, withoutWork: 0 })).toBe('');
    expect(geomeanLeftOut({ excluded: 2, withoutWork: 0 })).toBe(' (2 cases with different work left out)');
    expect(geomeanLeftOut({ excluded: 0, withoutWork: 1 })).toBe(' (1 case without work left out)');
    expect(geomeanLeftOut({ excluded: 1, withoutWork: 2 })).toBe(' (1 case with different work and 2 without work left out)');
  });
});

describe("the bench legend's budget", () => {
  it('names --max-rounds and --max-time as a user gives them: seconds from 1 s, else ms', () => {
    const legendWith = (budgetMs: number | undefined): string => {
      const adaptive = syntheticRun({ cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'node@24', factor: 1.2 }], rounds: 6 });
      adaptive.options = { ...adaptive.options, adaptive: { target: 0.02, minRounds: 6, maxRounds: 30, ...(budgetMs !== undefined ? { budgetMs } : {}) } };
      return benchLegend(benchView(adaptive)).join('\n');
    };
    expect(legendWith(60_000)).toContain('(--max-rounds 30 / --max-time 60 s)');
    expect(legendWith(1_500)).toContain('(--max-rounds 30 / --max-time 1.5 s)');
    expect(legendWith(1_000)).toContain('--max-time 1 s)');
    expect(legendWith(999.5)).toContain('--max-time 999.5 ms)');
    expect(legendWith(undefined)).toContain('within the budget (--max-rounds 30)');
  });
});
