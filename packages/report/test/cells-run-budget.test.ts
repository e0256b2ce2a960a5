/** The legend's count of rows the budget left undecided (cells/run.ts): a case whose variants did other work has no verdict, so none of its rows is counted among them. */
import { describe, expect, it } from 'vitest';
import { comparePaired } from '@rtbench/stats';
import type { RatioComparison } from '@rtbench/verdicts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { benchView } from '../src/index.ts';
import { benchLegend } from '../src/cells/run.ts';
import type { BenchRow, BenchView } from '../src/views/types.ts';

const undecided: RatioComparison = { ...comparePaired([1, 1, 1, 1, 1, 1], [0.1, -0.08, 0.05, -0.12, 0.09, -0.04].map(Math.exp)), qValue: 0.01 };
const ranOut = { target: 0.02, reached: 0.05, rounds: 30, stoppedBy: 'max-rounds' } as const;
const stoppedUndecided = (row: BenchRow): BenchRow => ({ ...row, precision: ranOut, result: { ...row.result, precision: ranOut }, relative: undecided });

function twoCases(): BenchView {
  const view = benchView(syntheticRun({ cases: [{ id: 'c0', ns: 1000 }, { id: 'c1', ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'node@24', factor: 1.2 }], rounds: 6 }));
  view.run.options = { ...view.run.options, adaptive: { target: 0.02, minRounds: 6, maxRounds: 30, budgetMs: 60_000 } };
  for (const c of view.cases) c.rows[1] = stoppedUndecided(c.rows[1]!);
  return view;
}

describe('the budget line of the legend', () => {
  it('counts an undecided row the budget ran out on, but not one whose case did other work on each variant', () => {
    const view = twoCases();
    expect(benchLegend(view)[2]).toMatch(/ran out first on 2 rows; 2 of them undecided, marked \*/);
    view.cases[1]!.digestMismatch = { node: 'aaaa', 'node@24': 'bbbb' };
    expect(benchLegend(view)[2]).toMatch(/ran out first on 2 rows; 1 of them undecided, marked \*/);
  });
});
