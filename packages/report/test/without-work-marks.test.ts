/**
 * A case without work in the reports (views/without-work.ts, the table's
 * marks and key, the verdict words): the cell the run flagged is marked ∅
 * with its sentence under the table, its ratio (and any ratio against it)
 * is shown with its interval and no word, in the table, in markdown and in a
 * comparison; a case that did work keeps its word.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { finishRun } from '../../saved-runs/src/record.ts';
import { benchRatiosWithoutWork, benchView, comparisonRatiosWithoutWork, pairedComparisonView, reporterFor } from '../src/index.ts';
import { pageData } from '../src/html/page-data.ts';
import { regressionsOf } from '@rtbench/verdicts';

/** node@24 50% slower on both cases; `folded` returned undefined on node@24 and ran at its floor on node@26. */
function run(mode: 'bench' | 'compare' = 'bench'): RunRecord {
  const r = syntheticRun({ mode, cases: [{ id: 'folded', ns: 1 }, { id: 'work', ns: 500 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.5 }], rounds: 12, sigma: 0.01 });
  const cell = (caseId: string, variantId: string) => r.results.find((x) => x.caseId === caseId && x.variantId === variantId)!;
  for (const round of cell('folded', 'node@24').rounds) round.digest = { ...round.digest, summary: 'undefined' };
  for (const round of cell('folded', 'node@26').rounds) round.floorNs = 0.98;
  for (const round of cell('work', 'node@26').rounds) round.floorNs = 0.98;
  finishRun(r, false);
  return r;
}

const render = (format: string, view: Parameters<NonNullable<ReturnType<typeof reporterFor>>['render']>[0]): string => reporterFor(format)!.render(view, { color: false, columns: 160 });
const line = (out: string, pattern: RegExp): string => out.split('\n').find((l) => pattern.test(l)) ?? '';

