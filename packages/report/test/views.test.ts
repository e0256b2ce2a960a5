import { describe, expect, it } from 'vitest';
import { comparePaired, median } from '@rtbench/stats';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { finishRun } from '../../saved-runs/src/record.ts';
import { benchView, pairedComparisonView, reporterFor, viewOfRun } from '../src/index.ts';
import { regressionsOf } from '@rtbench/verdicts';

/** A synthetic run with its statistics computed the way the CLI computes them. */
const run = () => {
  const r = syntheticRun({
    cases: [{ id: 'parse', ns: 1000 }, { id: 'same', ns: 500 }, { id: 'other work', ns: 800 }, { id: 'gone', ns: 10 }],
    arms: [
      { id: 'node@26', factor: 1 },
      { id: 'node@24', factor: 1.5, overrides: { same: { factor: 1 }, 'other work': { digest: 'ffffffffffffffff' }, gone: { unsupported: 'no such API' } } },
    ],
    rounds: 12,
    sigma: 0.01,
  });
  finishRun(r, false);
  return r;
};

describe('bench view', () => {
  it('takes the first variant as the baseline and gives every other its paired ratio with a CI and a verdict', () => {
    const r = run();
    const view = benchView(r);
    expect(view.baseline.id).toBe('node@26');
    const parse = view.cases.find((c) => c.caseId === 'parse')!;
    expect(parse.rows.map((row) => [row.variantId, row.isBaseline])).toEqual([['node@26', true], ['node@24', false]]);
    expect(parse.rows[0]!.relative).toBeUndefined();
    const medians = (v: string) => r.results.find((x) => x.caseId === 'parse' && x.variantId === v)!.rounds.map((x) => median(x.samples));
    const expected = comparePaired(medians('node@26'), medians('node@24'));
    const relative = parse.rows[1]!.relative!;
    expect(relative).toMatchObject({ verdict: 'slower', ratio: expected.ratio });
    // The table reads every interval at its adjusted level: at least as wide as the cell's own.
    expect(relative.confidence).toBeGreaterThanOrEqual(0.95);
    expect(relative.ci[0]).toBeLessThanOrEqual(expected.ci[0]);
    expect(relative.ci[1]).toBeGreaterThanOrEqual(expected.ci[1]);
    expect(parse.rows[1]!.relative!.qValue).toBeGreaterThanOrEqual(parse.rows[1]!.relative!.pValue);
  });

  it('claims no difference for the same work at the same speed', () => {
    const view = benchView(run());
    const same = view.cases.find((c) => c.caseId === 'same')!.rows[1]!.relative!;
    expect(['equivalent', 'inconclusive']).toContain(same.verdict);
    expect(same.ci[0]).toBeLessThan(1.01);
    expect(same.ci[1]).toBeGreaterThan(0.99);
  });

  it('marks different work, keeps unsupported rows with their reason, and lists failures as notes', () => {
    const view = benchView(run());
    expect(view.cases.find((c) => c.caseId === 'other work')!.digestMismatch).toEqual({ 'node@26': '0123456789abcdef', 'node@24': 'ffffffffffffffff' });
    const gone = view.cases.find((c) => c.caseId === 'gone')!.rows[1]!;
    expect(gone.status).toBe('unsupported');
    expect(gone.note).toBe('unsupported: no such API');
    expect(view.notes.some((n) => n.level === 'error' && n.text.includes('different work on "other work"'))).toBe(true);
  });

  it('warns when the mean is far above the median', () => {
    const r = run();
    const result = r.results[0]!;
    result.rounds[0]!.samples.push(...Array.from({ length: 60 }, () => 40_000));
    finishRun(r, false);
    expect(benchView(r).cases[0]!.rows[0]!.skew).toMatch(/× the median/);
  });

  it('finds regressions beyond a limit and none beyond a larger one', () => {
    const view = benchView(run());
    // A case of different work has no verdict, so it is no regression.
    expect(regressionsOf(view, 0.2).map((x) => x.caseId)).toEqual(['parse']);
    expect(regressionsOf(view, 0.9)).toEqual([]);
  });

  it('shows a compare run as a comparison and a bench run as a table', () => {
    const r = run();
    expect(viewOfRun(r).kind).toBe('bench');
    expect(viewOfRun({ ...r, mode: 'compare' }).kind).toBe('comparison');
    const comparison = pairedComparisonView(r);
    // The table and the comparison are one analysis: the same ratio for the same pair.
    expect(comparison.sections[0]!.cases[0]!.comparison!.ratio).toBe(benchView(r).cases[0]!.rows[1]!.relative!.ratio);
  });
});

