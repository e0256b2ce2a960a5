/**
 * The word beside a ratio is read from the interval printed with it, in every
 * reporter: "faster"/"slower" (and "<1%") only when the interval excludes 1,
 * "undecided", "=" or inconclusive/equivalent only when it holds 1.
 */
import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { benchView, pairedComparisonView, reporterFor } from '../src/index.ts';

const cases = Array.from({ length: 16 }, (_, i) => ({ id: `case ${i}`, ns: 1000 * (i + 1) }));
// Effects from none to 1.8× either way, some near the threshold.
const factors = [1, 1.004, 1.02, 0.97, 1.05, 0.95, 1.2, 0.56, 1.8, 1, 1.01, 0.99, 1.3, 1, 1.003, 0.9];

function arms(seed: number): { id: string; factor: number; overrides: Record<string, { factor: number }> }[] {
  return ['node@26', 'node@24', 'node@22', 'node@20'].map((id, a) => ({
    id,
    factor: 1,
    overrides: Object.fromEntries(cases.map((c, i) => [c.id, { factor: a === 0 ? 1 : factors[(i + a + seed) % factors.length]! }])),
  }));
}

/** Every "[lo–hi]" or "(lo–hi)" in a line with the word before it, as [word, lo, hi]. */
function wordsWithIntervals(text: string): [string, number, number][] {
  const out: [string, number, number][] = [];
  const re = /(faster <1%|slower <1%|faster|slower|undecided|=|equivalent|inconclusive|fewer|more)[^[(\n]*?[[(](\d+\.\d+)–(\d+\.\d+)[\])]/g;
  for (const m of text.matchAll(re)) out.push([m[1]!, Number(m[2]), Number(m[3])]);
  return out;
}

describe('the word and the interval beside it agree', () => {
  it('in the bench view and the terminal and markdown tables, over 20 seeded four-runtime tables of 6 processes', () => {
    let checked = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const run = syntheticRun({ cases, arms: arms(seed), rounds: 6, seed, sigma: 0.03 });
      const view = benchView(run);
      for (const row of view.cases.flatMap((c) => c.rows)) {
        const r = row.relative;
        if (!r) continue;
        const excludes = r.ci[0] > 1 || r.ci[1] < 1;
        expect(['faster', 'slower', 'small'].includes(r.verdict), `${row.caseId} ${row.variantId} ${r.verdict} [${r.ci}]`).toBe(excludes);
        checked++;
      }
      for (const format of ['terminal', 'markdown'] as const) {
        const text = reporterFor(format)!.render(view, { color: false, columns: 200 }) as string;
        const found = wordsWithIntervals(text);
        expect(found.length, format).toBeGreaterThanOrEqual(40);
        for (const [word, lo, hi] of found) {
          // A "faster" interval is printed turned (baseline over this one): both ends above 1 then.
          const excludes = lo > 1 || hi < 1;
          if (['undecided', '=', 'equivalent', 'inconclusive'].includes(word)) expect(excludes, `${format}: ${word} [${lo}–${hi}]`).toBe(false);
          else expect(excludes, `${format}: ${word} [${lo}–${hi}]`).toBe(true);
        }
      }
    }
    expect(checked).toBe(20 * 16 * 3);
  });

  it('in the comparison view and its json', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const run = syntheticRun({ mode: 'compare', cases, arms: arms(seed).slice(0, 2), rounds: 10, seed });
      const view = pairedComparisonView(run);
      const json = JSON.parse(reporterFor("json")!.render(view, { color: false }) as string) as { sections: { cases: { comparison?: { verdict: string; ci: [number, number | null] } }[] }[] };
      for (const c of json.sections.flatMap((s) => s.cases)) {
        if (!c.comparison) continue;
        const [lo, hi] = c.comparison.ci;
        const excludes = hi !== null && (lo > 1 || hi < 1);
        expect(['faster', 'slower', 'small'].includes(c.comparison.verdict)).toBe(excludes);
      }
    }
  });
});
