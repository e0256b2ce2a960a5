/** bench --self-check's decision (company.ts): a cell against its case alone and a long loop. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { createRandom, median } from '@rtbench/stats';
import { ALONE_TOLERANCE, companyRows, LOOP_TOLERANCE, loopFigure, type MachineReading } from '../src/index.ts';

interface Cell {
  caseId: string;
  variantId: string;
  median: number;
  /** Each process's samples (a round of its own each). */
  samples?: number[][];
  /** Each process's figure as the run recorded it with its headline (absent: read from the samples). */
  processMedians?: number[];
}

/** One reading of the machine a second, other work at `others` cores throughout. */
const machine = (others: number): MachineReading[] => Array.from({ length: 20 }, (_, i) => ({ atMs: (i + 1) * 1000, load1: 1, busy: 1 + others, steal: 0, others }));

/** A run holding only what the decision reads: variants, the machine's readings, and per cell its headline and its processes' samples. */
function run(cells: readonly Cell[], others = 0.05): RunRecord {
  return {
    host: { cores: 2, machine: { points: machine(others) } },
    variants: [...new Set(cells.map((c) => c.variantId))].map((id) => ({ id })),
    results: cells.map((c) => ({
      caseId: c.caseId,
      variantId: c.variantId,
      stats: { median: c.median, ...(c.processMedians ? { processMedians: c.processMedians } : {}) },
      rounds: (c.samples ?? []).map((samples, round) => ({ round, samples })),
    })),
  } as unknown as RunRecord;
}

/** Processes whose figures are `figure` times these spreads: a cell's runs with the same process-to-process spread. */
const SPREAD = [0.94, 0.97, 1, 1.03, 1.06, 0.99];
const processes = (figure: number, spread: readonly number[] = SPREAD): number[][] => spread.map((f) => [figure * f, figure * f]);
/** A cell with its processes: headline `figure`. */
const cell = (caseId: string, variantId: string, figure: number, spread?: readonly number[]): Cell => ({ caseId, variantId, median: figure, samples: processes(figure, spread) });

/** A standard normal draw from a seeded uniform (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A cell's run of `n` processes whose log figures are normal around ln(figure) with sd `sd`, recorded with its headline. */
function drawn(random: () => number, figure: number, n: number, sd: number): Cell {
  const spread = Array.from({ length: n }, () => Math.exp(sd * normal(random)));
  const figures = spread.map((f) => figure * f);
  return { caseId: 'a', variantId: 'node', median: median(figures), processMedians: figures };
}

/** Of `tables` simulated table and alone pairs (true table ÷ alone `effect`), the share marked company. */
function markedShare(seed: number, tables: number, effect: number, n = 6, sd = 0.15): number {
  const random = createRandom(seed);
  let marked = 0;
  for (let i = 0; i < tables; i++) {
    const table = run([drawn(random, 100 * effect, n, sd)]);
    const alone = run([drawn(random, 100, n, sd)]);
    if (companyRows(table, [alone], undefined)[0]!.company) marked++;
  }
  return marked / tables;
}

