/**
 * A matrix's folder is input like a saved run: its state checked against its
 * schema (one line naming the file and the field, a newer state said to be
 * newer), its runs read through the saved-run loader, no path it names
 * leading out of it, a run counted once whatever names list it; its tracks
 * follow the command (the ones no longer asked set aside), so shards survive
 * an edit of the command's ranges; shards merge only when they ask the same
 * tracks, never into one of themselves nor over a matrix a merge did not
 * make; and a plan writes nothing.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRequest } from '@rtbench/run';
import { loadSavedRun } from '@rtbench/saved-runs';
import type { ReleaseTrack } from '@rtbench/verdicts';
import { describe, expect, it } from 'vitest';
import { analyseMatrix, drawMatrix, folderRuns, loadMatrix, MatrixRefused, MatrixSitting, mergeMatrices, nextRunFile, openMatrix, pendingJobs, saveMatrix, type MatrixIdentity, type MatrixState, type WindowPlanner } from '../src/index.ts';
import { fakeWindowRun } from './fake-runs.ts';

const IDENTITY: MatrixIdentity = { filter: '', threshold: 0.01, timePerSetMs: 100, warmupMs: 150, sets: 12, setsPerProcess: 2, windowSize: 6 };
const CASES = ['parse / arrow', 'parse / plain'];
const factor = (release: string, caseId: string): number => (caseId === 'parse / arrow' && Number(release) >= 3 ? 0.6 : 1);

function track(runtime: string, suite = 'fake', releases = ['1', '2', '3'], extra: string[] = []): ReleaseTrack {
  return { key: `${[runtime, ...extra].join(' ')} × ${suite}`, runtime, extra, suite, range: `${runtime}@${releases[0]}..${runtime}@${releases.at(-1)}`, listed: releases, releases };
}

/** A planner no test reaches (opening a sitting plans nothing), except for the probe of `plans()`: a suite of `cases` cases. */
const planner = (cases = 2): WindowPlanner => ({ planWindow: async () => ({ suite: { cases: Array.from({ length: cases }, (_, i) => ({ id: `c${i}` })) } }) as unknown as RunRequest, suiteName: (s) => s });

let seed = 1;
/** A sitting of `tracks` in `dir` (the command's tracks, a shard dealt from them), each window short of its sets measured by one made-up run of `sets` sets. */
function sitting(dir: string, tracks: ReleaseTrack[], options: { shard?: { index: number; count: number }; sets?: number } = {}): MatrixState {
  const s = MatrixSitting.open(dir, IDENTITY, tracks, planner(), options.shard ? { shard: options.shard } : {});
  try {
    for (const job of s.jobs) {
      const file = nextRunFile(dir, s.state, job, job.track.suite);
      writeFileSync(join(dir, file), JSON.stringify(fakeWindowRun({ runtime: job.track.runtime, releases: job.window.releases, cases: CASES, factor, sets: options.sets ?? 12, seed: seed++ })));
      job.window.runs.push(file);
    }
    saveMatrix(dir, s.state);
    return s.state;
  } finally {
    s.close();
  }
}