describe('a result below the clock resolution', () => {
  it('keeps its samples, has no statistics and says why', () => {
    const r = run();
    // Most processes saw 0 ns: the median is 0 and its CI reaches above it, so no relative CI exists.
    for (const round of r.results[0]!.rounds.slice(0, 8)) round.samples = round.samples.map(() => 0);
    finishRun(r, false);
    expect(r.results[0]!.stats).toBeUndefined();
    const row = benchView(r).cases[0]!.rows[0]!;
    expect(row.stats).toBeUndefined();
    expect(row.note).toMatch(/0 ns \(below the clock resolution\)/);
  });
});

describe('bench view geomeans', () => {
  it('gives each non-baseline variant the geometric mean of its ratios, leaving out cases with different work', () => {
    const view = benchView(run());
    expect(view.geomeans).toHaveLength(1);
    const g = view.geomeans![0]!;
    // parse (1.5×) and same (1×) are used; "other work" is left out, "gone" was not compared
    expect(g).toMatchObject({ variantId: 'node@24', cases: 2, excluded: 1 });
    expect(g.ratio).toBeGreaterThan(1.15);
    expect(g.ratio).toBeLessThan(1.3);
    expect(g.ci[0]).toBeLessThanOrEqual(g.ratio);
  });
});

describe('modes', () => {
  it('names two groups of processes with their centres and counts', () => {
    const r = syntheticRun({ cases: [{ id: 'parse', ns: 1000 }], arms: [{ id: 'node@26', factor: 1 }], rounds: 20, sigma: 0.01 });
    // 8 of 20 processes in a slow state, 1.6x slower
    for (const round of r.results[0]!.rounds.slice(0, 8)) round.samples = round.samples.map((x) => x * 1.6);
    finishRun(r, false);
    const row = benchView(r).cases[0]!.rows[0]!;
    expect(row.modes).toMatch(/^2 modes: (1|1\.0\d) µs ×12, 1\.6\d µs ×8$/);
    // The table marks the row, names the mark in its key and explains it once with --explain; --plot gives the modes' figures under the case.
    const table = reporterFor('terminal')!.render(benchView(r), { color: false });
    expect(table).toMatch(/ node@26 .* m$/m);
    expect(table.replace(/\s+/g, ' ')).toContain('--explain: the method, marks m.');
    expect(reporterFor('terminal')!.render(benchView(r), { color: false, explain: true })).toContain('marks: m the process medians form 2 or more modes');
    expect(reporterFor('terminal')!.render(benchView(r), { color: false, plot: true })).toContain(`node@26: ${row.modes}`);
  });
});

describe('a ratio and the medians above it', () => {
  it('says so when they point opposite ways beyond the threshold and the medians fall outside the interval', () => {
    const r = syntheticRun({ cases: [{ id: 'x', ns: 100 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1 }], rounds: 6, seed: 3 });
    // Samples taken in turn at two speeds: every turn the candidate is 10% slower than the baseline beside it, but in
    // one turn of 19 it caught its fast state while the baseline did not, so its median lands in the fast mode.
    const base = [...Array<number>(10).fill(100), ...Array<number>(9).fill(30)];
    const cand = [...Array<number>(9).fill(110), 33, ...Array<number>(9).fill(33)];
    r.results.forEach((res) =>
      res.rounds.forEach((round, i) => {
        round.samples = res.variantId === 'node@26' ? [...base] : [...cand];
        round.lockstep = { positions: round.samples.map(() => 0), process: i };
      }),
    );
    const row = benchView(r).cases[0]!.rows[1]!;
    expect(row.relative!.ratio).toBeCloseTo(1.1, 2);
    expect(row.opposite).toMatch(/the medians read 0\.33× while the paired ratio reads 1\.10×/);
    // A plain difference, with the medians inside the interval or on the same side, is not marked.
    const rates = syntheticRun({ cases: [{ id: 'x', ns: 100 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.3 }], rounds: 6 });
    // More requests/s in every round: a ratio of costs below 1 and medians above, which read the same way.
    rates.cases[0]!.metric = { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' };
    const rate = benchView(rates).cases[0]!.rows[1]!;
    expect(rate.relative!.ratio).toBeLessThan(0.9);
    expect(rate.opposite).toBeUndefined();
    expect(benchView(syntheticRun({ cases: [{ id: 'x', ns: 100 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.3 }], rounds: 6 })).cases[0]!.rows[1]!.opposite).toBeUndefined();
  });
});
