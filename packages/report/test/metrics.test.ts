import { describe, expect, it } from 'vitest';
import type { EngineMetrics } from '@rtbench/core/engine-metrics';
import type { RoundRecord } from '@rtbench/core/schema';
import { formatBytes, metricsCells, metricsChange, summarizeMetrics } from '../src/metrics.ts';
import { markdownMetrics } from '../src/reporters/metrics.ts';
import { liveMarkdown } from '../../../test/helpers/markdown-inert.ts';

function round(samplesNs: number[], iterationsPerSample: number, metrics?: EngineMetrics): RoundRecord {
  return {
    round: 0,
    order: 0,
    samples: samplesNs,
    iterationsPerSample,
    warmupIterations: 0,
    async: false,
    clock: { name: 'c', resolutionNs: 1, readCostNs: 1, edgeAligned: false },
    digest: { hash: '0000000000000000', summary: '' },
    ...(metrics ? { metrics } : {}),
    wallMs: 1,
  };
}

const v8 = (minor: number, major: number, gcMs: number, bytes: number, young = 1_048_576): EngineMetrics => ({
  source: 'node:v8 GCProfiler',
  gc: { minor: { count: minor, timeMs: gcMs }, major: { count: major, timeMs: 0 }, incremental: { count: 0, timeMs: 0 } },
  allocation: { bytes, method: 'total_allocated_bytes', estimate: false },
  heap: { youngSizeBytes: young, oldUsedBytes: 3 * 1024 * 1024 },
});

describe('GC view numbers', () => {
  it('sums rounds: GCs per 1k ops, GC share of sampling time, bytes per op', () => {
    // Two rounds of 10 samples × 100 ops at 1 µs: 2,000 ops, 2 ms of sampling.
    const s = summarizeMetrics({ rounds: [round(Array(10).fill(1000), 100, v8(30, 1, 0.5, 1_000_000)), round(Array(10).fill(1000), 100, v8(60, 1, 0.5, 3_000_000))] });
    expect(s.per1k).toEqual({ minor: 45, major: 1, incremental: 0 });
    expect(s.gcShare).toBeCloseTo(0.5);
    expect(s.bytesPerOp).toBe(2000);
    expect(s.allocationEstimate).toBe(false);
    expect(metricsCells(s)).toMatchObject({ minor: '45', major: '1.0', gcShare: '50%', bytesPerOp: '1.95 KB', young: '1.00 MB', old: '3.00 MB', note: '' });
  });

  it('prints n/a with the reason, never 0, when a runtime could not say', () => {
    const s = summarizeMetrics({ rounds: [round([1000], 10, { source: 'x', unavailable: { gc: 'no GC counter here' } })] });
    const cells = metricsCells(s);
    expect([cells.minor, cells.major, cells.gcShare, cells.bytesPerOp]).toEqual(['n/a', 'n/a', 'n/a', 'n/a']);
    expect(cells.note).toContain('gc: no GC counter here');
    const old = metricsCells(summarizeMetrics({ rounds: [round([1000], 10)] }));
    expect(old.minor).toBe('n/a');
    expect(old.note).toMatch(/no metrics recorded/);
  });

  it('puts the change in GC counts and allocation next to the change in time', () => {
    const base = summarizeMetrics({ rounds: [round(Array(10).fill(1000), 100, v8(45, 0, 0.2, 1_000_000))] });
    const candidate = summarizeMetrics({ rounds: [round(Array(10).fill(1000), 100, v8(11, 0, 0.05, 1_000_000))] });
    expect(metricsChange(0.62, base, candidate, 'scavenges')).toBe('−38% time, scavenges 45 → 11 per 1k ops, major 0, GC time 20% → 5.0%, allocated 1000 B per op');
    expect(formatBytes(512)).toBe('512 B');
  });
});

describe('GC change lines under a comparison', () => {
  it('prints one line per case with the time change, and why a side reads n/a', async () => {
    const { metricsChanges } = await import('../src/views/metrics.ts');
    const { terminalMetrics } = await import('../src/reporters/metrics.ts');
    const arm = (id: string) => ({ id, label: id, runtime: 'node', flags: [], env: {} });
    const report = {
      kind: 'paired',
      suite: 's',
      threshold: 0.01,
      confidence: 0.95,
      fdrAlpha: 0.05,
      arms: [arm('a'), arm('b')],
      sections: [{ baseline: arm('a'), candidate: arm('b'), cases: [{ caseId: 'c', comparison: { ratio: 0.62 } }] }],
      runs: [],
      notes: [],
      method: '',
    } as unknown as Parameters<typeof metricsChanges>[0];
    const rounds = { a: [round(Array(10).fill(1000), 100, v8(45, 0, 0.2, 1_000_000))], b: [round([1000], 10)] };
    const text = terminalMetrics(metricsChanges(report, (armId) => ({ rounds: rounds[armId as 'a' | 'b'] })), { color: false, columns: 100 });
    expect(text).toMatch(/^  c\n {6}−38% time, scavenges 45 → n\/a per 1k ops/m);
    // Within 100 columns: the case on its own line, the change wrapped under it.
    for (const l of text.split('\n')) expect(l.length).toBeLessThanOrEqual(100);
    expect(text).toContain('n/a — b: gc, allocation, heap: no metrics recorded');
  });
});

describe('the metrics sections in markdown', () => {
  // A name that would split a row, break a line, and render an image, HTML and a mention if written as it is.
  const NAME = 'parse | huge\n![img](https://e.example/i.png) <b>x</b> @someone';
  /** The cells of a table row: split on pipes no backslash escapes. */
  const cellsOf = (line: string): number => line.split(/(?<!\\)\|/).length;

  it('writes a case name inert and on its row in the GC table, the change lines and the memory table', () => {
    const summary = summarizeMetrics({ rounds: [round(Array(10).fill(1000), 100, v8(30, 1, 0.5, 1_000_000))] });
    const outputs = [
      markdownMetrics({ kind: 'metrics-table', rows: [{ caseId: NAME, variantId: 'node', summary }], notes: [`node: ${NAME}`] }),
      markdownMetrics({ kind: 'metrics-changes', sections: [{ title: `node vs ${NAME}`, cases: [{ caseId: NAME, line: '−38% time' }] }], reasons: [] }),
      markdownMetrics({ kind: 'memory-table', rows: [{ caseId: NAME, variantId: 'node', heapUsedBytes: 1024, reasons: [] }], notes: [] }),
    ];
    for (const md of outputs) {
      expect(liveMarkdown(md, 'huge')).toEqual([]);
      const rows = md.split('\n').filter((l) => l.startsWith('|'));
      expect(rows.length).toBeGreaterThanOrEqual(3);
      // Every row has the head's cells: the pipe in the name splits none, and the line break starts no line of its own.
      for (const row of rows) expect(cellsOf(row)).toBe(cellsOf(rows[0]!));
      expect(md).not.toMatch(/^!\[img\]/m);
    }
  });
});
