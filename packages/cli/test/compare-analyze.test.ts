/** The comparison logic without processes: schedules, argument handling, paired analysis. */
import { describe, expect, it } from 'vitest';
import { caseFilter, exactFilter } from '@rtbench/suite-loader';
import { pairedComparisonView as analyzePairedRun, unpairedComparisonView as analyzeSavedRuns } from '../../report/src/index.ts';
import { parseCompareArms } from '../src/compare/arms.ts';
import { parseRuntimeList } from '@rtbench/arms';
import { balancedOrders } from '../../run/src/schedule.ts';
import { comparePaired, createRandom, median } from '../../stats/src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { regressionsOf } from '@rtbench/verdicts';

const options = { threshold: 0.01, confidence: 0.95 };

describe('balancedOrders', () => {
  it('puts every arm in every position once per block of k rounds', () => {
    for (const k of [2, 3, 4]) {
      const arms = Array.from({ length: k }, (_, i) => `arm${i}`);
      const orders = balancedOrders(arms, 4 * k, createRandom(k));
      expect(orders).toHaveLength(4 * k);
      for (let block = 0; block < 4; block++) {
        const slice = orders.slice(block * k, block * k + k);
        for (let position = 0; position < k; position++) {
          expect(new Set(slice.map((o) => o[position])).size).toBe(k);
        }
      }
      for (const o of orders) expect([...o].sort()).toEqual(arms);
    }
  });

  it('is random between blocks (not always AB then BA) and reproducible from the seed', () => {
    const a = balancedOrders(['A', 'B'], 40, createRandom(7)).map((o) => o.join(''));
    expect(a).toEqual(balancedOrders(['A', 'B'], 40, createRandom(7)).map((o) => o.join('')));
    const firstOfBlock = a.filter((_, i) => i % 2 === 0);
    expect(new Set(firstOfBlock).size).toBe(2);
    expect(a.filter((o) => o === 'AB')).toHaveLength(20);
  });

  it('keeps a trailing partial block within one of balance', () => {
    const orders = balancedOrders(['A', 'B'], 7, createRandom(1));
    const first = orders.filter((o) => o[0] === 'A').length;
    expect(Math.abs(first - (7 - first))).toBe(1);
  });
});

describe('--compare arguments', () => {
  it('parses each arm in the one variant syntax and numbers repeats for A/A runs', () => {
    const arms = parseCompareArms(['node@24', 'node@24', 'node@26 --max-semi-space-size=64 NODE_ENV=production']);
    expect(arms.map((a) => a.id)).toEqual(['node@24', 'node@24 #2', 'node@26 --max-semi-space-size=64 NODE_ENV=production']);
    expect(arms[2]).toMatchObject({ runtimeSpec: 'node@26', flags: ['--max-semi-space-size=64'], env: { NODE_ENV: 'production' } });
    expect(parseCompareArms(['node@24,node@26']).map((a) => a.id)).toEqual(['node@24', 'node@26']);
  });
  it('numbers repeats in a table too: one runtime as every arm is an A/A table', () => {
    expect(parseRuntimeList('node@26,node@26,node@26').map((a) => a.id)).toEqual(['node@26', 'node@26 #2', 'node@26 #3']);
  });
});