describe('a case without work in a table', () => {
  it('is said once per case and reason, naming every variant it holds for', () => {
    const r = run();
    for (const round of r.results.find((x) => x.caseId === 'folded' && x.variantId === 'node@26')!.rounds) {
      round.digest = { ...round.digest, summary: 'undefined' };
      delete round.floorNs;
    }
    finishRun(r, false);
    const out = render('terminal', benchView(r));
    expect(out.split('\n').filter((l) => l.startsWith('∅ '))).toEqual([expect.stringMatching(/^∅ folded \(node@26, node@24\): returns undefined/)]);
  });

  it('is marked ∅, said under the table, and its ratio has its interval and no word', () => {
    const view = benchView(run());
    const [folded, work] = view.cases;
    expect(folded!.rows.map((r) => r.withoutWork !== undefined)).toEqual([true, true]);
    expect(work!.rows.map((r) => r.withoutWork)).toEqual([undefined, undefined]);
    const out = render('terminal', view);
    const foldedRow = line(out, /node@24.*∅$/);
    expect(foldedRow).toMatch(/ 1\.\d+× \[1\.\d+–1\.\d+\]\s+∅$/);
    expect(foldedRow).not.toMatch(/slower|faster|≈|=/);
    expect(line(out, /^work\s/) + line(out, /^\s+node@24\s+7\d\d ns/)).toMatch(/slower \[/);
    const prose = out.replace(/\s+/g, ' ');
    // By default the key names the mark; --explain says what it means.
    expect(prose).toContain('marks ∅.');
    const explained = reporterFor('terminal')!.render(view, { color: false, columns: 160, explain: true }).replace(/\s+/g, ' ');
    expect(explained).toContain('∅ a case without work: it returns undefined, or its fastest process takes at most 1.25× an empty call');
    expect(explained).toContain('(2 rows)');
    expect(prose).toContain('∅ folded (node@24): returns undefined: there is no value to digest');
    expect(prose).toMatch(/∅ folded \(node@26\): its fastest process took \d\.\d+ ns per call, 1\.\d\d× an empty call timed by the same loop \(0\.980 ns\)/);
  });

  it('markdown gives the ratio no word and says why under the table', () => {
    const out = render('markdown', benchView(run()));
    const foldedRow = line(out, /^\| +\| node@24 \|/);
    expect(foldedRow).toMatch(/\| 1\.\d+× \[1\.\d+–1\.\d+\] \|/);
    expect(foldedRow).not.toMatch(/slower/);
    expect(out).toContain('> ∅ node@24 · folded: returns undefined');
  });
});

describe('a case without work in a comparison', () => {
  it('has its ratio and interval and no verdict, and each arm without work is said under the section', () => {
    const view = pairedComparisonView(run('compare'));
    const out = render('terminal', view);
    expect(line(out, /^folded /)).toMatch(/\[\d\.\d+–\d\.\d+\]\s+∅\s+without work: no verdict/);
    expect(line(out, /^work /)).toMatch(/slower/);
    expect(out).toMatch(/∅ node@26 · folded: without work: its fastest process took/);
    expect(out).toMatch(/∅ node@24 · folded: without work: returns undefined/);
  });
});

describe('a ratio with a case without work is never judged', () => {
  /** `folded` is node@24's 1.5× too, so a judge that looked would call it slower. */
  const threeCases = (mode: 'bench' | 'compare'): RunRecord => {
    const r = syntheticRun({ mode, cases: [{ id: 'folded', ns: 1 }, { id: 'work', ns: 500 }, { id: 'more', ns: 800 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.5 }], rounds: 12, sigma: 0.01 });
    for (const round of r.results.find((x) => x.caseId === 'folded' && x.variantId === 'node@24')!.rounds) round.digest = { ...round.digest, summary: 'undefined' };
    finishRun(r, false);
    return r;
  };

  it('is left out of the geomean, which says so, in the table, markdown and the page', () => {
    const view = benchView(threeCases('bench'));
    expect(view.geomeans).toEqual([expect.objectContaining({ variantId: 'node@24', cases: 2, excluded: 0, withoutWork: 1 })]);
    expect(view.geomeans![0]!.ratio).toBeGreaterThan(1.4);
    expect(render('terminal', view).replace(/\s+/g, ' ')).toContain('over 2 cases (1 case without work left out)');
    const comparison = pairedComparisonView(threeCases('compare'));
    expect(comparison.sections[0]!.geomean).toMatchObject({ cases: 2, withoutWork: 1 });
    expect(render('markdown', comparison)).toContain('over 2 cases (1 case without work left out)');
    const page = pageData(comparison);
    expect(page.sections[0]!.geomean?.leftOut).toBe(' (1 case without work left out)');
  });

  it('is no regression for --fail-on-regression, and is counted as not judged', () => {
    const view = benchView(threeCases('bench'));
    expect(view.cases[0]!.rows.find((r) => !r.isBaseline)!.relative?.verdict).toBe('slower');
    expect(regressionsOf(view, 0.1).map((r) => r.caseId)).toEqual(['work', 'more']);
    const comparison = pairedComparisonView(threeCases('compare'));
    expect(regressionsOf(comparison, 0.1).map((r) => r.caseId)).toEqual(['work', 'more']);
    expect([benchRatiosWithoutWork(view), comparisonRatiosWithoutWork(comparison)]).toEqual([1, 1]);
  });

  it('has no verdict colour on the page, in the summary and the forest plot', () => {
    for (const view of [benchView(threeCases('bench')), pairedComparisonView(threeCases('compare'))]) {
      const page = pageData(view);
      const verdicts = page.summary.rows.map((r) => r.verdict);
      expect(verdicts).toEqual(['inconclusive', 'slower', 'slower']);
      const folded = page.cases[0]!.cells.find((c) => c.relative);
      expect(folded?.relative?.verdict).toBe('inconclusive');
    }
    expect(pageData(pairedComparisonView(threeCases('compare'))).sections[0]!.rows[0]!.ratio?.verdict).toBe('inconclusive');
  });
});
