/** A saved run whose samples were edited after it was saved: read (the samples stand), with a warning naming the cells. */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchView } from '@rtbench/report';
import { computeStats } from '@rtbench/saved-runs';
import { loadSavedRun } from '@rtbench/saved-runs';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

function saved(edit: (samples: number[]) => number[]): string {
  const run = syntheticRun({ mode: 'bench', cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 2000 }], arms: [{ id: 'node', factor: 1 }, { id: 'deno', factor: 1.1 }], rounds: 6 });
  computeStats(run);
  const deno = run.results.find((r) => r.caseId === 'b' && r.variantId === 'deno')!;
  for (const round of deno.rounds) round.samples = edit(round.samples);
  const file = join(mkdtempSync(join(tmpdir(), 'rtbench-edited-')), 'run.json');
  writeFileSync(file, JSON.stringify(run));
  return file;
}

describe('a saved run whose samples disagree with its stored statistics', () => {
  it('is read with its samples\' figures and a warning that names the cells, in the view every format shows', () => {
    const loaded = loadSavedRun(saved((samples) => samples.map((x) => x / 2)));
    expect(loaded.notes?.[0]).toMatch(/^the samples of "b" on deno do not give the statistics stored with them/);
    const view = benchView(loaded.run, { notes: loaded.notes! });
    expect(view.notes[0]).toEqual({ level: 'warning', text: loaded.notes![0] });
    // The figures are the samples': deno's median of "b" is now about half of 2200 ns.
    expect(loaded.run.results.find((r) => r.caseId === 'b' && r.variantId === 'deno')!.stats!.median).toBeLessThan(1500);
  });

  it('says nothing of a run saved as it was', () => {
    expect(loadSavedRun(saved((samples) => samples)).notes).toBeUndefined();
  });
});
