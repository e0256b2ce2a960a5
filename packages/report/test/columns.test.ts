/**
 * The one column list (columns/results.ts): a column added to it is in every
 * tabular format — the terminal and markdown tables, csv-stats and the HTML
 * page's case tables — with its head and each row's own cell; and csv-stats
 * keeps the header users' scripts read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { COLUMNS, type Column } from '../src/columns/results.ts';
import { pageData } from '../src/html/page-data.ts';
import { STATS_COLUMNS } from '../src/reporters/csv.ts';
import { reporterFor, viewOfRun, type BenchView, type ComparisonView } from '../src/index.ts';

const results = join(import.meta.dirname, '..', '..', '..', 'results');
const load = (name: string) => parseRun(JSON.parse(readFileSync(join(results, name), 'utf8')), name);
const bench = viewOfRun(load('20261121-124315Z-json-reviver.json')) as BenchView;
const comparison = viewOfRun(load('20261121-130300Z-gc-pressure-compare.json')) as ComparisonView;
const render = (format: string, view: BenchView | ComparisonView): string => reporterFor(format)!.render(view, { color: false, columns: 400 });

/** A column no format knows of: its cell names the row, so each row's own cell can be found. */
const probe: Column = {
  id: 'probe',
  head: (t) => `probe vs ${t.baseline}`,
  text: (r) => `p${r.result.rounds.length}~${r.result.variantId}`,
  align: 'right',
  table: {},
  page: { class: 'probe', num: true },
  csv: { fields: [{ key: 'probe_rounds', value: (r) => r.result.rounds.length * 3 }] },
};
const list = COLUMNS as unknown as Column[];

/** A CSV's lines, each as its fields split at commas (right for the header, and for a last field that is a plain number). */
function csvLines(text: string): string[][] {
  return text.trimEnd().split('\n').map((line) => line.split(','));
}

describe('the one column list', () => {
  afterEach(() => {
    const at = list.indexOf(probe);
    if (at >= 0) list.splice(at, 1);
  });

  it('a column added to it is in the terminal and markdown tables, csv-stats and the page data, each row with its own cell', () => {
    for (const format of ['terminal', 'markdown', 'csv-stats']) expect(render(format, bench)).not.toContain('probe');
    list.push(probe);
    const rows = bench.cases.flatMap((c) => c.rows.filter((r) => r.stats));

    const terminal = render('terminal', bench).split('\n');
    expect(terminal.find((l) => l.includes('median/op'))).toMatch(/ probe vs node$/);
    for (const r of rows) expect(terminal.filter((l) => l.includes(` p${r.result.rounds.length}~${r.variantId}`)).length, r.variantId).toBeGreaterThan(0);
    expect(terminal.filter((l) => /p\d+~/.test(l))).toHaveLength(rows.length);

    const markdown = render('markdown', bench).split('\n');
    expect(markdown.find((l) => l.startsWith('| case |'))).toMatch(/ \| probe vs node \|$/);
    expect(markdown.find((l) => l.startsWith('|---'))).toMatch(/\|--:\|$/);
    for (const c of bench.cases) for (const r of c.rows.filter((x) => x.stats)) expect(markdown.filter((l) => l.endsWith(` | p${r.result.rounds.length}~${r.variantId} |`)).length).toBeGreaterThan(0);

    for (const view of [bench, comparison]) {
      const [header, ...csv] = csvLines(render('csv-stats', view));
      expect(header!.at(-1)).toBe('probe_rounds');
      const runs = view.kind === 'bench' ? [view.run] : view.runs.map((x) => x.run);
      expect(csv.map((row) => row.at(-1))).toEqual(runs.flatMap((run) => run.results.map((r) => String(r.rounds.length * 3))));

      const data = pageData(view);
      expect(data.table.columns.at(-1)).toEqual({ id: 'probe', head: view.kind === 'bench' ? 'probe vs node' : 'probe vs node@26', th: 'num', td: 'num probe', coloured: false });
      for (const c of data.cases) {
        for (const cell of c.cells) {
          const variant = data.variants.find((v) => v.key === cell.variant)!;
          const id = variant.label;
          expect((cell as Record<string, unknown>)['probeText'], `${c.id} / ${id}`).toMatch(new RegExp(`^p\\d+~${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
        }
      }
    }
  });

  it("keeps csv-stats' published header: the keys users' scripts read, in their order", () => {
    expect(STATS_COLUMNS).toEqual([
      'run', 'case', 'variant', 'status', 'measure', 'unit', 'direction', 'rounds', 'samples', 'median', 'ci_low', 'ci_high', 'ci_half_width_rel', 'mean', 'min', 'p25', 'p75', 'max',
      'modes', 'baseline', 'ratio', 'ratio_ci_low', 'ratio_ci_high', 'verdict', 'q', 'target', 'reached', 'stopped_by',
    ]);
  });
});