describe('companyRows', () => {
  it("marks a cell whose table ÷ alone interval lies wholly outside 1 ± the tolerance, and no other", () => {
    const table = run([cell('a', 'node', 150), cell('a', 'bun', 105), cell('b', 'node', 150, [0.5, 1.6, 0.8, 1.4, 0.6, 1.2]), cell('c', 'node', 111)]);
    const alone = [run([cell('a', 'node', 100), cell('b', 'node', 100), cell('c', 'node', 100)]), run([cell('a', 'bun', 100)])];
    const rows = companyRows(table, alone, undefined);
    expect(rows.map((r) => [r.caseId, r.variantId, r.aloneNs, r.company])).toEqual([
      ['a', 'node', 100, true],
      // Within the tolerance: not said.
      ['a', 'bun', 100, false],
      // 1.5× alone, but its processes scatter so far that the interval reaches into ±10%: the noise allows it.
      ['b', 'node', 100, false],
      // 1.11× alone with a tight interval that still reaches below 1.1: not shown to be more than the tolerance.
      ['c', 'node', 100, false],
    ]);
    // The ratio of the processes' geometric means, and an interval around it.
    expect(rows[0]!.alone!.ratio).toBeCloseTo(1.5, 10);
    const [lo, hi] = rows[0]!.alone!.ci!;
    expect(lo).toBeGreaterThan(1 + ALONE_TOLERANCE);
    expect(lo).toBeLessThan(1.5);
    expect(hi).toBeGreaterThan(1.5);
    expect(rows[1]!.alone!.ci![0]).toBeLessThan(1.05);
    expect(rows[3]!.alone!.ci![0]).toBeLessThan(1 + ALONE_TOLERANCE);
    expect(rows[3]!.alone!.ci![0]).toBeGreaterThan(1);
    expect(ALONE_TOLERANCE).toBe(0.1);
  });

  it('gives a ratio but no interval, and no mark, with fewer than three processes in a run', () => {
    const rows = companyRows(run([cell('a', 'node', 300, [1, 1.01])]), [run([cell('a', 'node', 100, [1, 1.01])])], undefined);
    expect(rows[0]).toMatchObject({ aloneNs: 100, company: false });
    expect(rows[0]!.alone!.ratio).toBeCloseTo(3, 10);
    expect(rows[0]!.alone!.ci).toBeUndefined();
  });

  it('marks an A/A pair of runs (the same process distribution) in at most 5% of 2000 simulated tables, and a planted 1.6× company in nearly all', () => {
    expect(markedShare(106, 2000, 1)).toBeLessThanOrEqual(0.05);
    // At the tolerance's edge the mark stays as rare: it says "more than 10%" at 95% confidence.
    expect(markedShare(107, 2000, 1 + ALONE_TOLERANCE)).toBeLessThanOrEqual(0.05);
    // Six processes a side spread ±15% (log sd 0.15): a planted 1.6× company, either way, is marked in nearly every table.
    expect(markedShare(108, 500, 1.6)).toBeGreaterThanOrEqual(0.9);
    expect(markedShare(109, 500, 1 / 1.6)).toBeGreaterThanOrEqual(0.9);
  });

  it("holds the table against a long loop's time over calls, the median over its processes", () => {
    // Three loop processes: means 100, 130 and 400 per call; their median is 130.
    const loop = run([{ caseId: 'a', variantId: 'node', median: 0, samples: [[90, 110], [130], [400, 400]] }]);
    expect(loopFigure(loop.results[0]!)).toBe(130);
    const rows = companyRows(run([cell('a', 'node', 160)]), [], loop);
    expect(rows[0]).toMatchObject({ loopNs: 130, apartFromLoop: 160 / 130 - 1 > LOOP_TOLERANCE, company: false });
    expect(rows[0]!.apartFromLoop).toBe(true);
    const near = companyRows(run([cell('a', 'node', 150)]), [], loop);
    expect(near[0]!.apartFromLoop).toBe(false);
  });

  it('leaves out a figure a run does not have and a table cell without one, and says nothing of what it cannot compare', () => {
    const table = run([{ caseId: 'a', variantId: 'deno', median: 500 }]);
    (table.results as unknown as { stats?: unknown }[]).push({ caseId: 'b', variantId: 'deno', rounds: [] } as never);
    const rows = companyRows(table, [run([{ caseId: 'a', variantId: 'node', median: 1 }])], undefined);
    expect(rows).toEqual([{ caseId: 'a', variantId: 'deno', tableNs: 500, company: false, apartFromLoop: false }]);
  });

  it('does not say a cell carries its company where the machine moved between the table and its case alone, and says so', () => {
    const table = run([cell('a', 'node', 150)], 0.9);
    const rows = companyRows(table, [run([cell('a', 'node', 100)], 0.05)], undefined);
    expect(rows[0]).toMatchObject({ company: false, machineMoved: 'different machine states: other work used 0.90 cores during the table, 0.05 during node alone' });
  });
});
