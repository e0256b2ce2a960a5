/** bench --self-check's decision (company.ts): a cell against its case alone, measured in halves around the table, and a long loop. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { createRandom, intervalAt, median, welchInference } from '@rtbench/stats';
import { ALONE_TOLERANCE, companyRows, DECIDING_SE, halfDesign, LOOP_TOLERANCE, loopFigure, type AloneReading, type MachineReading } from '../src/index.ts';

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
/** A half alone: three processes, as the halves of a six-round table have. */
const HALF = [0.96, 1, 1.04];
const processes = (figure: number, spread: readonly number[]): number[][] => spread.map((f) => [figure * f, figure * f]);
/** A cell with its processes: headline `figure`. */
const cell = (caseId: string, variantId: string, figure: number, spread: readonly number[] = SPREAD): Cell => ({ caseId, variantId, median: figure, samples: processes(figure, spread) });

/** A standard normal draw from a seeded uniform (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * One runtime's run of `cases` cells, each with `n` processes: each cell × run at a level of its own (log-normal
 * around `figure`, sd `drift`: the minutes between runs), its processes log-normal around that level (sd `sd`).
 */
function drawnRun(random: () => number, figure: number, cases: number, n: number, sd: number, drift: number): RunRecord {
  return run(Array.from({ length: cases }, (_, k) => {
    const level = figure * Math.exp(drift * normal(random));
    const figures = Array.from({ length: n }, () => level * Math.exp(sd * normal(random)));
    return { caseId: `case ${k}`, variantId: 'node', median: median(figures), processMedians: figures };
  }));
}

interface Simulated {
  /** True table ÷ alone. */
  effect: number;
  /** Log sd of a cell × run's level. */
  drift: number;
  /** Log sd of a process about its run's level. */
  sd: number;
}

/** Of `tables` simulated tables of eight cases (six processes), each with two halves alone (three each), the share of cells read company (or `reading`). */
function markedShare(seed: number, tables: number, { effect, drift, sd }: Simulated, reading: AloneReading = 'company'): number {
  const random = createRandom(seed);
  let marked = 0;
  let cells = 0;
  for (let i = 0; i < tables; i++) {
    const table = drawnRun(random, 100 * effect, 8, 6, sd, drift);
    const halves = [drawnRun(random, 100, 8, 3, sd, drift), drawnRun(random, 100, 8, 3, sd, drift)];
    for (const row of companyRows(table, halves, undefined)) {
      cells++;
      if (row.reading === reading) marked++;
    }
  }
  return marked / cells;
}

/**
 * The same A/A tables read as one table and one run alone (six processes each) with an interval over their processes
 * alone (Welch's t on the logs): the share of cells whose interval lies wholly outside 1 ± the tolerance.
 */
function oneRunShare(seed: number, tables: number, { drift, sd }: Simulated): number {
  const random = createRandom(seed);
  let marked = 0;
  for (let i = 0; i < tables * 8; i++) {
    const [table, alone] = [0, 1].map(() => {
      const level = drift * normal(random);
      return Array.from({ length: 6 }, () => level + sd * normal(random));
    });
    const ci = intervalAt(welchInference({ values: alone! }, { values: table! }), 0.95)!;
    if (ci[0] > Math.log(1 + ALONE_TOLERANCE) || ci[1] < Math.log(1 - ALONE_TOLERANCE)) marked++;
  }
  return marked / (tables * 8);
}

/**
 * Of `tables` simulated tables of eight cases (six processes), the share of cells each reading takes, with halves
 * alone sized as the self-check sizes them: a first run of three processes, a top-up run (a run of its own, its own
 * level) to what halfDesign asks up to six, and the half after the table as many.
 */