describe('analyzePairedRun', () => {
  const cases = [
    { id: 'a', ns: 1000 },
    { id: 'b', ns: 2000 },
    { id: 'c', ns: 3000 },
    { id: 'd', ns: 4000 },
  ];
  const run = syntheticRun({
    mode: 'compare',
    cases,
    rounds: 16,
    seed: 5,
    arms: [
      { id: 'node@24', factor: 1 },
      { id: 'node@26', factor: 1, overrides: { a: { factor: 1.15 }, c: { digest: 'ffffffffffffffff' }, d: { unsupported: 'no such API' } } },
    ],
  });

  it('pairs per-round medians by round and gives the paired verdict', () => {
    const report = analyzePairedRun(run, options);
    const rows = report.sections[0]!.cases;
    const medians = (variant: string): number[] => run.results.find((r) => r.caseId === 'a' && r.variantId === variant)!.rounds.map((r) => median(r.samples));
    const expected = comparePaired(medians('node@24'), medians('node@26'));
    const c = rows[0]!.comparison!;
    expect(c).toMatchObject({ verdict: 'slower', ratio: expected.ratio, n: 16 });
    // Read at the table's adjusted level: at least as wide as the cell's own interval, never narrower.
    expect(c.ci[0]).toBeLessThanOrEqual(expected.ci[0]);
    expect(c.ci[1]).toBeGreaterThanOrEqual(expected.ci[1]);
    expect(rows[1]!.comparison!.verdict).not.toMatch(/faster|slower/);
  });

  it('flags different work, leaves it out of the geomean, and notes unsupported cases', () => {
    const report = analyzePairedRun(run, options);
    const rows = report.sections[0]!.cases;
    expect(rows[2]!.digests).toEqual({ baseline: '0123456789abcdef', candidate: 'ffffffffffffffff' });
    expect(rows[3]!.comparison).toBeUndefined();
    expect(rows[3]!.note).toBe('unsupported on node@26: no such API');
    expect(report.sections[0]!.geomean).toMatchObject({ cases: 2, excluded: 1 });
    expect(regressionsOf(report, 0.1).map((r) => r.caseId)).toEqual(['a']);
    expect(regressionsOf(report, 0.2)).toEqual([]);
  });

  it('compares every arm with the first and controls the FDR across all of them', () => {
    const three = syntheticRun({
      mode: 'compare',
      cases: cases.slice(0, 2),
      rounds: 12,
      arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 0.8 }, { id: 'node@26 --jitless', factor: 3 }],
    });
    const report = analyzePairedRun(three, options);
    expect(report.sections.map((s) => `${s.candidate.id} vs ${s.baseline.id}`)).toEqual(['node@26 vs node@24', 'node@26 --jitless vs node@24']);
    expect(report.sections[0]!.cases.map((c) => c.comparison!.verdict)).toEqual(['faster', 'faster']);
    expect(report.sections[1]!.cases.map((c) => c.comparison!.verdict)).toEqual(['slower', 'slower']);
    // q-values come from one BH family of 4 comparisons
    for (const s of report.sections) for (const c of s.cases) expect(c.comparison!.qValue).toBeGreaterThanOrEqual(c.comparison!.pValue);
  });
});

describe('analyzeSavedRuns', () => {
  it('compares each variant present in both runs', () => {
    const mk = (factor: number, seed: number) =>
      syntheticRun({ cases: [{ id: 'x', ns: 100 }], rounds: 10, seed, arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor }] });
    const report = analyzeSavedRuns({ run: mk(1, 1), file: '/r/a.json' }, { run: mk(1.2, 2), file: '/r/b.json' }, options);
    expect(report.sections.map((s) => [s.baseline.label, s.candidate.label])).toEqual([
      ['node@24 (a.json)', 'node@24 (b.json)'],
      ['node@26 (a.json)', 'node@26 (b.json)'],
    ]);
    expect(report.sections[1]!.cases[0]!.comparison!.verdict).toBe('slower');
  });

  it('refuses to guess when the runs share no variant and one has several', () => {
    const a = syntheticRun({ cases: [{ id: 'x', ns: 100 }], rounds: 4, arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 1 }] });
    const b = syntheticRun({ cases: [{ id: 'x', ns: 100 }], rounds: 4, arms: [{ id: 'node@22', factor: 1 }] });
    expect(() => analyzeSavedRuns({ run: a, file: 'a.json' }, { run: b, file: 'b.json' }, options)).toThrow(/no variant in common/);
  });
});

describe('--flagged: the cases a gate found, as a --filter for the confirming rerun', () => {
  it('matches exactly the flagged ids, whatever characters they hold, and no other', () => {
    const ids = ['parse / identity reviver (arrow) [size=10kb]', 'a, b | c.*', 'stringify / JSON.stringify [size=500kb]'];
    const others = ['parse / identity reviver (arrow) [size=500kb]', 'a, b', 'xparse / identity reviver (arrow) [size=10kb]'];
    const test = caseFilter(exactFilter(ids.slice(0, 2)));
    for (const id of ids.slice(0, 2)) expect(test(id)).toBe(true);
    for (const id of [...others, ids[2]!]) expect(test(id)).toBe(false);
  });
});
