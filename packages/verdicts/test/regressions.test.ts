/**
 * The gate's rule per kind of view (regressionsOf): slower after FDR beyond
 * the limit, never with an arm without work, and in a history only the newest
 * run's point. Views are made up here with only the fields the rule reads.
 */
import { describe, expect, it } from 'vitest';
import { applyFdr, comparePaired } from '@rtbench/stats';
import { regressionsOf, type RatioComparison } from '../src/index.ts';

/** A comparison of ten pairs whose candidate costs `factor` times the baseline, read at the FDR level. */
function ratio(factor: number): RatioComparison {
  const baseline = [100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3];
  const candidate = baseline.map((b, i) => b * factor * (1 + (i % 2 ? 0.001 : -0.001)));
  return applyFdr([comparePaired(baseline, candidate)])[0]!;
}

const arm = (label: string) => ({ label });

describe('regressionsOf', () => {
  it('flags a comparison row slower beyond the limit, not one within it nor one with an arm without work', () => {
    const view = {
      kind: 'comparison' as const,
      sections: [
        {
          baseline: arm('node@24'),
          candidate: arm('node@26'),
          cases: [
            { caseId: 'a', label: 'a', comparison: ratio(1.3) },
            { caseId: 'b', label: 'b', comparison: ratio(1.05) },
            { caseId: 'c', label: 'c', comparison: ratio(1.3), withoutWork: { candidate: 'no work' } },
            { caseId: 'd', label: 'd', comparison: ratio(0.7) },
          ],
        },
      ],
    };
    expect(ratio(1.05).verdict).toBe('slower');
    expect(regressionsOf(view, 0.1).map((r) => [r.caseId, r.slower, r.baseline])).toEqual([['a', 'node@26', 'node@24']]);
    expect(regressionsOf(view, 0.01).map((r) => r.caseId)).toEqual(['a', 'b']);
  });

  it('flags a bench ratio beyond the limit against the baseline, not one shown without a verdict word', () => {
    const view = {
      kind: 'bench' as const,
      baseline: arm('node@24'),
      cases: [{ caseId: 'a', label: 'a', rows: [{ variantId: 'node@24' }, { variantId: 'bun', relative: ratio(1.4) }, { variantId: 'deno', relative: ratio(1.4), noVerdictWord: true as const }] }],
    };
    expect(regressionsOf(view, 0.1).map((r) => [r.slower, r.baseline])).toEqual([['bun', 'node@24']]);
  });

  it("flags a history's slower change point only at the newest run", () => {
    const point = (run: number, changePoint?: 'slower') => ({ run, ...(changePoint ? { change: ratio(1.4), changeFrom: run - 1, changePoint } : {}) });
    const history = (points: ReturnType<typeof point>[]) => ({ kind: 'history' as const, runs: [0, 1, 2], cases: [{ caseId: 'a', label: 'a', series: [{ variantId: 'node', points }] }] });
    expect(regressionsOf(history([point(0), point(1, 'slower'), point(2)]), 0.1)).toEqual([]);
    expect(regressionsOf(history([point(0), point(1), point(2, 'slower')]), 0.1).map((r) => [r.slower, r.baseline])).toEqual([['node in run 3', 'run 2']]);
    expect(regressionsOf(history([point(0), point(1), point(2, 'slower')]), 0.5)).toEqual([]);
  });

  it('finds none in claims or a release matrix, which have their own answers', () => {
    expect(regressionsOf({ kind: 'claims' }, 0)).toEqual([]);
    expect(regressionsOf({ kind: 'releases' }, 0)).toEqual([]);
  });
});
