/** A run saved compact: one line, no indentation, read back as the same record. No process started. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSavedRun, writeRunAtomically } from '../src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

describe('a saved run on disk', () => {
  it('is one line without indentation, and loads back as the record saved', () => {
    const run = syntheticRun({ cases: [{ id: 'parse', ns: 1000 }], arms: [{ id: 'node@24', factor: 1 }], rounds: 6 });
    const file = join(mkdtempSync(join(tmpdir(), 'rtbench-save-')), 'run.json');
    writeRunAtomically(file, run);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(`${JSON.stringify(run)}\n`);
    expect(text.split('\n')).toHaveLength(2);
    expect(loadSavedRun(file).run.results[0]!.rounds).toEqual(run.results[0]!.rounds);
  });
});
