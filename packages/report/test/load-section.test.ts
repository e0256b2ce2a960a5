/**
 * A run of HTTP load cases (one case per metric of each load measurement)
 * gets a load section: each measurement × variant on one line with its
 * metrics' medians side by side and its error rate, in the terminal table,
 * markdown, JSON and the raw-sample CSV.
 */
import { describe, expect, it } from 'vitest';
import { parseRun, type CaseResult, type RunRecord } from '@rtbench/core/schema';
import { benchView, reporterFor } from '../src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

const CLOCK = { name: 'host performance.now()', resolutionNs: 1_000, readCostNs: 0, edgeAligned: false };
const METRICS = [
  { label: 'req/s', metric: { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' } },
  { label: 'p99', metric: { name: 'latency p99', unit: 'ms', direction: 'lower-is-better' } },
  { label: 'cpu/req js', metric: { name: 'server CPU per request (JavaScript thread)', unit: 'ms', direction: 'lower-is-better' } },
] as const;

/** Two load measurements (c1, c100) on node; at c100 one round in 100 requests answered 500. */
function loadRun(): RunRecord {
  const run = syntheticRun({ suite: 'http', cases: [{ id: 'x', ns: 1 }], arms: [{ id: 'node', factor: 1 }], rounds: 3 });
  const loads = [
    { name: 'c1', connections: 1, values: [5_000, 0.4, 0.05], errorStatus: 0 },
    { name: 'c100', connections: 100, values: [9_000, 30, 0.05], errorStatus: 90 },
  ];
  run.cases = [];
  run.results = [];
  for (const load of loads) {
    METRICS.forEach(({ label, metric }, i) => {
      const id = `hello [load=${load.name}, metric=${label}]`;
      run.cases.push({ id, name: 'hello', params: { load: load.name, metric: label }, metric });
      const rounds = [0, 1, 2].map(
        (round): CaseResult['rounds'][number] => ({
          round,
          order: 0,
          samples: [load.values[i]! * (1 + round / 100)],
          iterationsPerSample: 1,
          warmupIterations: 0,
          async: false,
          clock: CLOCK,
          digest: { hash: 'feedfacefeedface', summary: 'string(11)' },
          wallMs: 3_000,
          load: { generator: 'wrk', generatorBusy: 0.5, connections: load.connections, pipelining: 1, outcomes: { responses: 9_000, errorStatus: load.errorStatus, socketErrors: 0, timeouts: 0 } },
        }),
      );
      run.results.push({ caseId: id, variantId: 'node', status: 'ok', rounds, failures: [] });
    });
  }
  return parseRun(JSON.parse(JSON.stringify(run)), 'synthetic load');
}

describe('the load section', () => {
  const view = benchView(loadRun());

  it('puts each measurement × variant on one line: the metrics side by side, the errors summed over rounds', () => {
    const section = view.load!;
    expect(section.columns.map((c) => c.label)).toEqual(['req/s', 'p99', 'cpu/req js']);
    expect(section.rows.map((r) => [r.measurement, r.connections])).toEqual([
      ['hello [load=c1]', 1],
      ['hello [load=c100]', 100],
    ]);
    expect(section.rows[1]!.medians['p99']).toBeCloseTo(30.3);
    expect(section.rows[1]!.outcomes).toEqual({ responses: 27_000, errorStatus: 270, socketErrors: 0, timeouts: 0 });
  });

  it('terminal, markdown and JSON show the line with its error rate; the raw-sample CSV counts each round\'s errors', () => {
    for (const format of ['terminal', 'markdown'] as const) {
      const text = String(reporterFor(format)!.render(view, { color: false, columns: 120 }));
      expect(text).toContain('HTTP load (medians over rounds)');
      const line = text.split('\n').findLast((l) => l.includes('30.3 ms'))!;
      expect(line).toContain('1.00%');
      expect(text).toContain('of 27000 requests 270 error statuses');
    }
    expect(JSON.parse(String(reporterFor('json')!.render(view, {}))).load.rows).toHaveLength(2);
    const csv = String(reporterFor('csv')!.render(view, {})).trim().split('\n');
    // The two last columns (a case id holds commas, so count from the end).
    expect(csv[0]!.split(',').slice(-2)).toEqual(['responses', 'errors']);
    expect(csv.at(-1)!.split(',').slice(-2)).toEqual(['9000', '90']);
  });
});
