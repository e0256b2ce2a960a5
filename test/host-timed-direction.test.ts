/** A metric's direction decides who is fastest and which way a verdict goes; runs without a metric read as before. */
import { describe, expect, it } from 'vitest';
import { metricOf, parseRun, TIME_PER_OP, type Metric, type RunRecord } from '@rtbench/core/schema';
import { benchRows, comparisonCells, renderBenchTable } from '@rtbench/report';
import { analyzePairedRun } from '../packages/cli/src/compare/analyze.ts';
import { finishRun } from '../packages/cli/src/run.ts';
import { syntheticRun } from './compare-synthetic.ts';

const REQ_PER_S: Metric = { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' };

/** node@24's values are 1.5x node@26's in every round: slower if they are times, faster if they are requests/s. */
function run(metric?: Metric): RunRecord {
  const r = syntheticRun({ mode: 'compare', cases: [{ id: 'hello', ns: 10_000 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.5 }], rounds: 8, sigma: 0.01 });
  if (metric) r.cases = r.cases.map((c) => ({ ...c, metric }));
  finishRun(r, false);
  return r;
}

describe('metric direction', () => {
  it('a run without a metric is time per op, and still parses', () => {
    const r = run();
    expect(metricOf(r, 'hello')).toBe(TIME_PER_OP);
    expect(() => parseRun(JSON.parse(JSON.stringify(r)), 'old.json')).not.toThrow();
  });

  it('lower is better: the larger values are slower', () => {
    const rows = benchRows(run());
    expect(rows.find((x) => x.variantId === 'node@26')!.relative).toBe(1);
    expect(rows.find((x) => x.variantId === 'node@24')!.relative).toBeCloseTo(1.5, 1);
    const report = analyzePairedRun(run(), { threshold: 0.01, confidence: 0.95 });
    expect(report.sections[0]!.cases[0]!.comparison!.verdict).toBe('slower');
  });

  it('higher is better: the larger requests/s are fastest, the verdict says faster, and the table shows req/s', () => {
    const r = run(REQ_PER_S);
    expect(parseRun(JSON.parse(JSON.stringify(r)), 'new.json').cases[0]!.metric).toEqual(REQ_PER_S);
    const rows = benchRows(r);
    const fast = rows.find((x) => x.variantId === 'node@24')!;
    const slow = rows.find((x) => x.variantId === 'node@26')!;
    expect(fast.relative).toBe(1);
    expect(slow.relative).toBeCloseTo(1.5, 1);
    expect(slow.distinct).toBe(true);
    const table = renderBenchTable(r);
    expect(table).toMatch(/req\/s/);
    expect(table).toMatch(/1\.\d\d× slower/);

    const report = analyzePairedRun(r, { threshold: 0.01, confidence: 0.95 });
    const row = report.sections[0]!.cases[0]!;
    expect(row.comparison!.verdict).toBe('faster');
    // The ratio is of costs (time per request): 1 / 1.5.
    expect(row.comparison!.ratio).toBeCloseTo(1 / 1.5, 1);
    const cells = comparisonCells(row, report);
    // Shown as the change in throughput, not in cost.
    expect(cells.detail).toMatch(/^\+\d+(\.\d)?% req\/s$/);
    expect(Number(/\d+(\.\d)?/.exec(cells.detail)![0])).toBeCloseTo(50, -1);
    expect(cells.baseline).toMatch(/req\/s$/);
  });
});
