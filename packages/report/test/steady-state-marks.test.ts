/**
 * The table's steady-state marks (views/steady-state.ts, the terminal
 * reporter): a cell a third or more of whose processes did not settle as
 * expected is marked, the key names the mark, and --explain says under the
 * table which cells and how many processes; a run saved before processes
 * were classified says so with --explain.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord, type SteadyState } from '@rtbench/core/schema';
import { benchView, pairedComparisonView, reporterFor } from '../src/index.ts';

const RUN = join(import.meta.dirname, '../../../results/20261121-124315Z-json-reviver.json');
const COMPARE_RUN = join(import.meta.dirname, '../../../results/20261121-130300Z-gc-pressure-compare.json');
const load = (path: string): RunRecord => parseRun(JSON.parse(readFileSync(path, 'utf8')), path);
const render = (view: Parameters<NonNullable<ReturnType<typeof reporterFor>>['render']>[0], explain = true): string => reporterFor('terminal')!.render(view, { color: false, columns: 200, explain });

/** Every process classified `flat`, but in the first result the first `marked` processes in `cls`. */
function classified(run: RunRecord, cls: SteadyState['class'], marked: number): RunRecord {
  return {
    ...run,
    results: run.results.map((r, j) => ({ ...r, rounds: r.rounds.map((round, i) => ({ ...round, steadyState: { class: j === 0 && i < marked ? cls : 'flat' } })) })),
  };
}

describe('steady-state marks', () => {
  it('marks a cell with a third of its processes without a steady state, names the mark in the key, and says which with --explain', () => {
    const run = classified(load(RUN), 'no-steady-state', 4);
    const view = benchView(run);
    const row = view.cases[0]!.rows[0]!;
    expect(row.steady?.mark).toBe('no-steady-state');
    const plain = render(view, false);
    expect(plain.replace(/\s+/g, ' ')).toMatch(/--explain: the method, marks [^.]*~\./);
    expect(plain).not.toContain('never settled');
    const out = render(view);
    expect(out).toContain(`${row.variantId} · ${view.cases[0]!.label}: 4 of ${run.results[0]!.rounds.length} processes never settled`);
    expect(out).toMatch(/~ processes whose batch times never settled[\s\S]*?\(1 row\)/);
    expect(view.cases.slice(1).flatMap((c) => c.rows).some((r) => r.steady?.mark)).toBe(false);
  });

  it('does not mark a cell with fewer than a third of its processes in a marked class', () => {
    const view = benchView(classified(load(RUN), 'slowdown', 1));
    expect(view.cases[0]!.rows[0]!.steady?.mark).toBeUndefined();
    expect(render(view)).not.toContain('steady state');
  });

  it('says with --explain that a run saved before processes were classified was not classified', () => {
    const view = benchView(load(RUN));
    expect(view.notClassified).toBe(true);
    expect(render(view)).toContain('steady state: not classified');
    expect(render(view, false)).not.toContain('steady state');
  });

  it('says a comparison arm whose processes were still warming as sampling began, under its table', () => {
    const run = load(COMPARE_RUN);
    const view = pairedComparisonView(classified(run, 'warmed-late', run.results[0]!.rounds.length));
    const out = render(view);
    expect(out).toMatch(/↘ .* · .*: \d+ of \d+ processes still warming as sampling began/);
  });
});
