import { describe, expect, it } from 'vitest';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { benjaminiHochberg, compareUnpaired, median, processMedianInterval } from '@rtbench/stats';
import { renderHistoryCsv, renderHistoryMarkdown, renderHistoryTerminal, HISTORY_COLUMNS } from '../src/reporters/history.ts';
import { historyLevel, pointInterval, sparkline } from '../src/cells/history.ts';
import { historyPageData } from '../src/html/history-data.ts';
import { jsonReporter } from '../src/reporters/json.ts';
import { bmfReporter } from '../src/reporters/bmf.ts';
import { changePoints, chooseOrder, historyView, orderRuns } from '../src/views/history.ts';
import type { HistoryView } from '../src/views/types.ts';
import { regressionsOf } from '@rtbench/verdicts';

const cases = [
  { id: 'parse / small', ns: 1_000 },
  { id: 'parse / large', ns: 50_000 },
  { id: 'stringify', ns: 8_000 },
];

const inputs = (runs: ReturnType<typeof historyRuns>) => runs.map((run, i) => ({ run, file: `/results/run-${i + 1}.json` }));

/** Four runs; the third is 10% slower on every case and stays so. */
function stepView(): HistoryView {
  return historyView(inputs(historyRuns([{ factor: 1 }, { factor: 1 }, { factor: 1.1 }, { factor: 1.1 }], { cases, rounds: 10, seed: 3 })));
}

