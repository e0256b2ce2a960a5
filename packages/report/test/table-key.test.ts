/**
 * What a table says under its last row: by default one key (the intervals'
 * level and how to read the words), with --explain the method in full; and
 * the plurals of every count the message templates print.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { benchKey, benchLegend, comparisonCells, comparisonKey, designLine, legend } from '../src/cells/run.ts';
import { counted } from '../src/text.ts';
import { benchView, pairedComparisonView, reporterFor } from '../src/index.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const load = (name: string) => parseRun(JSON.parse(readFileSync(join(root, 'results', name), 'utf8')), name);
const benchRun = load('20261124-080039Z-json-reviver.json');
const compareRun = load('20261121-125130Z-json-reviver-compare.json');
const terminal = reporterFor('terminal')!;

/** The lines after a terminal table's last row, the geomean's and the budget count's asides set apart (a row starts with two spaces and a runtime). */
function linesAfterTable(text: string): string[] {
  const lines = text.trimEnd().split('\n');
  const last = lines.findLastIndex((l) => /^ {2}\S/.test(l));
  const after = lines.slice(last + 1);
  const geomean = after.findIndex((l) => l.startsWith('geomean'));
  // The geomean wraps onto lines of its own until the next sentence starts; so does the count of rows marked *.
  const geomeanEnd = geomean < 0 ? -1 : after.findIndex((l, i) => i > geomean && /^\d+(\.\d+)?% intervals|^--explain|^\* /.test(l));
  const asides = geomean < 0 ? after : [...after.slice(0, geomean), ...after.slice(geomeanEnd < 0 ? after.length : geomeanEnd)];
  const budget = asides.findIndex((l) => l.startsWith('* '));
  const budgetEnd = budget < 0 ? -1 : asides.findIndex((l, i) => i > budget && /^\d+(\.\d+)?% intervals|^--explain/.test(l));
  return budget < 0 ? asides : [...asides.slice(0, budget), ...asides.slice(budgetEnd < 0 ? asides.length : budgetEnd)];
}

