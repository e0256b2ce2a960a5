/**
 * The HTML page's data for request cases: per case and runtime the share of
 * warm requests above each CPU time, read from the saved requests, whose
 * height at the --cpu-limit is the share the table prints beside it; the
 * figures beside it are the terminal's and markdown's words.
 */
import { describe, expect, it } from 'vitest';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { overLimitText, requestMs, withInterval } from '../src/cells/cpu-per-request.ts';
import { pageData } from '../src/html/page-data.ts';
import { exceedancePoints } from '../src/html/cpu-per-request-data.ts';
import { reporterFor } from '../src/index.ts';
import { viewOfRun } from '../src/views/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

describe('exceedance points', () => {
  it('at each distinct CPU time, the share of requests at or above it', () => {
    expect(exceedancePoints([3, 1, 2, 2])).toEqual([
      [1, 1],
      [2, 0.75],
      [3, 0.25],
    ]);
  });

  it('keeps every request of the tail and thins the body to a few hundred points', () => {
    const requests = Array.from({ length: 5000 }, (_, i) => 1 + i / 1000);
    const points = exceedancePoints(requests);
    expect(points.length).toBeLessThan(450);
    expect(points.slice(-200).map(([ms]) => ms)).toEqual(requests.slice(-200).map((x) => +x.toPrecision(6)));
    expect(points[0]).toEqual([1, 1]);
    expect(points.at(-1)).toEqual([5.999, 1 / 5000]);
  });
});

describe('page data of a comparison of request cases with a CPU limit', () => {
  // A planted tail of +6 ms on every 50th request (×1.5 on the second arm): about 2% of requests over 5 ms.
  const run = syntheticRequestRun({ arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1, tailFactor: 1.5 }], rounds: 6 });
  const view = viewOfRun(run, { cpuLimitMs: 5 });
  const data = pageData(view);
  const [c] = data.cases;

  it('draws every runtime with the limit, the curve at the limit at the share the table prints', () => {
    expect(c!.requests!.limitMs).toBe(5);
    expect(c!.requests!.curves.map((curve) => curve.variant)).toEqual(['v0', 'v1']);
    for (const [i, curve] of c!.requests!.curves.entries()) {
      const row = view.cpuPerRequest!.rows[i]!;
      const over = row.distribution!.overLimit!;
      expect(over.count).toBeGreaterThan(0);
      // Drawn as steps, the curve's height at the limit is the height of its first point above it.
      expect(curve.points.find(([ms]) => ms > 5)![1]).toBeCloseTo(over.value, 12);
      expect(curve.points[0]![1]).toBe(1);
      expect(curve.points.at(-1)![1]).toBe(1 / row.distribution!.requests);
      expect(curve.overText).toBe(overLimitText(over));
      const cell = (head: string): string | undefined => curve.cells[c!.requests!.heads.findIndex((h) => h.text === head)];
      expect(cell('p99')).toBe(withInterval(row.distribution!.quantiles.p99, requestMs));
      expect(cell('> 5 ms')).toBe(overLimitText(over));
      expect(cell('requests')).toBe(`${row.distribution!.requests} in ${row.distribution!.processes}`);
    }
  });

  it('writes beside each runtime the words of the markdown table', () => {
    const markdown = String(reporterFor('markdown')!.render(view, {}));
    for (const curve of c!.requests!.curves) {
      expect(markdown).toContain(curve.overText!);
      for (const cell of curve.cells) expect(markdown).toContain(`| ${cell} |`);
    }
  });

  it('without --cpu-limit: the distributions, no limit and no share', () => {
    const unlimited = pageData(viewOfRun(run));
    expect(unlimited.cases[0]!.requests!.limitMs).toBeUndefined();
    expect(unlimited.cases[0]!.requests!.curves.every((curve) => curve.overText === undefined && curve.points.length > 0)).toBe(true);
  });

  it('a run of ordinary cases has none', () => {
    const ordinary = syntheticRun({ suite: 'plain', mode: 'compare', cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'x', factor: 1 }, { id: 'y', factor: 1 }], rounds: 4, seed: 1 });
    expect(pageData(viewOfRun(ordinary)).cases.some((x) => x.requests)).toBe(false);
  });
});