describe('historyView', () => {
  it('finds a 10% step at the run where it happens, and nowhere else', () => {
    const view = stepView();
    expect(view.kind).toBe('history');
    expect(view.runs.map((r) => r.file)).toEqual(['/results/run-1.json', '/results/run-2.json', '/results/run-3.json', '/results/run-4.json']);
    expect(view.cases.map((c) => c.caseId)).toEqual(cases.map((c) => c.id));
    for (const hc of view.cases) {
      const [series] = hc.series;
      expect(hc.series).toHaveLength(1);
      expect(series!.points.map((p) => p.run)).toEqual([0, 1, 2, 3]);
      expect(series!.points.map((p) => p.changePoint)).toEqual([undefined, undefined, 'slower', undefined]);
      const step = series!.points[2]!;
      expect(step.changeFrom).toBe(1);
      expect(step.change!.ci[0]).toBeGreaterThan(1);
      expect(step.change!.ci[0]).toBeLessThan(1.1);
      expect(step.change!.ci[1]).toBeGreaterThan(1.1);
      // The first point has nothing before it; the others are compared.
      expect(series!.points[0]!.change).toBeUndefined();
      expect(series!.points[3]!.change!.verdict).not.toBe('slower');
    }
    expect(changePoints(view)).toHaveLength(3);
  });

  it("takes the figure and the test from the runs' process medians, with BH over every comparison in the view", () => {
    const runs = historyRuns([{ factor: 1 }, { factor: 1.03 }, { factor: 1.1 }], { cases, rounds: 8, seed: 5 });
    const view = historyView(inputs(runs));
    const medians = (run: (typeof runs)[number], caseId: string): number[] => run.results.find((r) => r.caseId === caseId)!.rounds.map((r) => median(r.samples));
    const raw: number[] = [];
    const q: number[] = [];
    for (const hc of view.cases) {
      const points = hc.series[0]!.points;
      points.forEach((p, i) => {
        expect(p.processMedians).toEqual(medians(runs[i]!, hc.caseId));
        expect(p.median).toBeCloseTo(median(p.processMedians), 9);
        if (i === 0) return;
        const expected = compareUnpaired(medians(runs[i - 1]!, hc.caseId), medians(runs[i]!, hc.caseId), { threshold: 0.01, confidence: 0.95 });
        expect(p.change!.ratio).toBeCloseTo(expected.ratio, 12);
        expect(p.change!.pValue).toBeCloseTo(expected.pValue, 12);
        raw.push(expected.pValue);
        q.push(p.change!.qValue);
      });
    }
    const bh = benjaminiHochberg(raw);
    q.forEach((x, i) => expect(x).toBeCloseTo(bh[i]!, 12));
  });

  it('noise alone: change points in at most the FDR share of 200 histories of 6 runs × 3 cases', () => {
    let withAny = 0;
    let found = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const view = historyView(inputs(historyRuns([1, 1, 1, 1, 1, 1].map((factor) => ({ factor })), { cases, rounds: 10, seed: seed * 101 })));
      const n = changePoints(view).length;
      found += n;
      if (n) withAny++;
    }
    // Under no change at all, BH's FDR is the chance of any false change point: at most 5%, 10 of 200, give or take
    // 3 standard errors (seeded, so fixed). Without the FDR step, 15 comparisons at 5% would flag about half the histories.
    expect(withAny).toBeLessThanOrEqual(19);
    expect(found).toBeLessThanOrEqual(25);
  });

  it('keeps one series across a new binary under the same variant id, and marks where it changed', () => {
    const runs = historyRuns([{ factor: 1 }, { factor: 1, binary: { version: '24.2.0', sha256: 'c'.repeat(64) } }, { factor: 1, binary: { version: '24.2.0', sha256: 'c'.repeat(64) } }], { cases: cases.slice(0, 1), rounds: 6 });
    const view = historyView(inputs(runs));
    const points = view.cases[0]!.series[0]!.points;
    expect(view.cases[0]!.series).toHaveLength(1);
    expect(points.map((p) => p.binaryChanged)).toEqual([undefined, `version 24.1.0 → 24.2.0, sha256 ${'a'.repeat(12)} → ${'c'.repeat(12)}`, undefined]);
    expect(renderHistoryTerminal(view, { color: false })).toContain(`† node@24 at run 2 (2026-01-02 00:00): version 24.1.0 → 24.2.0`);
  });

  it('marks a point whose work changed (another digest)', () => {
    const view = historyView(inputs(historyRuns([{ factor: 1 }, { factor: 1, digest: 'feedfacefeedface' }], { cases: cases.slice(0, 1), rounds: 6 })));
    expect(view.cases[0]!.series[0]!.points[1]!.digestChanged).toEqual({ from: '0123456789abcdef', to: 'feedfacefeedface' });
  });

  it('orders by commit rank when every run has a ranked commit, by start time otherwise', () => {
    const runs = historyRuns(
      [
        { factor: 1, commit: 'b'.repeat(40), startedAt: '2026-01-01T00:00:00.000Z' },
        { factor: 1, commit: 'a'.repeat(40), startedAt: '2026-01-03T00:00:00.000Z' },
        { factor: 1, commit: 'b'.repeat(40), dirty: true, startedAt: '2026-01-02T00:00:00.000Z' },
      ],
      { cases: cases.slice(0, 1), rounds: 4 },
    );
    const rank = new Map([
      ['a'.repeat(40), 0],
      ['b'.repeat(40), 1],
    ]);
    const byCommit = chooseOrder(runs, rank, '/repo');
    expect(byCommit.by).toBe('commit');
    expect(orderRuns(inputs(runs), byCommit, (x) => x.run).map((x) => x.run.id)).toEqual(['history-2', 'history-1', 'history-3']);
    const view = historyView(inputs(runs), { order: byCommit });
    expect(view.order).toEqual({ by: 'commit', reason: 'by commit: git rev-list --topo-order in /repo; runs at one commit by start time' });
    expect(view.runs.map((r) => `${r.commit!.slice(0, 1)}${r.dirty ? '-dirty' : ''}`)).toEqual(['a', 'b', 'b-dirty']);

    const unknown = chooseOrder(runs, new Map([['a'.repeat(40), 0]]), '/repo');
    expect(unknown).toEqual({ by: 'time', reason: `by start time: 1 commit the runs name is not in /repo (e.g. ${'b'.repeat(12)})` });
    expect(orderRuns(inputs(runs), unknown, (x) => x.run).map((x) => x.run.id)).toEqual(['history-1', 'history-3', 'history-2']);
    expect(chooseOrder(runs, undefined, 'no checkout').by).toBe('time');
  });

  it('filters cases and variants', () => {
    const runs = historyRuns([{ factor: 1 }, { factor: 1 }], { cases, rounds: 4, variants: ['node@24', 'node@26'] });
    const view = historyView(inputs(runs), { caseFilter: (id) => id.startsWith('parse'), variants: ['node@26'] });
    expect(view.cases.map((c) => c.caseId)).toEqual(['parse / small', 'parse / large']);
    expect(view.cases.every((c) => c.series.length === 1 && c.series[0]!.variantId === 'node@26')).toBe(true);
  });

  it('--fail-on-regression: only a slower change point in the newest run, beyond the limit', () => {
    const newest = stepView(); // the step is in run 3 of 4: not the newest run's doing
    expect(regressionsOf(newest, 0.05)).toHaveLength(0);
    const now = historyView(inputs(historyRuns([{ factor: 1 }, { factor: 1 }, { factor: 1.1 }], { cases, rounds: 10, seed: 3 })));
    expect(regressionsOf(now, 0.05)).toHaveLength(3);
    expect(regressionsOf(now, 0.2)).toHaveLength(0);
  });
});