const scratch = (name: string): string => mkdtempSync(join(tmpdir(), `rtbench-releases-${name}-`));
const stateFile = (dir: string): string => join(dir, 'releases.state');
function editState(dir: string, edit: (state: Record<string, any>) => void): void {
  const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
  edit(state);
  writeFileSync(stateFile(dir), JSON.stringify(state));
}
/** The message of what `f` throws, checked to be one line. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('nothing was refused');
}

describe("a release matrix's folder", () => {
  it('refuses a damaged state in one line naming the file and the field, and a newer one as newer', () => {
    const damage: [string, (s: Record<string, any>) => void, RegExp][] = [
      ['identity removed', (s) => delete s.identity, /releases\.state is damaged at identity \(expected object, received undefined\)/],
      ['tracks not a list', (s) => (s.tracks = { a: 1 }), /releases\.state is damaged at tracks \(expected array, received object\)/],
      ['a run outside the folder', (s) => (s.tracks[0].windows[0].runs[0] = '../../../../etc/passwd'), /damaged at tracks\[0\]\.windows\[0\]\.runs\[0\] \(must name a file inside the folder/],
      ['an absolute run path', (s) => (s.tracks[0].windows[0].runs[0] = '/etc/passwd'), /damaged at tracks\[0\]\.windows\[0\]\.runs\[0\]/],
      ['sets not a number', (s) => (s.identity.sets = 'many'), /damaged at identity\.sets/],
      ['a newer state', (s) => (s.version = 2), /has state version 2, from a newer rtbench; this one reads version 1$/],
      ['another file', (s) => (s.schema = 'something.else'), /is not an rtbench release matrix/],
    ];
    for (const [what, edit, expected] of damage) {
      const dir = scratch('damaged');
      sitting(dir, [track('node')]);
      editState(dir, edit);
      const message = refusal(() => loadMatrix(dir));
      expect(message, what).toMatch(expected);
      expect(message, what).toContain(stateFile(dir));
      expect(message).not.toMatch(/root:/);
      expect(() => openMatrix(dir, IDENTITY, 'test machine')).toThrow(MatrixRefused);
    }
    const cut = scratch('truncated');
    sitting(cut, [track('node')]);
    writeFileSync(stateFile(cut), readFileSync(stateFile(cut), 'utf8').slice(0, 200));
    expect(refusal(() => loadMatrix(cut))).toMatch(/releases\.state is not readable/);
    const dirState = scratch('state-dir');
    mkdirSync(stateFile(dirState));
    expect(refusal(() => loadMatrix(dirState))).toBe(`${stateFile(dirState)} is a directory, not a release matrix's state`);
  });

  it('reads its runs as saved runs: a damaged one and one that links out are refused in one line, edited statistics are said', () => {
    const dir = scratch('runs');
    const state = sitting(dir, [track('node')]);
    const file = join(dir, state.tracks[0]!.windows[0]!.runs[0]!);
    const good = readFileSync(file, 'utf8');
    const draw = (): unknown => drawMatrix(dir, loadMatrix(dir), loadMatrix(dir).tracks);

    writeFileSync(file, good.slice(0, good.length / 2));
    expect(refusal(draw)).toMatch(/\.json is not valid JSON \(truncated or corrupt\?\)/);
    const twice = JSON.parse(good);
    twice.variants.push(twice.variants[0]);
    writeFileSync(file, JSON.stringify(twice));
    expect(refusal(draw)).toMatch(/is not a consistent rtbench run: variant "node@1" is listed twice/);

    unlinkSync(file);
    symlinkSync('/etc/passwd', file);
    const out = refusal(draw);
    expect(out).toMatch(/leads outside the folder/);
    expect(out).not.toMatch(/root:/);

    // Saved as the run loop saves it (statistics beside the samples), then one sample edited: drawn from the samples, and said.
    unlinkSync(file);
    writeFileSync(file, good);
    const run = loadSavedRun(file).run;
    run.results[0]!.rounds.forEach((r) => (r.samples = r.samples.map((x) => x * 50)));
    writeFileSync(file, JSON.stringify(run));
    const view = drawMatrix(dir, loadMatrix(dir), loadMatrix(dir).tracks);
    expect(view.notes).toEqual([expect.stringMatching(/do not give the statistics stored with them/)]);
  });

  it('counts a run once, whatever names list it', () => {
    const dir = scratch('twice');
    // 4 sets, two per process: 2 units per step, too few to decide.
    const state = sitting(dir, [track('node')], { sets: 4 });
    const steps = (): string => {
      const s = loadMatrix(dir);
      const { read } = folderRuns(dir);
      const view = analyseMatrix(s.identity, s.tracks, read, dir);
      return JSON.stringify([view.tracks[0]!.cases.map((c) => c.steps.map((x) => [x?.sets, x?.comparison.ci, x?.comparison.verdict])), view.tracks[0]!.setsMeasured, pendingJobs(s.identity, s.tracks, read).map((j) => j.sets)]);
    };
    const once = steps();
    const [first] = state.tracks[0]!.windows[0]!.runs;
    copyFileSync(join(dir, first!), join(dir, 'copy.json'));
    editState(dir, (s) => s.tracks[0].windows[0].runs.push(first, 'copy.json'));
    expect(steps()).toBe(once);
    expect(once).toContain('"inconclusive"');
  });

  it('names each run file apart, even for two tracks that differ only in their flags', () => {
    const dir = scratch('names');
    const state = sitting(dir, [track('node'), track('node', 'fake', ['1', '2', '3'], ['--jitless'])]);
    const [a, b] = state.tracks.map((t) => t.windows[0]!.runs[0]);
    expect(a).not.toBe(b);
  });

  it("follows the command's tracks: one no longer asked is set aside, and continued when asked again", () => {
    const dir = scratch('follow');
    const [a, b, c] = [track('node'), track('bun'), track('deno')];
    const first = sitting(dir, [a!, b!]);
    const aRuns = first.tracks[0]!.windows[0]!.runs;
    const s = MatrixSitting.open(dir, IDENTITY, [b!, c!], planner());
    s.close();
    expect(s.setAside).toEqual([a!.key]);
    expect(s.tracks.map((t) => t.key)).toEqual([b!.key, c!.key]);
    expect(loadMatrix(dir).tracks.map((t) => t.key)).toEqual([b!.key, c!.key]);
    expect(loadMatrix(dir).setAside?.map((t) => t.key)).toEqual([a!.key]);
    const again = MatrixSitting.open(dir, IDENTITY, [a!, b!, c!], planner());
    again.close();
    expect(again.setAside).toEqual([]);
    expect(again.tracks[0]!.windows[0]!.runs).toEqual(aRuns);
    expect(loadMatrix(dir).setAside).toBeUndefined();
  });

  it('keeps shards mergeable after the scheduled command reorders or drops its ranges', () => {
    const asked = [track('node'), track('bun'), track('deno')];
    const shards = [1, 2].map((index) => {
      const dir = scratch(`shard-${index}`);
      sitting(dir, asked, { shard: { index, count: 2 } });
      return dir;
    });
    const merge = (): MatrixState => mergeMatrices(shards, join(scratch('merged'), 'out'));
    expect(merge().tracks.map((t) => t.key)).toEqual(['node × fake', 'deno × fake', 'bun × fake']);
    const reordered = [asked[1]!, asked[0]!, asked[2]!];
    shards.forEach((dir, i) => sitting(dir, reordered, { shard: { index: i + 1, count: 2 } }));
    expect(merge().tracks.map((t) => t.key)).toEqual(['bun × fake', 'deno × fake', 'node × fake']);
    const dropped = [asked[0]!, asked[1]!];
    shards.forEach((dir, i) => sitting(dir, dropped, { shard: { index: i + 1, count: 2 } }));
    expect(merge().tracks.map((t) => t.key)).toEqual(['node × fake', 'bun × fake']);
  });

  it('merges only shards of one matrix, never into one of them nor over a matrix a merge did not make', () => {
    const shardsOf = (suite: string): string[] =>
      [1, 2].map((index) => {
        const dir = scratch(`${suite}-shard-${index}`);
        sitting(dir, [track('node', suite), track('bun', suite)], { shard: { index, count: 2 } });
        return dir;
      });
    const [one, two] = shardsOf('fake');
    const [, otherTwo] = shardsOf('other');
    const out = join(scratch('merge'), 'out');
    expect(refusal(() => mergeMatrices([one!, otherTwo!], out))).toMatch(/does not belong with .*: they ask other tracks \("node × fake", "bun × fake" only in the first; "node × other", "bun × other" only in this one\)/);
    expect(existsSync(out)).toBe(false);

    const before = readFileSync(stateFile(one!), 'utf8');
    expect(refusal(() => mergeMatrices([one!, two!], one!))).toMatch(/--save .* is the shard .*: the merge would overwrite it/);
    expect(refusal(() => mergeMatrices([one!, two!], join(one!, 'inside')))).toMatch(/lies inside the shard/);
    expect(readFileSync(stateFile(one!), 'utf8')).toBe(before);
    const whole = scratch('whole');
    sitting(whole, [track('node')]);
    expect(refusal(() => mergeMatrices([one!, two!], whole))).toMatch(/holds a release matrix that a merge did not make/);
    const busy = scratch('busy');
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    expect(refusal(() => mergeMatrices([one!, two!], busy))).toMatch(/holds files and no release matrix/);

    // A merge's own folder is merged into again (the scheduled workflow does it every night).
    mergeMatrices([one!, two!], out);
    expect(loadMatrix(out).tracks).toHaveLength(2);
    mergeMatrices([one!, two!], out);

    // A shard whose run is damaged: refused before anything is written.
    const fresh = join(scratch('fresh'), 'out');
    writeFileSync(join(two!, loadMatrix(two!).tracks[0]!.windows[0]!.runs[0]!), '{"schema": "rtbench.run", "schemaVersion": 1');
    expect(refusal(() => mergeMatrices([one!, two!], fresh))).toMatch(/is not valid JSON/);
    expect(existsSync(fresh)).toBe(false);
  });

  it('writes nothing when only planning: no folder, no lock, the state as it was', async () => {
    const dir = join(scratch('plan'), 'matrix');
    const planned = MatrixSitting.open(dir, IDENTITY, [track('node')], planner(), { planOnly: true });
    expect(planned.jobs.map((j) => j.sets)).toEqual([12]);
    expect((await planned.plans())[0]).toMatchObject({ releases: 3, cases: 2, sets: 12 });
    planned.close();
    expect(existsSync(dir)).toBe(false);

    mkdirSync(dir);
    sitting(dir, [track('node')], { sets: 4 });
    const before = readFileSync(stateFile(dir), 'utf8');
    const again = MatrixSitting.open(dir, IDENTITY, [track('node'), track('bun')], planner(), { planOnly: true });
    expect(again.jobs.map((j) => [j.track.key, j.sets])).toEqual([['node × fake', 8], ['bun × fake', 12]]);
    expect(existsSync(join(dir, 'releases.lock'))).toBe(false);
    again.close();
    expect(readFileSync(stateFile(dir), 'utf8')).toBe(before);
  });

  it('says an empty filter as no filter, in a refusal and when a suite has no case', async () => {
    const dir = scratch('filter');
    sitting(dir, [track('node')]);
    expect(refusal(() => openMatrix(dir, { ...IDENTITY, filter: 'arrow' }, 'test machine'))).toMatch(/filter: no --filter there, "arrow" now/);
    const empty = MatrixSitting.open(scratch('empty'), IDENTITY, [track('node')], planner(0), { planOnly: true });
    await expect(empty.plans()).rejects.toThrow(/^fake has no case to measure$/);
    const filtered = MatrixSitting.open(scratch('filtered'), { ...IDENTITY, filter: 'nothing' }, [track('node')], planner(0), { planOnly: true });
    await expect(filtered.plans()).rejects.toThrow(/^--filter nothing picks no case of fake$/);
  });
});
