/** The runs a history reads: one that cannot be read or summarised is named in one line, and the others are read. No process started. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSavedRun, readHistoryRuns } from '../src/index.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';

describe('the runs a history reads', () => {
  it('a run the loader cannot summarise, and a file that is not a run, are each named in one line; the others are read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-runs-'));
    const files = historyRuns([1, 1, 1].map((factor) => ({ factor })), { cases: [{ id: 'parse', ns: 1_000 }], rounds: 6, suite: 'synthetic' }).map((run, i) => writeRun(join(dir, `run-${i}.json`), run));
    writeFileSync(join(dir, 'other.json'), '{"hello": "world"}\n');
    // As a round that timed out before its phases were read fails its summary.
    const load = (file: string): ReturnType<typeof loadSavedRun> => {
      if (file === files[1]) throw new RangeError('phase 2 ends past the samples');
      return loadSavedRun(file);
    };
    const { inputs, lines } = readHistoryRuns([dir], load);
    expect(inputs.map((x) => x.file)).toEqual([files[0], files[2]]);
    expect(lines).toEqual([
      { level: 'skipped', text: `skipped ${join(dir, 'other.json')} is not an rtbench run (its "schema" is missing, expected "rtbench.run")` },
      { level: 'skipped', text: `skipped ${files[1]}: it cannot be summarised (phase 2 ends past the samples)` },
    ]);
  });
});