describe('history reporters', () => {
  const view = stepView();

  it('terminal: per case the runs with the change marked and explained, a sparkline, within 100 columns', () => {
    const text = renderHistoryTerminal(view, { color: false, columns: 100 });
    expect(text).toContain('history of synthetic: 4 runs, ordered by start time');
    expect(text.match(/▲\+\d+(\.\d)?%/g)).toHaveLength(3);
    const wide = renderHistoryTerminal(view, { color: false, columns: 200 });
    expect(wide).toMatch(/▲ node@24 at run 3 \(2026-01-03 00:00\): 1\.\d{3}× \[1\.\d{3}–1\.\d{3}\] against run 2 \(2026-01-02 00:00\), \+\d+(\.\d)?% time, q [<\d.]+/);
    expect(text).toMatch(/node@24 {2}[▁▂▃▄▅▆▇█]{4} {2}/);
    expect(text).toContain('3 change points in 9 comparisons of neighbouring runs (FDR 5%, threshold 1%)');
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
  });

  it('terminal: a block per variant when a column per variant would be too wide', () => {
    const runs = historyRuns([{ factor: 1 }, { factor: 1 }], { cases: cases.slice(0, 1), rounds: 4, variants: ['node@24 --a-long-flag-name=1', 'node@24 --another-long-flag=2', 'node@24 --third-long-flag=3', 'node@24 --fourth=4'] });
    const text = renderHistoryTerminal(historyView(inputs(runs)), { color: false, columns: 100 });
    expect(text).toMatch(/\n {2}node@24 --fourth=4\n/);
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
  });

  it('one interval level a screen: the legend names it once; the figures\' and the changes\' intervals are read at it', () => {
    const level = view.cases[0]!.series[0]!.points[1]!.change!.confidence;
    expect(level).toBeGreaterThan(view.confidence);
    const named = `${+(level * 100).toFixed(2)}% intervals (95% over 9 comparisons)`;
    const long = historyView(inputs(historyRuns([{ factor: 1 }, { factor: 1 }, { factor: 1.1 }], { cases: cases.slice(0, 1), rounds: 10, seed: 3, variants: ['node@24 --a-long-flag-name=1', 'node@24 --another-long-flag=2', 'node@24 --third-long-flag=3', 'node@24 --fourth=4'] })));
    const longLevel = long.cases[0]!.series[0]!.points[1]!.change!.confidence;
    expect(longLevel).toBeGreaterThan(long.confidence);
    for (const [v, text] of [
      [view, renderHistoryTerminal(view, { color: false, columns: 200 })],
      [view, renderHistoryMarkdown(view)],
      [long, renderHistoryTerminal(long, { color: false, columns: 100 })],
    ] as const) {
      expect(text.match(/\d+(\.\d+)?% (CI|intervals?)|\bat \d+(\.\d+)?%/g)).toEqual([`${+(historyLevel(v) * 100).toFixed(2)}% intervals`]);
    }
    expect(renderHistoryTerminal(view, { color: false, columns: 200 })).toContain(named);
    // The CI column of the block per variant: each point's interval at the screen's level, from its process medians.
    const p = long.cases[0]!.series[0]!.points[0]!;
    expect(pointInterval(p, longLevel)).toEqual(processMedianInterval(p.processMedians, longLevel));
    expect(pointInterval(p, longLevel)![1] - pointInterval(p, longLevel)![0]).toBeGreaterThan(p.ci![1] - p.ci![0]);
    const page = historyPageData(view);
    const q = view.cases[0]!.series[0]!.points[0]!;
    expect([page.cases[0]!.series[0]!.points[0]!.lo, page.cases[0]!.series[0]!.points[0]!.hi]).toEqual(processMedianInterval(q.processMedians, level));
    expect(page.legend.join(' ')).toContain(named);
  });

  it('markdown: a table per case with the change point in bold, and the change points listed', () => {
    const md = renderHistoryMarkdown(view);
    expect(md).toContain('### parse / small');
    expect(md).toMatch(/\| 3 \| — \| 2026-01-03 \| \*\*\d+(\.\d+)? µs ▲\+\d+\.\d%\*\* \|/);
    expect(md).toContain('**Change points** (3):');
  });

  it('csv: one row per point with the change columns', () => {
    const lines = renderHistoryCsv(view).trim().split('\n');
    expect(lines[0]).toBe(HISTORY_COLUMNS.join(','));
    expect(lines).toHaveLength(1 + 3 * 4);
    const header = lines[0]!.split(',');
    const row = lines.find((l) => l.startsWith('synthetic,parse / small,node@24,3,'))!.split(',');
    expect(row[header.indexOf('change_point')]).toBe('slower');
    expect(row[header.indexOf('vs_run_index')]).toBe('2');
    expect(Number(row[header.indexOf('ratio')])).toBeGreaterThan(1.05);
  });

  it("csv: the screen's intervals, the level they are read at in a column", () => {
    const lines = renderHistoryCsv(view).trim().split('\n');
    const header = lines[0]!.split(',');
    const level = historyLevel(view);
    expect(level).toBeGreaterThan(view.confidence);
    const p = view.cases[0]!.series[0]!.points[0]!;
    const row = lines.find((l) => l.startsWith('synthetic,parse / small,node@24,1,'))!.split(',');
    expect(Number(row[header.indexOf('level')])).toBe(level);
    const [lo, hi] = pointInterval(p, level)!;
    expect([Number(row[header.indexOf('ci_low')]), Number(row[header.indexOf('ci_high')])]).toEqual([lo, hi]);
    // Wider than the 95% interval the point carries: read at the screen's level, not its own.
    expect(hi - lo).toBeGreaterThan(p.ci![1] - p.ci![0]);
  });

  it('json: the view as it is; bmf refuses a history', () => {
    const json = JSON.parse(jsonReporter.render(view, {})) as HistoryView;
    expect(json.kind).toBe('history');
    expect(json.cases[0]!.series[0]!.points[2]!.changePoint).toBe('slower');
    expect(() => bmfReporter.render(view, {})).toThrow(/bmf/);
  });

  it('html page data: a series per variant, change points with their line', () => {
    const data = historyPageData(view);
    expect(data.cases).toHaveLength(3);
    expect(data.cases[0]!.series[0]!.points).toHaveLength(4);
    expect(data.cases[0]!.changes).toEqual([{ kind: 'slower', text: expect.stringContaining('▲ node@24 at run 3') }]);
  });

  it('sparkline: lowest to highest over eight levels, a space for a missing figure', () => {
    expect(sparkline([1, 2, undefined, 8])).toBe('▁▂ █');
    expect(sparkline([5, 5])).toBe('▄▄');
  });
});
