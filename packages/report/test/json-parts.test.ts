/**
 * A history is written as JSON in parts (a point a part) so that thousands of
 * runs are never one string: the parts joined must be the text the json
 * reporter renders whole, for any plain data and for a history view, also
 * when a streamed series is written a batch of points a part.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { jsonParts } from '../src/reporters/json-parts.ts';
import { jsonReporter, streamedHistoryJson } from '../src/reporters/json.ts';
import { historyView } from '../src/views/history.ts';

describe('JSON in parts', () => {
  it('joined, is JSON.stringify of any plain value, at any depth', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 6 }), (value, depth) => {
        expect([...jsonParts(value, depth)].join('')).toBe(JSON.stringify(value));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves out what JSON.stringify leaves out of objects and writes null for it in arrays', () => {
    const value = { a: undefined, b: [undefined, () => 1, 2], c: { d: Symbol('x'), e: 'é\u2028' }, f: -0 };
    expect([...jsonParts(value, 3)].join('')).toBe(JSON.stringify(value));
  });

  it('of a history view, is the json reporter’s text, a point a part', () => {
    const view = historyView(historyRuns([{ factor: 1 }, { factor: 1.2 }, { factor: 1.2 }], { cases: [{ id: 'parse', ns: 1000 }], rounds: 10, seed: 5 }).map((run, i) => ({ run, file: `/results/run-${i}.json` })));
    const parts = [...jsonReporter.parts!(view)!];
    expect(parts.join('')).toBe(jsonReporter.render(view, { color: false, columns: 100 }));
    const points = view.cases[0]!.series[0]!.points;
    expect(parts).toContain(JSON.stringify(points[1]));
  });

  it('of a history streamed a series at a time, is the json reporter’s text for a series of any length, in parts of many points', async () => {
    const view = historyView(historyRuns([{ factor: 1 }, { factor: 1.2 }], { cases: [{ id: 'parse', ns: 1000 }], rounds: 10, seed: 5 }).map((run, i) => ({ run, file: `/results/run-${i}.json` })));
    const [first, second] = view.cases[0]!.series[0]!.points;
    // 0, 1, 256 and 600 points: empty, one part, exactly one batch, and batches with a remainder.
    for (const length of [0, 1, 256, 600]) {
      const points = Array.from({ length }, (_, i) => ({ ...(i % 2 ? second! : first!), run: i }));
      const whole = { ...view, cases: [{ ...view.cases[0]!, series: [{ ...view.cases[0]!.series[0]!, points }] }] };
      const bare = { ...whole, cases: [{ ...whole.cases[0]!, series: [{ ...whole.cases[0]!.series[0]!, points: [] }] }] };
      const parts: string[] = [];
      for await (const part of streamedHistoryJson(bare, async () => points)) parts.push(part);
      expect(parts.join('')).toBe(jsonReporter.render(whole, { color: false, columns: 100 }));
      if (length === 600) expect(parts.filter((p) => p.includes('"run":599')).length).toBe(1);
      if (length === 600) expect(parts.length).toBeLessThan(length);
    }
  });
});
