/**
 * A history of many runs shows the newest and those of its change points in
 * the terminal and markdown: the runs left out are said, the change points
 * and the count of comparisons stay those of every run.
 */
import { describe, expect, it } from 'vitest';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { renderHistoryMarkdown, renderHistoryTerminal } from '../src/reporters/history.ts';
import { changePoints, changeSummary, historyView } from '../src/views/history.ts';
import { historyWindow, withWindowNote } from '../src/views/history-window.ts';

/** Ten runs; the fourth is 20% slower and the rest stay so. */
function tenRuns() {
  const factors = [1, 1, 1, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2];
  return historyView(historyRuns(factors.map((factor) => ({ factor })), { cases: [{ id: 'parse', ns: 1000 }], rounds: 10, seed: 7 }).map((run, i) => ({ run, file: `/results/run-${i + 1}.json` })));
}

describe('a history window', () => {
  it('shows the newest runs and those of each change point, and says how many it leaves out', () => {
    const whole = tenRuns();
    expect(changePoints(whole).map((c) => c.point.run)).toEqual([3]);
    const shown = historyWindow(whole, 2);
    expect(shown.window?.runs).toEqual([2, 3, 8, 9]);
    expect(shown.cases[0]!.series[0]!.points.map((p) => p.run)).toEqual([2, 3, 8, 9]);
    expect(changePoints(shown)).toHaveLength(1);
    expect(changeSummary(shown)).toBe(changeSummary(whole));
    expect(shown.notes.at(-1)?.text).toMatch(/^6 runs of 10 not shown: the newest 2 are/);
    const text = renderHistoryTerminal(shown, { color: false, columns: 200 });
    expect(text).toContain('run-9.json');
    expect(text).not.toContain('run-6.json');
    expect(renderHistoryMarkdown(shown)).not.toContain('run-6.json');
    expect(text).toContain('history of');
    expect(text).toContain('10 runs');
    // The legend's level is over every comparison the view made, shown or not.
    expect(text.replace(/\s+/g, ' ')).toContain('% over 9 comparisons)');
  });

  it('is made without the points it leaves out, as the whole view cut to it', () => {
    // Steps, a new build, a change of work and a 2% shift in noise: change points, comparisons outside the family and near misses.
    const steps = [1, 1, 1, 1, 1.2, 1.2, 1.2, 1.2, 1.02, 1.02, 1.02, 1.02, 1.02, 0.8, 0.8, 0.8].map((factor, i) => ({
      factor,
      ...(i === 11 ? { digest: 'feedfacefeedface' } : {}),
      ...(i >= 8 ? { binary: { version: '26.1.0', sha256: 'b'.repeat(64) } } : {}),
    }));
    const cases = [{ id: 'parse', ns: 1000 }, { id: 'stringify', ns: 3000 }];
    for (const seed of [3, 17]) {
      const inputs = historyRuns(steps, { cases, rounds: 8, seed, variants: ['node@24', 'node@26'] }).map((run, i) => ({ run, file: `/results/run-${i + 1}.json` }));
      const whole = historyView(inputs);
      expect(changePoints(whole).length).toBeGreaterThan(0);
      for (const last of [1, 4]) expect(withWindowNote(historyView(inputs, { last }))).toEqual(historyWindow(whole, last));
      expect(historyView(inputs, { last: 1 }).window?.runs.length).toBeLessThan(steps.length - 4);
      expect(historyView(inputs, { last: steps.length })).toEqual(whole);
    }
  });

  it('is the view itself when it would show every run', () => {
    const whole = tenRuns();
    expect(historyWindow(whole, 10)).toBe(whole);
  });
});
