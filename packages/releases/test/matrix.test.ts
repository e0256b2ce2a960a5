/**
 * The matrix from saved runs: change points where a case changed and nowhere
 * else, the releases skipped by --every named with a bisect, the sets still
 * missing after an interruption, a release published later measured alone
 * with its predecessor, and shards merged into the same answer as one folder.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { describe, expect, it } from 'vitest';
import { analyseMatrix, mergeMatrices, MatrixRefused, openMatrix, pendingJobs, saveMatrix, shardTracks, syncTracks, thin, type MatrixIdentity } from '../src/index.ts';
import { fakeWindowRun, type FakeWindow } from './fake-runs.ts';
import type { ReleaseTrack } from '@rtbench/verdicts';

const IDENTITY: MatrixIdentity = { filter: '', threshold: 0.01, timePerSetMs: 100, warmupMs: 150, sets: 12, setsPerProcess: 2, windowSize: 6 };
const CASES = ['parse / arrow', 'parse / plain'];
/** Release 3 makes the arrow case 0.6× as long; nothing else changes. */
const factor = (release: string, caseId: string): number => (caseId === 'parse / arrow' && Number(release) >= 3 ? 0.6 : 1);

function track(releases: string[], listed = releases, runtime = 'node', suite = 'fake'): ReleaseTrack {
  return { key: `${runtime} × ${suite}`, runtime, extra: [], suite, range: `${runtime}@${listed[0]}..${runtime}@${listed.at(-1)}`, listed, releases };
}

