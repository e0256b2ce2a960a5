/** A metric's direction decides which way ratios and verdicts go; runs without a metric read as before. */
import { describe, expect, it } from 'vitest';
import { INSTRUCTIONS_PER_OP, metricOf, parseRun, TIME_PER_OP, type Metric, type RunRecord } from '@rtbench/core/schema';
import { benchView, comparisonCells, pairedComparisonView, reporterFor } from '@rtbench/report';
import { finishRun } from '../packages/saved-runs/src/record.ts';
import { asChartResult, pageData } from '../packages/report/src/html/page-data.ts';
import { syntheticRun } from './compare-synthetic.ts';

const REQ_PER_S: Metric = { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' };

/** node@24's values are 1.5x node@26's in every round: slower if they are times, faster if they are requests/s. */
function run(metric?: Metric): RunRecord {
  const r = syntheticRun({ mode: 'compare', cases: [{ id: 'hello', ns: 10_000 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.5 }], rounds: 8, sigma: 0.01 });
  if (metric) r.cases = r.cases.map((c) => ({ ...c, metric }));
  finishRun(r, false);
  return r;
}

const candidateRow = (r: RunRecord) => benchView(r).cases[0]!.rows.find((x) => x.variantId === 'node@24')!;

describe('metric direction', () => {
  it('a run without a metric is time per op, and still parses', () => {
    const r = run();
    expect(metricOf(r, 'hello')).toBe(TIME_PER_OP);
    expect(() => parseRun(JSON.parse(JSON.stringify(r)), 'old.json')).not.toThrow();
  });

  it('lower is better: the larger values are slower', () => {
    const row = candidateRow(run());
    expect(row.relative!.verdict).toBe('slower');
    expect(row.relative!.ratio).toBeCloseTo(1.5, 1);
    expect(pairedComparisonView(run()).sections[0]!.cases[0]!.comparison!.verdict).toBe('slower');
  });

  it('higher is better: larger requests/s are faster in the table and in the comparison, shown in req/s', () => {
    const r = run(REQ_PER_S);
    expect(parseRun(JSON.parse(JSON.stringify(r)), 'new.json').cases[0]!.metric).toEqual(REQ_PER_S);
    const row = candidateRow(r);
    expect(row.relative!.verdict).toBe('faster');
    // The ratio is of costs (time per request): 1 / 1.5.
    expect(row.relative!.ratio).toBeCloseTo(1 / 1.5, 1);
    const table = reporterFor('terminal')!.render(benchView(r), { color: false });
    expect(table).toMatch(/req\/s/);
    expect(table).toMatch(/1\.\d\d× faster/);
    expect(table).toContain('median ');
    expect(table).not.toContain('median/op');

    const view = pairedComparisonView(r);
    const cmp = view.sections[0]!.cases[0]!;
    expect(cmp.comparison!.verdict).toBe('faster');
    const cells = comparisonCells(cmp, view);
    // Shown as the change in throughput, not in cost.
    expect(cells.detail).toMatch(/^\+\d+(\.\d)?% req\/s$/);
    expect(Number(/\d+(\.\d)?/.exec(cells.detail)![0])).toBeCloseTo(50, -1);
    expect(cells.baseline).toMatch(/req\/s$/);
  });

  it('the HTML page writes req/s in the cells and draws time per request in its charts', () => {
    const r = run(REQ_PER_S);
    const result = r.results[0]!;
    const time = asChartResult(result, REQ_PER_S);
    expect(time.stats!.median).toBeCloseTo(1e9 / result.stats!.median, 3);
    // A higher throughput is a shorter time: the quartiles swap ends.
    expect(time.stats!.p25).toBeCloseTo(1e9 / result.stats!.p75, 3);
    expect(time.rounds[0]!.samples[0]).toBeCloseTo(1e9 / result.rounds[0]!.samples[0]!, 3);
    const cell = pageData(benchView(r)).cases[0]!.cells[0]!;
    expect(cell.medianText).toMatch(/req\/s$/);
    // The page recomputes the statistics from the (time) samples: the median of the times, within rounding of 1e9 / the median rate.
    expect(cell.median! / time.stats!.median).toBeCloseTo(1, 4);
  });

  it('the HTML page draws instruction counts as counted, not as a rate turned into time', () => {
    const r = run(INSTRUCTIONS_PER_OP);
    const result = r.results.find((x) => x.variantId === 'node@24')!;
    expect(asChartResult(result, INSTRUCTIONS_PER_OP)).toBe(result);
    for (const page of [pageData(benchView(r)), pageData(pairedComparisonView(r))]) {
      const c = page.cases[0]!;
      expect(c.chartUnit).toBe('instructions');
      const cell = c.cells.find((x) => x.variant === page.variants.find((v) => v.label.startsWith('node@24'))!.key)!;
      expect(cell.median! / result.stats!.median).toBeCloseTo(1, 4);
      expect(cell.histogram[0]!.x1).toBeGreaterThan(1000);
    }
    expect(pageData(benchView(run())).cases[0]!.chartUnit).toBe('ns');
    expect(pageData(benchView(run(REQ_PER_S))).cases[0]!.chartUnit).toBe('ns');
  });
});