describe('under a table', () => {
  const view = benchView(benchRun);
  it('says by default in two lines at 100 columns the intervals’ level, the words and where the method is', () => {
    const out = terminal.render(view, { color: false, columns: 100 });
    const after = linesAfterTable(out);
    // The CLI adds one line (where the run was saved): 3 in all.
    expect(after.length).toBeLessThanOrEqual(2);
    const key = after.join(' ');
    expect(key).toMatch(/^97\.\d\d% intervals \(95% over 48 ratios\): faster\/slower: excludes 1, change >1%/);
    expect(key).toContain('=: within ±1%; undecided: holds 1. --explain: the method.');
    // The rows marked *, counted once above the key: the undecided ones among those the budget ran out on.
    expect(out.replace(/\n(?!\d+\.\d+% intervals)/g, ' ')).toContain('* 14 rows undecided within --max-rounds 30 / --max-time 60 s: raise --max-time to decide them');
    expect(out).not.toContain('bootstrap over processes');
  });

  it('stays within two lines at 100 columns when rows carry marks, and --explain says what each mark means and where', () => {
    // Every process of every result "slowed down", and every row skewed: the most marks a default table can name.
    const marked = benchView({
      ...benchRun,
      results: benchRun.results.map((r) => ({ ...r, rounds: r.rounds.map((round) => ({ ...round, steadyState: { class: 'slowdown' as const } })) })),
    });
    for (const row of marked.cases.flatMap((c) => c.rows)) row.skew = 'mean 2× the median';
    const after = linesAfterTable(terminal.render(marked, { color: false, columns: 100 }));
    expect(after.length).toBeLessThanOrEqual(2);
    expect(after.join(' ')).toMatch(/--explain: the method, (marks s ↗|the marks)\.$/);
    const explained = terminal.render(marked, { color: false, columns: 100, explain: true }).replace(/\s+/g, ' ');
    expect(explained).toContain('marks: s the mean is ≥ 1.5× the median');
    expect(explained).toMatch(/steady state \(from each process's warmup and samples.*\): node · parse \/ no reviver \[size=10kb\]: \d+ of \d+ processes slower once steady/);
  });

  it('says with --explain what it said before: the medians, the intervals, the rounds and the wider layout', () => {
    const out = terminal.render(view, { color: false, columns: 100, explain: true }).replace(/\s+/g, ' ');
    for (const line of benchLegend(view)) expect(out).toContain(line.replace(/\s+/g, ' '));
    expect(out).toContain("CI: the median's interval, a bootstrap over processes");
    expect(out).toContain('a wider terminal adds');
    expect(out).not.toContain(benchKey(view));
  });

  it('under a comparison: the key by default, the design and the rules with --explain', () => {
    const comparison = pairedComparisonView(compareRun);
    const plain = terminal.render(comparison, { color: false, columns: 100 }).replace(/\s+/g, ' ');
    expect(plain).toContain(comparisonKey(comparison));
    expect(plain).not.toContain('Benjamini');
    const explained = terminal.render(comparison, { color: false, columns: 100, explain: true }).replace(/\s+/g, ' ');
    expect(explained).toContain(designLine(comparison));
    expect(explained).toContain(legend(comparison).replace(/\s+/g, ' '));
  });

  it('markdown carries the method whatever --explain says', () => {
    const md = reporterFor('markdown')!.render(view, { color: false, columns: 100 });
    expect(md).toContain('bootstrap over processes');
  });
});

describe('counts in messages', () => {
  it('counted() gives each noun its English plural', () => {
    expect([1, 2].map((n) => counted(n, 'process'))).toEqual(['1 process', '2 processes']);
    expect([1, 2].map((n) => counted(n, 'process pair'))).toEqual(['1 process pair', '2 process pairs']);
    expect([1, 3].map((n) => counted(n, 'comparison'))).toEqual(['1 comparison', '3 comparisons']);
    expect(counted('1', 'match')).toBe('1 match');
  });

  it('renders the templates with 1 and with 2 and never says "1 comparisons" or "processs"', () => {
    const comparison = pairedComparisonView(compareRun);
    const row = comparison.sections[0]!.cases.find((c) => c.comparison)!;
    const texts: string[] = [];
    for (const n of [1, 2]) {
      const one = { ...comparison, sections: comparison.sections.map((s) => ({ ...s, cases: s.cases.filter((c) => c.comparison).slice(0, n) })) };
      texts.push(legend(one), comparisonKey(one));
      for (const pairing of ['paired', 'unpaired'] as const) {
        const undecided = { ...row, comparison: { ...row.comparison!, verdict: 'inconclusive' as const, units: 10, unitsToDecide: 10 + n } };
        texts.push(comparisonCells(undecided, { pairing, threshold: 0.01 }).detail);
        const noInterval = { ...row, comparison: { ...row.comparison!, verdict: 'inconclusive' as const, units: n, ci: [0.9, Infinity] as [number, number] } };
        texts.push(comparisonCells(noInterval, { pairing, threshold: 0.01 }).detail);
      }
    }
    const all = texts.join('\n');
    expect(all).toContain('~1 more process pair to decide');
    expect(all).toContain('~2 more processes a run to decide');
    expect(all).toContain('Benjamini–Hochberg over the 1 comparison.');
    expect(all).toContain('(95% over 1 ratio)');
    expect(all).not.toMatch(/processs|\b1 (comparisons|ratios|process pairs|processes|rows|cases|rounds)\b/);
  });

  it('no source of the report or the CLI makes a plural by hand ("s" after a count): counted() does', () => {
    const handMade = /=== 1 \? '' : 's'/;
    const offenders: string[] = [];
    for (const dir of ['packages/report/src', 'packages/cli/src']) {
      for (const file of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
        if (handMade.test(readFileSync(join(root, dir, file), 'utf8'))) offenders.push(join(dir, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
