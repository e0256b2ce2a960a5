/**
 * The line over a bench table says the rounds its rows really got, not the plan's range: a default table whose
 * 60 s budget ran out after the first 6 rounds says 6, and a run whose rows got different counts (a merged run)
 * says the fewest and the most.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { benchView, reporterFor } from '../src/index.ts';
import { roundsGotLine } from '../src/cells/run.ts';

const RUN = join(import.meta.dirname, '../../../results/20261128-174814Z-json-reviver.json');
const run = parseRun(JSON.parse(readFileSync(RUN, 'utf8')), RUN);

/** The run with its first result given `more` copies of its last round (as a merge of two runs gives one row more rounds). */
function withMoreRounds(r: RunRecord, more: number): RunRecord {
  const [first, ...rest] = r.results;
  const last = first!.rounds.at(-1)!;
  const added = Array.from({ length: more }, (_, i) => ({ ...last, round: last.round + 1 + i }));
  return { ...r, results: [{ ...first!, rounds: [...first!.rounds, ...added] }, ...rest] };
}

describe('the rounds over a bench table', () => {
  it('are the rounds every row got, the plan beside them, and the limit that ran out first', () => {
    const view = benchView(run);
    expect(roundsGotLine(view)).toBe('rounds: 6 a row, 6 processes each; planned 6–30 until ±2%; --max-time 60 s ran out on 54 of 64 rows');
    const table = reporterFor('terminal')!.render(view, { color: false, columns: 100 });
    expect(table.split('\n')[0]).toBe(roundsGotLine(view));
  });

  it('say the fewest and the most when rows got different counts, and the processes that served them', () => {
    // The copied rounds name the process of the round they copy: they add rounds, not processes.
    expect(roundsGotLine(benchView(withMoreRounds(run, 13)))).toMatch(/^rounds: 6–19 a row, 6 processes each;/);
  });

  it('say the plan alone for a run of fixed rounds', () => {
    const { adaptive: _, ...fixed } = run.options;
    expect(roundsGotLine(benchView({ ...run, options: fixed }))).toBe('rounds: 6 a row, 6 processes each');
  });
});
