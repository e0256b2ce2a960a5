/**
 * The comparison table's one column list (columns/comparison.ts): a column
 * added to it is in the terminal and markdown tables and the page's forest
 * tables, with its head and each case's own cell, and the page keeps the
 * verdict and the ratio next to the plot.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { COMPARISON_COLUMNS, comparisonPageColumns, type ComparisonColumn } from '../src/columns/comparison.ts';
import { pageData } from '../src/html/page-data.ts';
import { reporterFor, viewOfRun, type ComparisonView } from '../src/index.ts';

const results = join(import.meta.dirname, '..', '..', '..', 'results');
const comparison = viewOfRun(parseRun(JSON.parse(readFileSync(join(results, '20261121-130300Z-gc-pressure-compare.json'), 'utf8')), 'compare')) as ComparisonView;
const render = (format: string): string => reporterFor(format)!.render(comparison, { color: false, columns: 400 });

/** A column no format knows of: its cell carries the case's q, so each case's own cell can be found. */
const probe: ComparisonColumn = {
  id: 'probe',
  head: (a) => `probe of ${a.candidate}`,
  text: (t) => `p~${t.baseline}~${t.q}`,
  align: 'right',
  page: { head: 'probe', th: 'num', td: 'num probe', label: 'probe' },
};

describe('the comparison table\'s one column list', () => {
  afterEach(() => {
    const at = COMPARISON_COLUMNS.indexOf(probe);
    if (at >= 0) COMPARISON_COLUMNS.splice(at, 1);
  });

  it('a column added to it is in the terminal and markdown tables and the page\'s forest tables', () => {
    for (const format of ['terminal', 'markdown']) expect(render(format)).not.toContain('probe');
    COMPARISON_COLUMNS.push(probe);
    const cases = comparison.sections.flatMap((s) => s.cases);
    expect(cases.length).toBeGreaterThan(0);

    const terminal = render('terminal').split('\n');
    const candidate = comparison.sections[0]!.candidate.label;
    expect(terminal.find((l) => l.includes('ratio [interval]'))).toMatch(new RegExp(`probe of ${candidate.replace(/[.*+?^${}()|[\]\\@]/g, '\\$&')}$`));
    expect(terminal.filter((l) => /p~.+~/.test(l))).toHaveLength(cases.length);

    const markdown = render('markdown').split('\n');
    const head = markdown.findIndex((l) => l.startsWith('| case |'));
    expect(markdown[head]).toMatch(/ \| probe of `[^`]+` \|$/);
    expect(markdown[head + 1]).toBe('|---|--:|--:|--:|---|--:|--:|');
    expect(markdown.filter((l) => /\| p~[^|]+~[^|]+ \|$/.test(l))).toHaveLength(cases.length);

    const page = pageData(comparison);
    for (const section of page.sections) {
      expect(section.heads.at(-1)).toEqual({ text: 'probe', class: 'num' });
      for (const row of section.rows) expect(row.cells.at(-1)).toEqual({ text: `p~${row.texts.baseline}~${row.texts.q}`, class: 'num probe', label: 'probe' });
      if (section.geomean) expect(section.geomean.cells.at(-1)).toEqual({ text: '' });
    }
  });

  it('sets the verdict and the ratio first on the page, the rest as declared', () => {
    expect(comparisonPageColumns().map((c) => c.id)).toEqual(['verdict', 'ratio', 'baseline', 'candidate', 'q']);
    COMPARISON_COLUMNS.push(probe);
    expect(comparisonPageColumns().map((c) => c.id)).toEqual(['verdict', 'ratio', 'baseline', 'candidate', 'q', 'probe']);
    const page = pageData(comparison);
    const section = page.sections[0]!;
    const compared = section.rows.find((r) => r.texts.ratio)!;
    expect(compared.cells[0]).toEqual({ text: `${compared.texts.word} ${compared.texts.detail}`, class: `verdict ${compared.texts.verdict}` });
    expect(section.geomean?.cells.map((c) => c.text)).toEqual(['', section.geomean!.text, '', '', '', '']);
  });

  it('escapes a case\'s reason for no verdict once in markdown', () => {
    const section = comparison.sections[0]!;
    const view: ComparisonView = { ...comparison, sections: [{ ...section, cases: [...section.cases, { caseId: 'absent', label: 'absent', note: 'needs a < b & c' }] }] };
    const row = reporterFor('markdown')!.render(view, {}).split('\n').find((l) => l.startsWith('| absent |'));
    expect(row).toContain('| needs a &lt; b &amp; c |');
  });
});
