/**
 * Which saved runs a command reads: the files a path names, the newest run
 * of a folder by when it was written, and two runs compared only when they
 * are two files holding two runs.
 */
import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { finishRun } from '../src/record.ts';
import { latestRun, loadDistinctRuns } from '../src/saved-run.ts';
import { childOf, runFilesIn } from '../src/run-files.ts';
import { refusal, tempFolder } from '../../../test/helpers/refusal.ts';

const folder = (): string => tempFolder('run-files');

/** A finished run saved as `name` in `dir`, with id `id`. */
function saved(dir: string, name: string, id: string): string {
  const run = syntheticRun({ cases: [{ id: 'c', ns: 1e6 }], arms: [{ id: 'node', factor: 1 }], rounds: 1, samplesPerRound: 4 });
  finishRun(run, false);
  run.id = id;
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(run));
  return file;
}


describe('the run files a path names', () => {
  it('are the file itself, or the .json and .json.gz files directly in a folder, sorted', () => {
    const dir = folder();
    for (const name of ['b.json', 'a.json.gz', 'notes.txt', 'c.json.bak']) writeFileSync(join(dir, name), '{}');
    mkdirSync(join(dir, 'inner'));
    writeFileSync(join(dir, 'inner', 'd.json'), '{}');
    expect(runFilesIn(dir)).toEqual([join(dir, 'a.json.gz'), join(dir, 'b.json')]);
    expect(runFilesIn(join(dir, 'notes.txt'))).toEqual([join(dir, 'notes.txt')]);
    expect(refusal(() => runFilesIn(join(dir, 'gone')))).toBe(`${join(dir, 'gone')}: no such file or directory`);
  });

  it('in a folder, sorted by name whatever order they were made in; a link to nothing is listed, to be named when read', () => {
    const dir = folder();
    for (const name of ['c.json', 'a.json', 'b.json.gz']) writeFileSync(join(dir, name), '{}');
    symlinkSync(join(dir, 'nowhere.json'), join(dir, 'd.json'));
    expect(runFilesIn(dir)).toEqual(['a.json', 'b.json.gz', 'c.json', 'd.json'].map((f) => join(dir, f)));
    expect(runFilesIn(folder())).toEqual([]);
  });

  it('are named as join names them, however the folder was written', () => {
    for (const dir of ['.', '', './', 'a', 'a/', 'a//b', './a/../b', 'a/..', '/', '//', '/x/y/', '../up']) {
      expect(childOf(dir)('r.json'), dir).toBe(join(dir, 'r.json'));
    }
  });
});

describe('the newest run of a folder', () => {
  it('is the one written last, not the last by name; by name where two were written at once', () => {
    const dir = folder();
    const older = join(dir, 'z.json');
    const newer = join(dir, 'a.json');
    writeFileSync(older, '{}');
    writeFileSync(newer, '{}');
    writeFileSync(join(dir, 'y.txt'), '{}');
    utimesSync(older, 1000, 1000);
    utimesSync(newer, 2000, 2000);
    utimesSync(join(dir, 'y.txt'), 3000, 3000);
    expect(latestRun(dir)).toBe(newer);
    utimesSync(older, 2000, 2000);
    expect(latestRun(dir)).toBe(older);
  });

  it('is a file: a link to nothing or a folder named like a run, however new, is passed over', () => {
    const dir = folder();
    const run = join(dir, 'a.json');
    writeFileSync(run, '{}');
    utimesSync(run, 1000, 1000);
    symlinkSync(join(dir, 'nowhere.json'), join(dir, 'z.json'));
    mkdirSync(join(dir, 'y.json'));
    utimesSync(join(dir, 'y.json'), 5000, 5000);
    expect(latestRun(dir)).toBe(run);
    rmSync(run);
    expect(refusal(() => latestRun(dir))).toBe(`no saved runs in ${dir}; run \`pnpm bench <suite>\` first or name a file`);
  });

  it('is none in an empty or missing folder, said in one line', () => {
    const dir = folder();
    expect(refusal(() => latestRun(dir))).toBe(`no saved runs in ${dir}; run \`pnpm bench <suite>\` first or name a file`);
    expect(refusal(() => latestRun(join(dir, 'gone')))).toContain('no saved runs in');
  });
});

describe('the runs a command compares', () => {
  it('are read once each when they are two runs in two files', () => {
    const dir = folder();
    const runs = loadDistinctRuns([saved(dir, 'a.json', 'one'), saved(dir, 'b.json', 'two')], 'compare');
    expect(runs.map((r) => r.run.id)).toEqual(['one', 'two']);
  });

  it('are refused when two files hold one run, or one file is named twice (by a link too)', () => {
    const dir = folder();
    const a = saved(dir, 'a.json', 'one');
    const b = saved(dir, 'b.json', 'one');
    expect(refusal(() => loadDistinctRuns([a, saved(dir, 'c.json', 'two'), b], 'compare'))).toBe(`compare: ${b} and ${a} hold one run (id "one"); name two different runs`);
    symlinkSync(a, join(dir, 'link.json'));
    expect(refusal(() => loadDistinctRuns([a, join(dir, 'link.json')], 'compare'))).toBe(`compare: ${join(dir, 'link.json')} and ${a} are one file; name two different runs`);
  });
});
