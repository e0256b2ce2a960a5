/**
 * A paired comparison of request cases gives, under each case's ratio, its
 * p50 and p99 verdicts (verdicts' request-quantiles.ts) through the view's
 * one false-discovery step, outside the geomean; the terminal and markdown
 * tables print them with the distribution section, and each word agrees
 * with the interval printed beside it.
 */
import { describe, expect, it } from 'vitest';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { pairedComparisonView, reporterFor } from '../src/index.ts';

const run = syntheticRequestRun({ arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1, tailFactor: 1.5 }], rounds: 10 });
const view = pairedComparisonView(run);
const rows = view.sections[0]!.cases;

describe('quantile verdicts in a comparison of request cases', () => {
  it('the case, then its p50 and p99 rows: the heavier tail is slower at p99 only', () => {
    expect(rows.map((r) => r.quantile ?? 'case')).toEqual(['case', 'p50', 'p99']);
    expect(rows[2]!.label).toBe(`${rows[0]!.label} · p99`);
    expect(rows[2]!.comparison!.verdict).toBe('slower');
    expect(['faster', 'slower']).not.toContain(rows[1]!.comparison!.verdict);
    // One FDR family: every row carries a q-value from it.
    expect(rows.every((r) => typeof r.comparison!.qValue === 'number')).toBe(true);
    expect(view.sections[0]!.geomean).toBeUndefined();
    expect(view.cpuPerRequest!.rows.map((r) => r.variantId)).toEqual(['node@26', 'node@24']);
    expect(view.notes.some((n) => n.includes('p50, p99: per process the quantile'))).toBe(true);
  });

  it('terminal and markdown print the rows and the distribution, each word agreeing with its interval', () => {
    for (const format of ['terminal', 'markdown'] as const) {
      const text = String(reporterFor(format)!.render(view, { color: false, columns: 160 }));
      expect(text).toContain('· p99');
      expect(text).toContain('CPU per request (ms)');
      const p99Line = text.split('\n').find((l) => l.includes('· p99'))!;
      const [, lo, hi] = /(\d+\.\d+)–(\d+\.\d+)/.exec(p99Line)!;
      expect(p99Line).toContain('slower');
      expect(Number(lo)).toBeGreaterThan(1);
      expect(Number(hi)).toBeGreaterThan(Number(lo));
    }
  });
});
