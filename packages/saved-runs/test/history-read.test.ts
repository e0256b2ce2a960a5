/**
 * A loaded run as a history reads it takes the figures the loader recomputed
 * from its rounds rather than running the bootstrap over its processes again:
 * the same record as one computed from the samples, and the figure is the
 * loaded statistics'. Synthetic runs; no process started.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyRead, historyRecord } from '@rtbench/verdicts';
import { loadSavedRun } from '../src/index.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';

describe('historyRead of a loaded run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-read-'));
  const [run] = historyRuns([{ factor: 1 }], { cases: [{ id: 'parse', ns: 1_000 }, { id: 'stringify', ns: 8_000 }], variants: ['node@24', 'deno@2'], rounds: 7, seed: 3, suite: 'synthetic' });
  const file = writeRun(join(dir, 'run.json'), run!);

  it('is the record computed from the samples, figures and intervals included', () => {
    const saved = loadSavedRun(file);
    const read = historyRead(saved);
    expect(read.record).toEqual(historyRecord(loadSavedRun(file).run, 'samples'));
    expect(read.record.results.every((r) => r.figure?.ci)).toBe(true);
  });

  it("takes each figure from the loader's statistics", () => {
    const saved = loadSavedRun(file);
    const first = saved.run.results[0]!;
    first.stats = { ...first.stats!, median: 2 * first.stats!.median, ci: [1, 2] };
    expect(historyRead(saved).record.results[0]!.figure).toEqual({ median: first.stats.median, ci: [1, 2] });
  });
});
