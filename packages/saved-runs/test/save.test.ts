/**
 * A run saved compact: one line, no indentation, read back as the same
 * record; compressed where its name ends `.gz`; and the run loop's saver,
 * which says a failed save once per reason and tries again. No process
 * started.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diskIo, FileWriteError, type FileIo } from '@rtbench/host/files';
import { loadSavedRun, runSaver, writeRunAtomically } from '../src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

const run = syntheticRun({ cases: [{ id: 'parse', ns: 1000 }], arms: [{ id: 'node@24', factor: 1 }], rounds: 6 });
const folder = (): string => mkdtempSync(join(tmpdir(), 'rtbench-save-'));

/** The disk, but with no space left while `full()` says so. */
const diskThatFills = (full: () => boolean): FileIo => ({
  ...diskIo,
  write(path, text, mode) {
    if (full()) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    diskIo.write(path, text, mode);
  },
});

describe('a saved run on disk', () => {
  it('is one line without indentation, and loads back as the record saved', () => {
    const file = join(folder(), 'run.json');
    writeRunAtomically(file, run);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(`${JSON.stringify(run)}\n`);
    expect(text.split('\n')).toHaveLength(2);
    expect(loadSavedRun(file).run.results[0]!.rounds).toEqual(run.results[0]!.rounds);
  });

  it('is gzip at its best level under a name ending .gz, the same line inside, and loads back', () => {
    const file = join(folder(), 'run.json.gz');
    writeRunAtomically(file, run);
    const bytes = readFileSync(file);
    expect(bytes.equals(gzipSync(`${JSON.stringify(run)}\n`, { level: constants.Z_BEST_COMPRESSION }))).toBe(true);
    expect(gunzipSync(bytes).toString('utf8')).toBe(`${JSON.stringify(run)}\n`);
    expect(loadSavedRun(file).run.results[0]!.rounds).toEqual(run.results[0]!.rounds);
  });

  it('is written through the file operations it is given', () => {
    expect(() => writeRunAtomically(join(folder(), 'run.json'), run, diskThatFills(() => true))).toThrow(FileWriteError);
  });
});

describe("the run loop's saver", () => {
  it('says a failed save once per reason, keeps the last save, and saves again once it can', () => {
    const file = join(folder(), 'run.json');
    let full = false;
    const said: string[] = [];
    const saver = runSaver(file, (line) => said.push(line), diskThatFills(() => full));
    saver.save(run);
    expect(saver.unsaved).toBeUndefined();
    full = true;
    const line = `could not save the run to ${file} (no space left on the device, ENOSPC); the file keeps the last save, measuring goes on and the next save tries again`;
    saver.save({ ...run, id: 'second' });
    expect(said).toEqual([line]);
    saver.save({ ...run, id: 'third' });
    expect(said).toEqual([line]);
    expect(saver.unsaved).toBe('no space left on the device, ENOSPC');
    expect(JSON.parse(readFileSync(file, 'utf8')).id).toBe(run.id);
    full = false;
    saver.save({ ...run, id: 'fourth' });
    expect(saver.unsaved).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8')).id).toBe('fourth');
    // Full again after a save that held: said again.
    full = true;
    saver.save({ ...run, id: 'fifth' });
    expect(said).toEqual([line, line]);
  });
});
