/**
 * A case without work on real runtimes, one shared run: node and bun, an
 * empty case beside a small real one, --strict. The empty case is marked and
 * its ratio has no verdict word, the run saves the flag and every short
 * case's floor, and --strict exits 1 naming it after saving. The real case
 * (a few ns, several times any runtime's floor) is not flagged. The rule's
 * figures: packages/stats/test/without-work.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, runCliAsync, tableRow, tempFile } from './helpers/cli.ts';

describe('a case without work', () => {
  it('is marked, saved, given no verdict word, and fails --strict after the run is saved', async () => {
    const out = tempFile('without-work.json');
    const r = await runCliAsync(['bench', fixture('without-work'), '--filter', 'empty,sum of 8', '--runtime', 'node,bun', '--rounds', '2', '--time', '40ms', '--strict', '--save', out, '--quiet'], { COLUMNS: '140' });
    expect(r.status, r.stderr).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(errors).toEqual([expect.stringMatching(/^error: --strict: 1 case without work .*: "empty" \(node, bun\); the run is saved/)]);

    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.status).toBe('complete');
    const cell = (caseId: string, variantId: string) => run.results.find((x) => x.caseId === caseId && x.variantId === variantId)!;
    for (const variant of ['node', 'bun']) {
      expect(cell('empty', variant).withoutWork?.returnsUndefined).toBe(true);
      expect(cell('sum of 8', variant).withoutWork).toBeUndefined();
      // Both cases run in a few ns: every process that served them took the floor.
      for (const caseId of ['empty', 'sum of 8']) for (const round of cell(caseId, variant).rounds) expect(round.floorNs).toBeGreaterThan(0);
    }

    // 140 columns: wide enough for the arms' names beside an undecided cell's words (at 100 they would read A and B).
    const row = (caseId: string, variant: string): string => tableRow(r.stdout, caseId, variant);
    // Other marks (s, m, ~) may stand before it on a loaded machine.
    expect(row('empty', 'bun')).toMatch(/^\s+bun\s.*\d\.\d\d× \(no interval: 2 process pairs\)\s+\S*∅$/);
    expect(row('empty', 'bun')).not.toMatch(/≈|faster|slower|=/);
    expect(row('empty', 'node')).toMatch(/∅$/);
    // Undecided with two process pairs, said so: a word the empty case does not get.
    expect(row('sum of 8', 'bun')).toMatch(/undecided \(no interval: 2 process pairs\)(\s+[^∅\s]+)?$/);
    const prose = r.stdout.replace(/\s+/g, ' ');
    // The default key names the mark; what it means is --explain's (the rows below say why for each cell).
    expect(prose).toMatch(/marks [^.]*∅/);
    expect(prose).toMatch(/∅ empty \([^)]*\bbun\b[^)]*\): returns undefined/);
  });
});
