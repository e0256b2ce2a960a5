/** Saving runs: names two runs cannot share, files that are not runs, and what "nothing measured" exits with (a --save refused before anything runs: usage-errors.test.ts). */
import { existsSync, readFileSync, utimesSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { FileWriteError, type FileIo } from '../../../host/src/atomic-file.ts';
import { claimResultsPath, defaultResultsPath, releaseUnsaved } from '@rtbench/saved-runs';
import { writeRunAtomically } from '../../../saved-runs/src/save.ts';
import { syntheticRun } from '../../../../test/compare-synthetic.ts';
import { latestRun } from '@rtbench/saved-runs';
import { resultsDir } from '../../src/paths.ts';
import { profileFileName } from '../../../run/src/profiles.ts';
import { MAX_WARNINGS } from '../../../core/src/execute.ts';
import { fixture, runCliAsync, spawnCli, tempFile } from '../../../../test/helpers/cli.ts';

const QUICK = ['--runtime', 'node', '--rounds', '1', '--time', '20ms', '--warmup', '10ms', '--fixed-warmup', '--quiet'];

describe('saving runs', () => {
  it('names the file of a suite given by its path as one file in results/, not a tree of folders', () => {
    const at = '2026-11-24T02:52:50.123Z';
    for (const suite of ['test/fixtures/tiny/index.ts', '../elsewhere/bench.mjs', 'C:\\bench\\x.js', '/abs/path/y.ts']) {
      const path = defaultResultsPath({ startedAt: at, suite, mode: 'bench' }, resultsDir);
      expect(path.split(/[\\/]/).slice(-2, -1)).toEqual(['results']);
      expect(path).toMatch(/\/20261124-025250Z-[A-Za-z0-9][A-Za-z0-9._@-]*\.json$/);
    }
    expect(defaultResultsPath({ startedAt: at, suite: 'json-reviver', mode: 'compare' }, resultsDir)).toMatch(/\/results\/20261124-025250Z-json-reviver-compare\.json$/);
  });

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
});

// Side by side: each CLI run is mostly start-up and waiting, which overlap.
describe.concurrent('what a run answers', () => {
  it('exits 1 and says so when nothing was measured (every case unsupported)', async () => {
    const out = tempFile('run.json');
    const r = await runCliAsync(['bench', fixture('unsupported-everywhere'), ...QUICK, '--save', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('nothing was measured');
    expect(parseRun(JSON.parse(readFileSync(out, 'utf8')), out).results.every((x) => x.status === 'unsupported')).toBe(true);
  });

  it('bounds the warnings of a case that warns with a new text on every call', async () => {
    const out = tempFile('run.json');
    const r = await runCliAsync(['bench', fixture('warn-flood'), ...QUICK, '--save', out]);
    expect(r.status, r.stderr).toBe(0);
    const warnings = parseRun(JSON.parse(readFileSync(out, 'utf8')), out).results[0]!.failures.filter((f) => f.kind === 'warning');
    expect(warnings).toHaveLength(MAX_WARNINGS + 1);
    expect(warnings[MAX_WARNINGS]!.message).toContain('the rest are not shown');
  });

  it('a save that fails (a full disk, a failing rename) leaves the previous save whole, no temporary file, and one line saying so', () => {
    const run = syntheticRun({ mode: 'bench', cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: 3 });
    const files = new Map<string, string>();
    const disk: FileIo = {
      makeDirectory: () => {},
      write: (path, text) => void files.set(path, String(text)),
      rename(from, to) {
        files.set(to, files.get(from)!);
        files.delete(from);
      },
      remove: (path) => void files.delete(path),
    };
    writeRunAtomically('/r/run.json', run, disk);
    const before = files.get('/r/run.json');
    const full: FileIo = {
      ...disk,
      write(path, text) {
        // Half of the text reaches the disk, then it is full.
        files.set(path, String(text).slice(0, String(text).length / 2));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    };
    const renameFails: FileIo = { ...disk, rename: () => { throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' }); } };
    for (const [io, said] of [[full, 'no space left on the device, ENOSPC'], [renameFails, 'input/output error, EIO']] as const) {
      let error: unknown;
      try {
        writeRunAtomically('/r/run.json', { ...run, status: 'complete' }, io);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FileWriteError);
      expect((error as Error).message).toBe(`could not write /r/run.json (${said}); run.json is as it was`);
      expect([...files.keys()]).toEqual(['/r/run.json']);
      expect(files.get('/r/run.json')).toBe(before);
    }
  });

  it('two runs saving to one file: the second is refused before it runs, naming the first; the first keeps its file', async () => {
    const out = tempFile('run.json');
    // The first run is planned to last half a minute (100 rounds of 300 ms: its file is saved after
    // the first) and is interrupted once the second has been refused, so however slowly the second
    // CLI starts on a loaded machine, the first still holds the file when the second asks for it.
    // Its case sleeps: the seconds it holds the file cost no CPU. A watched warmup: a smoke run
    // (--fixed-warmup) takes three samples a round whatever --time.
    const first = spawnCli(['bench', fixture('sleeps'), '--runtime', 'node', '--rounds', '100', '--time', '30s', '--warmup', '10ms', '--save', out, '--quiet']);
    const firstEnded = new Promise<number | null>((resolve) => first.on('close', resolve));
    // Its file appears once its first round is saved: then it is surely holding the lock.
    while (!existsSync(out) && first.exitCode === null) await new Promise((r) => setTimeout(r, 25));
    expect(existsSync(`${out}.lock`)).toBe(true);
    const second = await runCliAsync(['bench', fixture('sleeps'), '--runtime', 'node', '--rounds', '1', '--time', '20ms', '--save', out, '--quiet']);
    expect(second.status).toBe(2);
    expect(second.stderr.trim()).toBe(`error: another rtbench (pid ${first.pid}) is saving a run to ${out}; two runs in one file would keep one of them and mix their profiles: wait for it, or name another --save`);
    first.kill('SIGINT');
    expect(await firstEnded).toBe(130);
    const kept = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(kept.options.rounds).toBe(100);
    expect(kept.status).toBe('interrupted');
    expect(existsSync(`${out}.lock`)).toBe(false);
  });
});

describe('files named after cases', () => {
  it('profiles of cases whose names slug alike (a/b, a_b, a b) get files of their own', () => {
    const ids = ['a/b', 'a_b', 'a b', '_a_b_'];
    const names = ids.flatMap((id, i) => ['node', 'node@26'].map((v, j) => profileFileName(i, id, j, v, '.cpuprofile')));
    expect(new Set(names).size).toBe(names.length);
    expect(names[0]).toBe('1-a_b--1-node.cpuprofile');
  });
});