/** A folder holding the matrix of `tracks`, each window measured by `measure` (or left short). */
function folderWith(tracks: ReleaseTrack[], measure: (w: Omit<FakeWindow, 'sets' | 'seed' | 'cases' | 'factor'>, n: number) => Omit<FakeWindow, 'runtime' | 'releases'> | undefined, shard?: { index: number; count: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-releases-'));
  const state = openMatrix(dir, IDENTITY, 'test machine', shard);
  state.asked = tracks.map(({ key, range, suite }) => ({ key, range, suite }));
  const mine = syncTracks(state, shardTracks(tracks, shard)).tracks;
  const runs = new Map<string, RunRecord>();
  let n = 0;
  for (const t of mine) {
    for (const w of t.windows) {
      const asked = measure({ runtime: t.runtime, releases: w.releases }, n++);
      if (!asked) continue;
      const file = `run-${n}.json`;
      const run = fakeWindowRun({ runtime: t.runtime, releases: w.releases, ...asked });
      writeFileSync(join(dir, file), JSON.stringify(run));
      runs.set(file, run);
      w.runs.push(file);
    }
  }
  saveMatrix(dir, state);
  return { dir, state, tracks: mine, read: (f: string) => runs.get(f)! };
}

const full = (seed: number) => (_: unknown, n: number) => ({ cases: CASES, factor, sets: 12, seed: seed + n });

describe('a release matrix', () => {
  it('marks the step where a case changed, with the engines on both sides and the command that reproduces it, and no other', () => {
    const { state, tracks, read, dir } = folderWith([track(['1', '2', '3', '4'])], full(7));
    const view = analyseMatrix(state.identity, tracks, read, dir);
    expect(view.comparisons).toBe(6);
    expect(view.changePoints).toHaveLength(1);
    const [c] = view.changePoints;
    expect(c).toMatchObject({ caseId: 'parse / arrow', older: '2', newer: '3', direction: 'faster', skipped: [] });
    expect(c!.comparison.ratio).toBeGreaterThan(0.55);
    expect(c!.comparison.ratio).toBeLessThan(0.65);
    expect(c!.engines).toEqual({ older: { version: '2', engine: 'V8 engine-of-2' }, newer: { version: '3', engine: 'V8 engine-of-3' } });
    expect(c!.compareCommand).toBe("rtbench bench fake --compare node@2 node@3 --filter '/^parse \\/ arrow$/'");
    expect(c!.bisectCommand).toBeUndefined();
    // The case's time relative to the first release follows the steps: ~1, ~1, ~0.6, ~0.6.
    const arrow = view.tracks[0]!.cases.find((s) => s.caseId === 'parse / arrow')!;
    expect(arrow.relative[3]).toBeGreaterThan(0.55);
    expect(arrow.relative[3]).toBeLessThan(0.65);
    expect(arrow.relative[1]).toBeGreaterThan(0.95);
    expect(view.tracks[0]!.setsMeasured).toBe(view.tracks[0]!.setsWanted);
  });

  it('marks each of two steps of one case, each with its command', () => {
    // Release 2 makes the arrow case twice as long, release 4 twice as long again.
    const twoSteps = (release: string, caseId: string): number => (caseId === 'parse / arrow' ? (Number(release) >= 2 ? 2 : 1) * (Number(release) >= 4 ? 2 : 1) : 1);
    const { state, tracks, read, dir } = folderWith([track(['1', '2', '3', '4'])], (_, n) => ({ cases: CASES, factor: twoSteps, sets: 12, seed: 21 + n }));
    // A threshold of 30%, as that test's: a change of a few percent between processes is no change point.
    const view = analyseMatrix({ ...state.identity, threshold: 0.3 }, tracks, read, dir);
    expect(view.changePoints.map((c) => [c.caseId, c.older, c.newer, c.direction])).toEqual([
      ['parse / arrow', '1', '2', 'slower'],
      ['parse / arrow', '3', '4', 'slower'],
    ]);
    expect(view.changePoints.map((c) => c.compareCommand)).toEqual([
      "rtbench bench fake --compare node@1 node@2 --filter '/^parse \\/ arrow$/'",
      "rtbench bench fake --compare node@3 node@4 --filter '/^parse \\/ arrow$/'",
    ]);
  });

  it("marks a step between a package's versions, with the suite's comparison of the two as its command", () => {
    // A package's versions are a track as a runtime's releases are: react@19.3.92 renders four times as slowly.
    const CASE = 'react / renderToString';
    const slower = (release: string): number => (release === '19.3.92' ? 4 : 1);
    const { state, tracks, read, dir } = folderWith([track(['19.3.90', '19.3.91', '19.3.92'], undefined, 'react', 'ssr')], (_, n) => ({ cases: [CASE], factor: slower, sets: 6, seed: 31 + n }));
    const view = analyseMatrix({ ...state.identity, threshold: 0.3 }, tracks, read, dir);
    expect(view.changePoints.map((c) => [c.caseId, c.older, c.newer, c.direction])).toEqual([[CASE, '19.3.91', '19.3.92', 'slower']]);
    expect(view.changePoints[0]!.compareCommand).toBe("rtbench bench ssr --compare react@19.3.91 react@19.3.92 --filter '/^react \\/ renderToString$/'");
  });

  it('names the bisect that finds the step when --every skipped releases between the two', () => {
    const listed = ['1', '2', '3', '4', '5'];
    const { state, tracks, read, dir } = folderWith([track(thin(listed, 2), listed)], full(11));
    const [c, ...rest] = analyseMatrix(state.identity, tracks, read, dir).changePoints;
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ older: '1', newer: '3', skipped: ['2'] });
    expect(c!.bisectCommand).toBe("rtbench bisect node@1..node@3 fake --filter '/^parse \\/ arrow$/'");
  });

  it('marks no change point when every release is the same', () => {
    const { state, tracks, read, dir } = folderWith([track(['1', '2', '3', '4', '5', '6'])], (_, n) => ({ cases: CASES, factor: () => 1, sets: 12, seed: 100 + n }));
    const view = analyseMatrix(state.identity, tracks, read, dir);
    expect(view.changePoints).toEqual([]);
    expect(view.tracks[0]!.cases.every((c) => c.steps.every((s) => s && s.comparison.verdict !== 'faster' && s.comparison.verdict !== 'slower'))).toBe(true);
  });

  it('asks, after an interruption, only for the sets still missing; and after a release is published, only for its step', () => {
    const { state, tracks, read, dir } = folderWith([track(['1', '2', '3'])], (_, n) => ({ cases: CASES, factor, sets: 12, stopAfter: 5, seed: 3 + n }));
    const jobs = pendingJobs(IDENTITY, tracks, read);
    expect(jobs.map((j) => [j.window.releases, j.sets])).toEqual([[['1', '2', '3'], 7]]);
    // The same folder reopened with a release more: the old window keeps its sets, the new step gets a window of its own.
    const again = openMatrix(dir, IDENTITY, 'test machine');
    const [t] = syncTracks(again, [track(['1', '2', '3', '4'])]).tracks;
    expect(t!.windows.map((w) => w.releases)).toEqual([['1', '2', '3'], ['3', '4']]);
    expect(pendingJobs(IDENTITY, [t!], read).map((j) => [j.window.releases, j.sets])).toEqual([[['1', '2', '3'], 7], [['3', '4'], 12]]);
    expect(state.tracks).toHaveLength(1);
  });

  it('refuses a folder asked differently or holding another shard, in one line; another machine adds its sittings', () => {
    const { dir } = folderWith([track(['1', '2'])], full(1));
    expect(() => openMatrix(dir, { ...IDENTITY, sets: 20 }, 'test machine')).toThrow(MatrixRefused);
    expect(() => openMatrix(dir, { ...IDENTITY, sets: 20 }, 'test machine')).toThrow(/sets: 12 there, 20 now/);
    expect(openMatrix(dir, IDENTITY, 'another machine').machines).toEqual(['test machine', 'another machine']);
    expect(() => openMatrix(dir, IDENTITY, 'test machine', { index: 1, count: 2 })).toThrow(/shard none, not 1\/2/);
  });

  it('resumes a state as an earlier sitting saved it: its windows and runs kept, this machine added', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-releases-saved-'));
    // The file as a sitting writes it: one track, one window with one run.
    const text = `{
 "schema": "rtbench.releases",
 "version": 1,
 "identity": {"filter": "", "threshold": 0.01, "timePerSetMs": 100, "warmupMs": 150, "sets": 12, "setsPerProcess": 2, "windowSize": 6},
 "machines": ["builder, Some CPU"],
 "tracks": [{"key": "node × fake", "runtime": "node", "extra": [], "suite": "fake", "range": "node@1..node@3", "listed": ["1", "2", "3"], "releases": ["1", "2", "3"], "windows": [{"releases": ["1", "2", "3"], "runs": ["node-fake-1..3-1.json"]}]}]
}
`;
    writeFileSync(join(dir, 'releases.state'), text);
    const state = openMatrix(dir, IDENTITY, 'test machine');
    expect(state.machines).toEqual(['builder, Some CPU', 'test machine']);
    const [t] = syncTracks(state, [track(['1', '2', '3'])]).tracks;
    expect(t!.windows).toEqual([{ releases: ['1', '2', '3'], runs: ['node-fake-1..3-1.json'] }]);
  });

  it('deals whole tracks to shards, and merged shards give the answer of one folder holding the same runs', () => {
    const tracks = [track(['1', '2', '3', '4']), track(['1', '2', '3'], undefined, 'bun'), track(['1', '2', '3'], undefined, 'node', 'other')];
    expect(shardTracks(tracks, { index: 1, count: 2 }).map((t) => t.key)).toEqual(['node × fake', 'node × other']);
    expect(shardTracks(tracks, { index: 2, count: 2 }).map((t) => t.key)).toEqual(['bun × fake']);
    // Each window's runs are made from its key alone, so the shards and the whole hold the same samples.
    const seedOf = (w: { runtime: string; releases: readonly string[] }): number => [...`${w.runtime}${w.releases.join()}`].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 100_000, 7);
    const measure = (w: { runtime: string; releases: readonly string[] }) => ({ cases: CASES, factor, sets: 12, seed: seedOf(w) });
    const whole = folderWith(tracks, measure);
    const shards = [1, 2].map((index) => folderWith(tracks, measure, { index, count: 2 }));
    const out = mkdtempSync(join(tmpdir(), 'rtbench-releases-merged-'));
    const merged = mergeMatrices(shards.map((s) => s.dir), out);
    const readMerged = (f: string): RunRecord => shards[Number(/^shard-(\d)\//.exec(f)![1]) - 1]!.read(f.replace(/^shard-\d\//, ''));
    const points = (v: ReturnType<typeof analyseMatrix>) => v.changePoints.map((c) => [c.track, c.caseId, c.older, c.newer, c.direction, c.comparison.ratio.toFixed(6)]);
    // Tracks come out in shard order; the answer is the same set of change points.
    const mergedPoints = points(analyseMatrix(merged.identity, merged.tracks, readMerged, out)).sort();
    expect(mergedPoints).toEqual(points(analyseMatrix(whole.state.identity, whole.tracks, whole.read, whole.dir)).sort());
    expect(mergedPoints.length).toBe(3);
    expect(() => mergeMatrices([shards[0]!.dir], out)).toThrow(/two or more/);
    expect(() => mergeMatrices([shards[0]!.dir, shards[0]!.dir], out)).toThrow(/given twice/);
    expect(() => mergeMatrices([shards[0]!.dir, whole.dir], out)).toThrow(/not a shard/);
  });
});
