/**
 * A case that did different work gives no verdict on any of its rows — its
 * ratio and a request case's p50 and p99 rows — in any format, and takes no
 * place in the false-discovery family; the same run with the same work
 * does give them (the check could fail).
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { REPORTERS } from '../src/reporters/index.ts';
import { pairedComparisonView } from '../src/views/comparison.ts';

const VERDICT_WORDS = /\b(slower|faster)\b/;

function run(differentWork: boolean): RunRecord {
  const r = syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1.6 }], rounds: 10, requests: 60 });
  if (differentWork) {
    for (const result of r.results) if (result.variantId === 'bun') for (const round of result.rounds) round.digest = { hash: 'another', summary: '60 responses' };
    r.digestMismatches = [{ caseId: r.cases[0]!.id, digests: { node: 'feedfacefeedface', bun: 'another' } }];
  }
  return r;
}

/** The view of each run, made once: every format renders the same two views (a reporter only reads its view). */
const views = new Map<boolean, ReturnType<typeof pairedComparisonView>>();
const viewOf = (differentWork: boolean): ReturnType<typeof pairedComparisonView> => views.get(differentWork) ?? views.set(differentWork, pairedComparisonView(run(differentWork))).get(differentWork)!;

describe('different work has no verdict', () => {
  it('on the case or its quantile rows, and none of them is in the family', () => {
    const same = viewOf(false);
    expect(same.sections[0]!.cases.map((c) => c.comparison?.verdict)).toEqual(['slower', 'slower', 'slower']);
    const view = viewOf(true);
    const rows = view.sections[0]!.cases;
    expect(rows.map((c) => c.label)).toEqual([expect.any(String), expect.stringMatching(/· p50$/), expect.stringMatching(/· p99$/)]);
    for (const row of rows) {
      expect(row.digests).toBeDefined();
      expect(row.comparison).toBeUndefined();
    }
  });

  /** Where a format states a row's verdict: a verdict field (data in JSON or a page), or a text line with a verdict word that is not the method's explanation of the words. */
  const verdicts = (text: string, data: boolean): string[] =>
    data ? [...text.matchAll(/"(verdict|word|verdictText)":\s*"(slower|faster)[^"]*"/g)].map((m) => m[0]) : text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((line) => VERDICT_WORDS.test(line) && !/faster\/slower|candidate is faster|faster <1%|faster &lt;1%/.test(line));
  // The formats that state verdicts at all (the others carry samples, statistics or claims).
  const STATING = new Set(['terminal', 'markdown', 'json', 'html']);
  for (const [format, reporter] of Object.entries(REPORTERS)) {
    it(`in ${format}`, () => {
      const render = (differentWork: boolean): string => reporter.render(viewOf(differentWork), { columns: 160 });
      const data = format === 'json' || format === 'html';
      expect(verdicts(render(true), data)).toEqual([]);
      if (STATING.has(format)) expect(verdicts(render(false), data)).not.toEqual([]);
    });
  }
});