function readingShares(seed: number, tables: number, { effect, drift, sd }: Simulated): Record<'company' | 'within' | 'undecided', number> {
  const random = createRandom(seed);
  const count = { company: 0, within: 0, undecided: 0 };
  let cells = 0;
  for (let i = 0; i < tables; i++) {
    const first = drawnRun(random, 100, 8, 3, sd, drift);
    const { processes } = halfDesign(first, 'node', 6);
    const before = processes > 3 ? [first, drawnRun(random, 100, 8, processes - 3, sd, drift)] : [first];
    const table = drawnRun(random, 100 * effect, 8, 6, sd, drift);
    for (const row of companyRows(table, [before, drawnRun(random, 100, 8, processes, sd, drift)], undefined)) {
      cells++;
      if (row.reading) count[row.reading]++;
    }
  }
  return { company: count.company / cells, within: count.within / cells, undecided: count.undecided / cells };
}

describe('companyRows', () => {
  it('marks a cell whose table ÷ alone interval lies wholly outside 1 ± the tolerance, and no other', () => {
    const table = run([cell('a', 'node', 150), cell('a', 'bun', 105), cell('b', 'node', 150, [0.5, 1.6, 0.8, 1.4, 0.6, 1.2]), cell('c', 'node', 111)]);
    const half = (shift: number): RunRecord => run([cell('a', 'node', 100 * shift, HALF), cell('b', 'node', 100 * shift, HALF), cell('c', 'node', 100 * shift, HALF)]);
    const bun = run([cell('a', 'bun', 100, HALF)]);
    // Each runtime alone in two halves, around the table: node's read 1% apart, bun's alike.
    const rows = companyRows(table, [half(1.01), half(1 / 1.01), bun, bun], undefined);
    expect(rows.map((r) => [r.caseId, r.variantId, r.company])).toEqual([
      ['a', 'node', true],
      // Within the tolerance: not said.
      ['a', 'bun', false],
      // 1.5× alone, but its processes scatter so far that the interval reaches into ±10%: the noise allows it.
      ['b', 'node', false],
      // 1.11× alone with a tight interval that still reaches below 1.1: not shown to be more than the tolerance.
      ['c', 'node', false],
    ]);
    // The alone figure is the median over both halves' processes; the ratio that of the table's geometric mean over the halves' mean.
    expect(rows[0]!.aloneNs).toBeCloseTo((100 / 1.01 + 101) / 2, 10);
    const gm = (xs: readonly number[]): number => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
    expect(rows[0]!.alone!.ratio).toBeCloseTo((1.5 * gm(SPREAD)) / gm(HALF), 10);
    const [lo, hi] = rows[0]!.alone!.ci!;
    expect(lo).toBeGreaterThan(1 + ALONE_TOLERANCE);
    expect(lo).toBeLessThan(1.5);
    expect(hi).toBeGreaterThan(1.5);
    // The halves' scatter it carries: node's halves 1.01 and 1/1.01 of 100, a log sd of ln(1.01)·√2.
    expect(rows[0]!.alone!.betweenRuns).toBeCloseTo(Math.log(1.01) * Math.SQRT2, 10);
    expect(rows[1]!.alone!.ci![0]).toBeLessThan(1.05);
    expect(rows[3]!.alone!.ci![0]).toBeLessThan(1 + ALONE_TOLERANCE);
    expect(rows[3]!.alone!.ci![0]).toBeGreaterThan(1);
    expect(ALONE_TOLERANCE).toBe(0.1);
  });

  it('widens the interval by as far as the halves alone lie apart, so a cell 1.3× alone is not marked when its runs drift as much', () => {
    const table = run([cell('a', 'node', 130), cell('b', 'node', 100)]);
    const halves = (apart: number): RunRecord[] => [apart, 1 / apart].map((f) => run([cell('a', 'node', 100 * f, HALF), cell('b', 'node', 100 / f, HALF)]));
    const steady = companyRows(table, halves(1.01), undefined)[0]!;
    const drifting = companyRows(table, halves(1.2), undefined)[0]!;
    expect([steady.company, drifting.company]).toEqual([true, false]);
    expect(drifting.alone!.ci![0]).toBeLessThan(1 + ALONE_TOLERANCE);
    expect(drifting.alone!.ci![1] - drifting.alone!.ci![0]).toBeGreaterThan(steady.alone!.ci![1] - steady.alone!.ci![0]);
  });

  it('gives a ratio but no interval, and no mark, with one run alone (nothing measures the drift) or fewer than three processes in the table', () => {
    const one = companyRows(run([cell('a', 'node', 300)]), [run([cell('a', 'node', 100)])], undefined);
    expect(one[0]).toMatchObject({ aloneNs: 100, company: false });
    expect(one[0]!.alone!.ratio).toBeCloseTo(3, 10);
    expect(one[0]!.alone!.ci).toBeUndefined();
    const few = companyRows(run([cell('a', 'node', 300, [1, 1.01])]), [run([cell('a', 'node', 100, HALF)]), run([cell('a', 'node', 100, HALF)])], undefined);
    expect(few[0]).toMatchObject({ company: false });
    expect(few[0]!.alone!.ci).toBeUndefined();
  });

  it('marks a planted 1.3× company in nearly every simulated table, and an A/A table whose runs drift ±15% in at most 5% of its cells', () => {
    // Processes spread ±5%, runs ±1% apart: a table 30% slower than both halves is marked.
    expect(markedShare(108, 100, { effect: 1.3, drift: 0.01, sd: 0.05 })).toBeGreaterThanOrEqual(0.9);
    expect(markedShare(109, 100, { effect: 1 / 1.3, drift: 0.01, sd: 0.05 })).toBeGreaterThanOrEqual(0.9);
    // No company, each cell × run ±15% from the next (log sd 0.15), processes ±5% or ±15%: an interval over one run's
    // processes marks a fifth or more of these cells; the halves' interval at most 5%.
    expect(oneRunShare(105, 400, { effect: 1, drift: 0.15, sd: 0.05 })).toBeGreaterThan(0.2);
    expect(oneRunShare(104, 400, { effect: 1, drift: 0.15, sd: 0.15 })).toBeGreaterThan(0.15);
    expect(markedShare(106, 400, { effect: 1, drift: 0.15, sd: 0.05 })).toBeLessThanOrEqual(0.05);
    expect(markedShare(107, 400, { effect: 1, drift: 0.15, sd: 0.15 })).toBeLessThanOrEqual(0.05);
    // At the tolerance's edge the mark stays as rare: it says "more than 10%" at 95% confidence.
    expect(markedShare(110, 400, { effect: 1 + ALONE_TOLERANCE, drift: 0.15, sd: 0.05 })).toBeLessThanOrEqual(0.05);
    expect(markedShare(111, 400, { effect: 1 + ALONE_TOLERANCE, drift: 0.05, sd: 0.05 })).toBeLessThanOrEqual(0.05);
  });

  it('reads a cell within where its whole interval lies inside 1 ± the tolerance, undecided where it reaches across, and takes a half of two runs as one half', () => {
    const table = run([cell('a', 'node', 101, [0.99, 1, 1.01, 0.99, 1, 1.01]), cell('b', 'node', 108), cell('c', 'node', 150)]);
    const half = (shift: number, spread: readonly number[]): RunRecord => run(['a', 'b', 'c'].map((id) => cell(id, 'node', 100 * shift, spread)));
    // The first half: a run of three processes and its top-up of three more; the second half one run of six.
    const before = [half(1.005, [0.99, 1, 1.01]), half(1.005, [1.01, 1, 0.99])];
    const rows = companyRows(table, [before, half(1 / 1.005, [0.99, 1, 1.01, 0.99, 1, 1.01])], undefined);
    expect(rows.map((r) => [r.caseId, r.reading, r.company])).toEqual([
      ['a', 'within', false],
      // 1.08× alone, its interval reaching past 1.1: neither within nor marked.
      ['b', 'undecided', false],
      ['c', 'company', true],
    ]);
    expect(rows[1]!.alone!.ci![1]).toBeGreaterThan(1 + ALONE_TOLERANCE);
    expect(rows[1]!.alone!.ci![0]).toBeGreaterThan(1 - ALONE_TOLERANCE);
    // Two halves, not three runs: the halves' means 100.5 and 99.5 scatter a log sd of ln(1.005)·√2.
    expect(rows[0]!.alone!.betweenRuns).toBeCloseTo(Math.log(1.005) * Math.SQRT2, 10);
    // No interval, no reading.
    expect(companyRows(table, [half(1, HALF)], undefined)[0]!.reading).toBeUndefined();
  });

  it('sizes a half alone from its first run: 3σ² / DECIDING_SE² processes, no fewer than it took, no more than the bound', () => {
    expect(DECIDING_SE).toBeCloseTo(Math.log(1.1) / 1.959964, 5);
    const first = (sd: number): RunRecord => run(['a', 'b'].map((id) => cell(id, 'node', 100, [Math.exp(-sd), 1, Math.exp(sd)])));
    // Processes at ±sd on the log scale: a pooled variance of sd².
    const quiet = halfDesign(first(0.02), 'node', 6);
    expect(quiet).toEqual({ taken: 3, processes: 3, wanted: Math.ceil((3 * 0.02 ** 2) / DECIDING_SE ** 2), spread: expect.closeTo(0.02, 10) });
    expect(quiet.wanted).toBe(1);
    const wanted = Math.ceil((3 * 0.06 ** 2) / DECIDING_SE ** 2);
    expect(halfDesign(first(0.06), 'node', 12)).toMatchObject({ taken: 3, processes: wanted, wanted });
    expect(wanted).toBe(5);
    expect(halfDesign(first(0.2), 'node', 6)).toMatchObject({ processes: 6, wanted: 51 });
    // Another runtime's cells, or processes of one each, say nothing of the spread.
    expect(halfDesign(first(0.2), 'bun', 6)).toEqual({ taken: 0, processes: 0, wanted: 0 });
    expect(halfDesign(run([cell('a', 'node', 100, [1])]), 'node', 6)).toEqual({ taken: 1, processes: 1, wanted: 1 });
  });

  it('decides more A/A cells within ±10% with halves sized by their spread, and reads none within where runs drift ±15%', () => {
    // Processes ±6%, runs ±1%: halves of three decide about a tenth of the cells within; sized halves (five) a quarter.
    const sized = readingShares(112, 100, { effect: 1, drift: 0.01, sd: 0.06 });
    expect(sized.within).toBeGreaterThanOrEqual(0.18);
    expect(sized.company).toBeLessThanOrEqual(0.05);
    expect(markedShare(113, 100, { effect: 1, drift: 0.01, sd: 0.06 }, 'within')).toBeLessThanOrEqual(0.14);
    // A planted 1.3× company: marked.
    expect(readingShares(114, 100, { effect: 1.3, drift: 0.01, sd: 0.06 }).company).toBeGreaterThanOrEqual(0.9);
    // Runs ±15% apart: no interval fits inside ±10%, so no cell is said within; the mark stays rare.
    const drifting = readingShares(115, 100, { effect: 1, drift: 0.15, sd: 0.05 });
    expect(drifting.within).toBe(0);
    expect(drifting.company).toBeLessThanOrEqual(0.05);
    expect(drifting.undecided).toBeGreaterThanOrEqual(0.95);
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

  it('does not say a cell carries its company where the machine moved between the table and either half alone, and says so', () => {
    const table = run([cell('a', 'node', 150)], 0.9);
    const rows = companyRows(table, [run([cell('a', 'node', 100, HALF)], 0.9), run([cell('a', 'node', 100, HALF)], 0.05)], undefined);
    expect(rows[0]).toMatchObject({ company: false, machineMoved: 'different machine states: other work used 0.90 cores during the table, 0.05 during node alone (2 of 2)' });
  });
});
