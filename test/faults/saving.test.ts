/** Saving runs: names two runs cannot share, files that are not runs, and what "nothing measured" exits with. */
import { readFileSync, utimesSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { claimResultsPath, releaseUnsaved, writeRunAtomically, type SaveIo } from '../../packages/cli/src/results-file.ts';
import { syntheticRun } from '../compare-synthetic.ts';
import { latestRun } from '../../packages/cli/src/commands/report.ts';
import { MAX_WARNINGS } from '../../packages/core/src/execute.ts';
import { fixture, runCli, tempFile } from '../helpers/cli.ts';

const QUICK = ['--runtime', 'node', '--rounds', '1', '--time', '20ms', '--warmup', '10ms', '--quiet'];

describe('saving runs', () => {
  it('gives two runs started in the same second two files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-claim-'));
    const base = join(dir, '20261122-101010Z-tiny.json');
    const first = claimResultsPath(base);
    const second = claimResultsPath(base);
    expect(first).toBe(base);
    expect(second).toBe(join(dir, '20261122-101010Z-tiny-2.json'));
    // A claim that never received a run is released; a saved one is kept.
    writeFileSync(first, '{"schema":"rtbench.run"}');
    releaseUnsaved(first);
    releaseUnsaved(second);
    expect(readFileSync(first, 'utf8')).toContain('rtbench.run');
    expect(() => readFileSync(second)).toThrow();
  });

  it('report picks the run written last, not the last name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-latest-'));
    writeFileSync(join(dir, 'zzz-by-hand.json'), '{}');
    writeFileSync(join(dir, '20261122-101010Z-tiny.json'), '{}');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(join(dir, 'zzz-by-hand.json'), old, old);
    expect(latestRun(dir)).toBe(join(dir, '20261122-101010Z-tiny.json'));
  });

  it('refuses --html and --save on the same file, and --save on a file that is not a run, before running anything', () => {
    const out = tempFile('same.json');
    const same = runCli(['bench', fixture('tiny'), '--filter', 'n=200', ...QUICK, '--save', out, '--html', out]);
    expect(same.status).toBe(2);
    expect(same.stderr).toContain('is the file --save saves the run to');
    const notes = tempFile('notes.json');
    writeFileSync(notes, '{"my":"notes"}');
    const clobber = runCli(['bench', fixture('tiny'), '--filter', 'n=200', ...QUICK, '--save', notes]);
    expect(clobber.status).toBe(2);
    expect(clobber.stderr).toContain('not an rtbench run; refusing to overwrite');
    expect(readFileSync(notes, 'utf8')).toBe('{"my":"notes"}');
  });
});

describe('what a run answers', () => {
  it('exits 1 and says so when nothing was measured (every case unsupported)', () => {
    const out = tempFile('run.json');
    const r = runCli(['bench', fixture('unsupported-everywhere'), ...QUICK, '--save', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('nothing was measured');
    expect(parseRun(JSON.parse(readFileSync(out, 'utf8')), out).results.every((x) => x.status === 'unsupported')).toBe(true);
  });

  it('bounds the warnings of a case that warns with a new text on every call', () => {
    const out = tempFile('run.json');
    const r = runCli(['bench', fixture('warn-flood'), ...QUICK, '--save', out]);
    expect(r.status, r.stderr).toBe(0);
    const warnings = parseRun(JSON.parse(readFileSync(out, 'utf8')), out).results[0]!.failures.filter((f) => f.kind === 'warning');
    expect(warnings).toHaveLength(MAX_WARNINGS + 1);
    expect(warnings[MAX_WARNINGS]!.message).toContain('the rest are not shown');
  });

  it('a disk with room for one copy of the run, not two: the old copy goes first and the new one is saved whole', () => {
    const run = syntheticRun({ mode: 'bench', cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: 3 });
    const size = JSON.stringify(run, null, 1).length + 1;
    // A disk of 1.5 runs: holding the old copy, there is no room for a second one.
    const files = new Map<string, string>();
    const used = (): number => [...files.values()].reduce((n, t) => n + t.length, 0);
    const disk: SaveIo = {
      write(path, text) {
        if (used() + text.length > size * 1.5) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        files.set(path, text);
      },
      rename(from, to) {
        files.set(to, files.get(from)!);
        files.delete(from);
      },
      remove: (path) => void files.delete(path),
      exists: (path) => files.has(path),
    };
    writeRunAtomically('/r/run.json', run, disk);
    writeRunAtomically('/r/run.json', { ...run, status: 'complete' }, disk);
    expect([...files.keys()]).toEqual(['/r/run.json']);
    expect(JSON.parse(files.get('/r/run.json')!).status).toBe('complete');
    // Without an old copy to give way, a full disk is still an error (the CLI says so and keeps measuring).
    const full: SaveIo = { ...disk, write: () => { throw Object.assign(new Error('no space'), { code: 'ENOSPC' }); } };
    expect(() => writeRunAtomically('/r/other.json', run, full)).toThrow(/no space/);
  });

  it('refuses an --save name longer than the file system takes, before running anything', () => {
    const r = runCli(['bench', fixture('tiny'), ...QUICK, '--save', join(tmpdir(), `${'x'.repeat(300)}.json`)]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --save: the file name is longer than 255 bytes/)]);
  });
});
