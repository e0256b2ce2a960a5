/**
 * One interval level a screen: every interval a bench table or a comparison
 * shows (the ratios, the medians' CI, the geomeans) is read at the level the
 * ratios were adjusted to, which the key names once; the page's summary says
 * a bench ratio once, in the verdict's words.
 */
import { describe, expect, it } from 'vitest';
import { processMedianInterval, summarizeRounds } from '@rtbench/stats';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { benchView, pairedComparisonView, reporterFor } from '../src/index.ts';
import { benchSummary, comparisonSummary } from '../src/html/summary-data.ts';
import { geomeanText } from '../src/cells/run.ts';
import { rowStats } from '../src/views/bench.ts';

const cases = Array.from({ length: 8 }, (_, i) => ({ id: `case ${i}`, ns: 1000 * (i + 1) }));
const arms = ['node@26', 'node@24', 'bun'].map((id, a) => ({ id, factor: 1 + a * 0.01 }));
const run = syntheticRun({ cases, arms, rounds: 8, seed: 7, sigma: 0.03 });

describe('one interval level a screen', () => {
  it("reads a median's interval at any level from the bootstrap it was summarized with", () => {
    const processMedians = [10, 11, 9.5, 10.4, 12, 9.8, 10.9, 10.1];
    const summary = summarizeRounds(processMedians.map((m) => [m]));
    expect(processMedianInterval(processMedians, 0.95)).toEqual(summary.ci);
    const [lo95, hi95] = processMedianInterval(processMedians, 0.95)!;
    const [lo99, hi99] = processMedianInterval(processMedians, 0.99)!;
    expect(lo99).toBeLessThanOrEqual(lo95);
    expect(hi99).toBeGreaterThanOrEqual(hi95);
    expect(hi99 - lo99).toBeGreaterThan(hi95 - lo95);
    expect(processMedianInterval(processMedians.slice(0, 4), 0.95)).toBeUndefined();
  });

  it('a bench table: the medians and the geomeans at the ratios’ adjusted level, named once', () => {
    const view = benchView(run);
    const ratios = view.cases.flatMap((c) => c.rows.flatMap((r) => (r.relative ? [r.relative] : [])));
    expect(ratios.length).toBe(16);
    expect(new Set(ratios.map((r) => r.confidence))).toEqual(new Set([view.level]));
    expect(view.level).toBeGreaterThan(view.confidence);
    for (const row of view.cases.flatMap((c) => c.rows)) {
      const own = rowStats(run.results.find((r) => r.caseId === row.caseId && r.variantId === row.variantId)!)!;
      expect(row.stats!.ci).toEqual(processMedianInterval(own.processMedians!, view.level));
    }
    for (const g of view.geomeans!) expect(g.ci[1] - g.ci[0]).toBeGreaterThan(0);
    const text = reporterFor('terminal')!.render(view, { color: false, columns: 100 }) as string;
    const level = `${+(view.level * 100).toFixed(2)}%`;
    // The level is said once, in the key; no other level is named on the screen.
    expect(text.split(level).length - 1).toBe(1);
    expect(text).not.toMatch(/\b95% CI\b/);
    expect(text.match(/\d+(\.\d+)?% (CI|intervals?)/g)).toEqual([`${level} intervals`]);
  });

  it('a comparison: one level named, the one its ratios were adjusted to', () => {
    const compare = syntheticRun({ mode: 'compare', cases, arms: arms.slice(0, 2), rounds: 10, seed: 3, sigma: 0.03 });
    const view = pairedComparisonView(compare);
    expect(view.level).toBeGreaterThan(view.confidence);
    expect(new Set(view.sections[0]!.cases.map((c) => c.comparison!.confidence))).toEqual(new Set([view.level]));
    const text = reporterFor('terminal')!.render(view, { color: false, columns: 100 }) as string;
    expect(text.match(/\d+(\.\d+)?% (CI|intervals?)/g)).toEqual([`${+(view.level * 100).toFixed(2)}% intervals`]);
  });

  it("the page's summary says a bench ratio once, in the verdict's words", () => {
    const view = benchView(run);
    const summary = benchSummary(view, (c) => c, (v) => v);
    for (const row of summary.rows) {
      expect(row.ratioText).toBe('');
      expect(row.verdictText).toMatch(/^(undecided|=? ?\d\.\d+× (faster|slower))/);
    }
  });

  it("a geomean is said as its table says a ratio: a bench table's words, a comparison's ratio and word", () => {
    expect(geomeanText({ ratio: 1.013, ci: [1.004, 1.023] }, 0.01, undefined, 'bench')).toBe('1.013× slower [1.004–1.023]');
    expect(geomeanText({ ratio: 0.8, ci: [0.78, 0.82] }, 0.01, undefined, 'bench')).toBe('1.25× faster [1.22–1.28]');
    expect(geomeanText({ ratio: 1.004, ci: [0.997, 1.012] }, 0.01, undefined, 'bench')).toBe('undecided [0.997–1.012]');
    expect(geomeanText({ ratio: 1.004, ci: [0.997, 1.012] }, 0.01, undefined, 'comparison')).toBe('1.004 [0.997–1.012] inconclusive');
    expect(geomeanText({ ratio: 0.948, ci: [0.93, 0.97] }, 0.01, undefined, 'comparison')).toBe('0.948 [0.930–0.970] faster, −5.2% time');
    const view = benchView(run);
    const texts = view.geomeans!.map((g) => geomeanText(g, view.threshold, undefined, 'bench'));
    for (const t of texts) expect(t).toMatch(/^(undecided \[|=? ?\d\.\d+× (faster|slower))/);
    const terminal = reporterFor('terminal')!.render(view, { color: false, columns: 100 }) as string;
    const markdown = reporterFor('markdown')!.render(view, {}) as string;
    for (const t of texts) {
      expect(terminal.replace(/\s+/g, ' ')).toContain(t);
      expect(markdown).toContain(t);
    }
    expect(benchSummary(view, (c) => c, (v) => v).geomeans.map((g) => g.text)).toEqual(texts);
    const compare = pairedComparisonView(syntheticRun({ mode: 'compare', cases, arms: arms.slice(0, 2), rounds: 10, seed: 3, sigma: 0.03 }));
    const g = compare.sections[0]!.geomean!;
    const said = geomeanText(g, compare.threshold, undefined, 'comparison');
    expect(said).toMatch(/^\d\.\d{3} \[[\d.]+–[\d.]+\] (faster|slower|equivalent|inconclusive)/);
    expect((reporterFor('terminal')!.render(compare, { color: false, columns: 100 }) as string).replace(/\s+/g, ' ')).toContain(said);
    expect(reporterFor('markdown')!.render(compare, {}) as string).toContain(said);
    expect(comparisonSummary(compare, (c) => c, (a) => a).geomeans.map((x) => x.text)).toEqual([said]);
  });
});
