import { describe, expect, it } from 'vitest';
import type { CaseResult, RoundRecord } from '@rtbench/core/schema';
import { memoryRowCells, memoryRows } from '../src/memory.ts';
import { terminalMetrics, markdownMetrics } from '../src/reporters/metrics.ts';
import { metricsSection } from '../src/views/metrics.ts';
import type { View } from '../src/views/types.ts';

const MiB = 1024 * 1024;

function round(extra: Partial<RoundRecord> = {}): RoundRecord {
  return {
    round: 0,
    order: 0,
    samples: [1000, 1000],
    iterationsPerSample: 10,
    warmupIterations: 0,
    async: false,
    clock: { name: 'c', resolutionNs: 1, readCostNs: 1, edgeAligned: false },
    digest: { hash: '0000000000000000', summary: '' },
    wallMs: 1,
    ...extra,
  };
}

function result(variantId: string, extra: Partial<CaseResult> = {}, rounds = [round()]): CaseResult {
  return { caseId: 'c', variantId, status: 'ok', rounds, failures: [], ...extra };
}

const read = { rounds: 2, peakBytes: 100 * MiB, peakAboveOpenBytes: 64 * MiB, growthPerCallBytes: 4096, leak: true };

describe('the memory view', () => {
  it('shows the readings, and the leak mark with the growth per call', () => {
    const [row] = memoryRows({ results: [result('node', { memory: read }, [round({ metrics: { source: 'v8', heap: { heapUsedBytes: 5 * MiB, externalBytes: 64 * MiB } } })])] });
    expect(memoryRowCells(row!)).toEqual(['100 MB', '64.0 MB', '5.00 MB', '64.0 MB', '+4.00 KB', 'LEAK +4.00 KB/call']);
    expect(row!.reasons).toEqual([]);
  });

  it('shows what a runtime does not tell as n/a with its reason, never 0', () => {
    const [row] = memoryRows({ results: [result('workerd', { memory: { ...read, leak: false } }, [round({ metrics: { source: 'trace', heap: { heapUsedBytes: MiB } } })])] });
    const cells = memoryRowCells(row!);
    expect(cells[3]).toBe('n/a');
    expect(cells[5]).toBe('no');
    expect(row!.reasons.join(' ')).toMatch(/outside the heap: not reported/);
    const [bun] = memoryRows({ results: [result('bun', { memory: read }, [round({ metrics: { source: 'jsc', heap: { heapUsedBytes: MiB }, unavailable: { external: 'JSC says no' } } })])] });
    expect(bun!.reasons).toContain('outside the heap: JSC says no');
  });

  it('renders a run saved before memory was read: no table, a line that says so', () => {
    const run = { results: [result('node')] };
    const [row] = memoryRows(run);
    expect(memoryRowCells(row!).slice(0, 2)).toEqual(['n/a', 'n/a']);
    const view = { kind: 'bench', run } as unknown as View;
    const section = metricsSection(view, 'memory')!;
    expect(terminalMetrics(section)).toMatch(/holds no resident-memory readings/);
    expect(markdownMetrics(section)).toMatch(/holds no resident-memory readings/);
    expect(terminalMetrics(metricsSection({ kind: 'bench', run: { results: [result('node', { memory: read })] } } as unknown as View, 'memory')!)).toMatch(/LEAK \+4\.00 KB\/call/);
  });
});
