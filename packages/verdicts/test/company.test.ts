/** bench --self-check's decision (company.ts): a cell against its case alone and a long loop. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { ALONE_TOLERANCE, companyRows, LOOP_TOLERANCE, loopFigure, type MachineReading } from '../src/index.ts';

interface Cell {
  caseId: string;
  variantId: string;
  median: number;
  ci?: [number, number];
  samples?: number[][];
}

/** One reading of the machine a second, other work at `others` cores throughout. */
const machine = (others: number): MachineReading[] => Array.from({ length: 20 }, (_, i) => ({ atMs: (i + 1) * 1000, load1: 1, busy: 1 + others, steal: 0, others }));

/** A run holding only what the decision reads: variants, the machine's readings, and per cell its figure, interval and rounds' samples. */
function run(cells: readonly Cell[], others = 0.05): RunRecord {
  return {
    host: { cores: 2, machine: { points: machine(others) } },
    variants: [...new Set(cells.map((c) => c.variantId))].map((id) => ({ id })),
    results: cells.map((c) => ({
      caseId: c.caseId,
      variantId: c.variantId,
      stats: { median: c.median, ...(c.ci ? { ci: c.ci } : {}) },
      rounds: (c.samples ?? []).map((samples) => ({ samples })),
    })),
  } as unknown as RunRecord;
}

const tight = (x: number): [number, number] => [x * 0.97, x * 1.03];

describe('companyRows', () => {
  it('marks a cell more than the tolerance from its case alone whose interval lies apart, and no other', () => {
    const table = run([
      { caseId: 'a', variantId: 'node', median: 150, ci: tight(150) },
      { caseId: 'a', variantId: 'bun', median: 105, ci: tight(105) },
      { caseId: 'b', variantId: 'node', median: 150, ci: [100, 200] },
    ]);
    const alone = [run([{ caseId: 'a', variantId: 'node', median: 100, ci: tight(100) }, { caseId: 'b', variantId: 'node', median: 100, ci: [90, 110] }]), run([{ caseId: 'a', variantId: 'bun', median: 100, ci: tight(100) }])];
    const rows = companyRows(table, alone, undefined);
    expect(rows.map((r) => [r.caseId, r.variantId, r.aloneNs, r.company])).toEqual([
      ['a', 'node', 100, true],
      // Within the tolerance: not said, whatever the intervals.
      ['a', 'bun', 100, false],
      // 1.5× alone, but the intervals overlap: the noise allows it.
      ['b', 'node', 100, false],
    ]);
    expect(ALONE_TOLERANCE).toBe(0.1);
  });

  it("holds the table against a long loop's time over calls, the median over its processes", () => {
    // Three loop processes: means 100, 130 and 400 per call; their median is 130.
    const loop = run([{ caseId: 'a', variantId: 'node', median: 0, samples: [[90, 110], [130], [400, 400]] }]);
    expect(loopFigure(loop.results[0]!)).toBe(130);
    const rows = companyRows(run([{ caseId: 'a', variantId: 'node', median: 160, ci: tight(160) }]), [], loop);
    expect(rows[0]).toMatchObject({ loopNs: 130, apartFromLoop: 160 / 130 - 1 > LOOP_TOLERANCE, company: false });
    expect(rows[0]!.apartFromLoop).toBe(true);
    const near = companyRows(run([{ caseId: 'a', variantId: 'node', median: 150, ci: tight(150) }]), [], loop);
    expect(near[0]!.apartFromLoop).toBe(false);
  });

  it('leaves out a figure a run does not have and a table cell without one, and says nothing of what it cannot compare', () => {
    const table = run([{ caseId: 'a', variantId: 'deno', median: 500, ci: tight(500) }]);
    (table.results as unknown as { stats?: unknown }[]).push({ caseId: 'b', variantId: 'deno', rounds: [] } as never);
    const rows = companyRows(table, [run([{ caseId: 'a', variantId: 'node', median: 1 }])], undefined);
    expect(rows).toEqual([{ caseId: 'a', variantId: 'deno', tableNs: 500, tableCi: tight(500), company: false, apartFromLoop: false }]);
  });

  it('does not say a cell carries its company where the machine moved between the table and its case alone, and says so', () => {
    const table = run([{ caseId: 'a', variantId: 'node', median: 150, ci: tight(150) }], 0.9);
    const rows = companyRows(table, [run([{ caseId: 'a', variantId: 'node', median: 100, ci: tight(100) }], 0.05)], undefined);
    expect(rows[0]).toMatchObject({ company: false, machineMoved: 'different machine states: other work used 0.90 cores during the table, 0.05 during node alone' });
  });
});
