/** GC counters become per-1k-iteration figures over all of a case's rounds. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { gcMarkdown, gcRows } from '../gc-table.ts';

const stats = { n: 4, rounds: 2, median: 1000, mean: 2000, min: 900, max: 5000, p25: 950, p75: 1100, ci: [950, 1050] as [number, number], ciHalfWidthRel: 0.05, roundMedians: [1000, 1000], outliers: 0, ciMethod: 'test' };
const round = (gc: { count: number; timeMs?: number } | undefined) => ({
  round: 0, order: 0, samples: [1000, 1000], iterationsPerSample: 100, warmupIterations: 300, async: false, wallMs: 10,
  clock: { name: 'test', resolutionNs: 1, readCostNs: 1, edgeAligned: false },
  digest: { hash: '0000000000000000', summary: 'number 1' },
  ...(gc ? { gc: { source: 'test', ...gc } } : {}),
});

function run(results: RunRecord['results']): RunRecord {
  return { results } as unknown as RunRecord;
}

describe('gc-table', () => {
  it('divides GC counts and time by warmup + sampled iterations, summed over rounds', () => {
    // 2 rounds × (300 warmup + 2 × 100 sampled) = 1000 iterations, 50 GCs, 1 ms of GC.
    const [row] = gcRows(run([{ caseId: 'a', variantId: 'node', status: 'ok', failures: [], stats, rounds: [round({ count: 20, timeMs: 0.4 }), round({ count: 30, timeMs: 0.6 })] }]));
    expect(row!.gcPer1k).toBeCloseTo(50);
    expect(row!.gcMsPer1k).toBeCloseTo(1);
    // 1 ms of GC over 1000 iterations × 2 µs mean = 2 ms.
    expect(row!.gcShare).toBeCloseTo(0.5);
  });

  it('says n/a when a runtime gave no GC counters', () => {
    const rows = gcRows(run([{ caseId: 'a', variantId: 'bun', status: 'ok', failures: [], stats, rounds: [round(undefined)] }]));
    expect(rows[0]!.gcPer1k).toBeUndefined();
    expect(gcMarkdown(rows)).toContain('| n/a | n/a | n/a |');
  });
});
