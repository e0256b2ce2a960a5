/**
 * The collector's share in the tables: a run whose samples were spanned shows
 * a "gc" column (the collector's share) (terminal, markdown, csv-stats), "none" where the span
 * saw no collection; a cell whose samples stayed bimodal by collection at
 * their cap is marked `g`, named once in the key, and its figure is its
 * processes' mean; a run saved before spans shows no column and no mark.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { finishRun } from '../../saved-runs/src/record.ts';
import { benchView, reporterFor } from '../src/index.ts';

/** Two cases on two runtimes; `alloc` spanned with a share of the cost between collections, `pure` spanned with none; node@24's alloc capped and bimodal. */
function run(spans: boolean): RunRecord {
  const r = syntheticRun({ cases: [{ id: 'alloc', ns: 1000 }, { id: 'pure', ns: 50 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.2 }], rounds: 6, sigma: 0.01 });
  if (spans) {
    for (const result of r.results) {
      for (const round of result.rounds) {
        if (result.caseId === 'pure') round.span = { quietCallNs: round.samples[0]! * 1.01, grownBy: 1 };
        else if (result.variantId === 'node@26') round.span = { quietCallNs: round.samples[0]! * 0.4, grownBy: 4 };
        else {
          // Every third sample holds a collection that doubles it.
          round.samples = round.samples.map((x, i) => (i % 3 === 0 ? 2 * x : x));
          round.span = { quietCallNs: Math.min(...round.samples) * 0.9, grownBy: 8, capped: true };
        }
      }
    }
  }
  finishRun(r, false);
  return r;
}

const render = (format: string, r: RunRecord): string => reporterFor(format)!.render(benchView(r), { color: false, columns: 180 });
const line = (out: string, pattern: RegExp): string => out.split('\n').find((l) => pattern.test(l)) ?? '';

describe("the collector's share in a table", () => {
  it('is a column with each cell’s share, none where the span saw no collection', () => {
    const out = render('terminal', run(true));
    expect(line(out, /median\/op/)).toMatch(/\sgc\s/);
    expect(line(out, /^alloc\s+node@26/)).toMatch(/\s60%\s/);
    expect(line(out, /^pure\s+node@26/)).toMatch(/\snone\s/);
    const csv = reporterFor('csv-stats')!.render(benchView(run(true)), {});
    expect(csv.split('\n')[0]).toMatch(/,gc_share/);
    expect(render('markdown', run(true))).toMatch(/\| gc \|/);
  });

  it('marks a cell bimodal by collection with g, reads it by its means and names the mark once', () => {
    const r = run(true);
    const view = benchView(r);
    const alloc = view.cases.find((c) => c.caseId === 'alloc')!;
    const capped = alloc.rows.find((row) => row.variantId === 'node@24')!;
    expect(capped.byCollection).toMatch(/bimodal by collection/);
    expect(capped.skew).toBeUndefined();
    expect(capped.stats!.estimator).toBe('median-of-means');
    expect(alloc.rows.find((row) => row.variantId === 'node@26')!.byCollection).toBeUndefined();
    const out = render('terminal', r);
    expect(line(out, /^\s+node@24\s+1\.\d+ µs/)).toMatch(/\sg$/);
    expect(out).toMatch(/marks .*g/);
  });

  it('is absent from a run saved before spans, which reads as it did', () => {
    const out = render('terminal', run(false));
    expect(line(out, /median\/op/)).not.toMatch(/\sgc\s/);
    const view = benchView(run(false));
    expect(view.cases.flatMap((c) => c.rows.map((row) => row.stats?.estimator))).toEqual(['median-of-medians', 'median-of-medians', 'median-of-medians', 'median-of-medians']);
    expect(reporterFor('csv-stats')!.render(view, {}).split('\n')[0]).not.toMatch(/gc_share/);
  });
});
