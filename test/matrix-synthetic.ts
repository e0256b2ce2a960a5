/** Release matrix folders for the CLI's tests, as `rtbench releases` leaves them: a state and one saved run per window, made up (no runtime). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { fakeWindowRun } from '../packages/releases/test/fake-runs.ts';

export interface SyntheticMatrix {
  runtime: string;
  releases: string[];
  cases: string[];
  /** Time of a release on a case, relative to the first. */
  factor: (release: string, caseId: string) => number;
  suite?: string;
  shard?: { index: number; count: number };
  sets?: number;
  seed?: number;
  /** A shard's whole matrix, every shard's track in order, as its command asked them (what a merge checks the shards agree on). */
  asked?: SyntheticMatrix[];
}

/** The track a matrix of one runtime and suite names: its key, range and suite. */
function askedTrack(m: SyntheticMatrix): { key: string; range: string; suite: string } {
  const suite = m.suite ?? 'fake';
  return { key: `${m.runtime} × ${suite}`, range: `${m.runtime}@${m.releases[0]}..${m.runtime}@${m.releases.at(-1)}`, suite };
}

export const MATRIX_IDENTITY = { filter: '', threshold: 0.01, timePerSetMs: 100, warmupMs: 150, sets: 12, setsPerProcess: 2, windowSize: 6 };

/** The state a folder of one track, measured in one window, keeps. */
export function matrixState(m: SyntheticMatrix, runs: string[]): Record<string, unknown> {
  return {
    schema: 'rtbench.releases',
    version: 1,
    identity: { ...MATRIX_IDENTITY, sets: m.sets ?? 12 },
    machines: ['test machine'],
    ...(m.shard ? { shard: m.shard } : {}),
    ...(m.asked ? { asked: m.asked.map(askedTrack) } : {}),
    tracks: [{ ...askedTrack(m), runtime: m.runtime, extra: [], listed: m.releases, releases: m.releases, windows: [{ releases: m.releases, runs }] }],
  };
}

/** A folder holding the matrix `m`: its state and the window's run (`run.json`). Returns the run. */
export function writeMatrixFolder(dir: string, m: SyntheticMatrix): RunRecord {
  mkdirSync(dir, { recursive: true });
  const run = fakeWindowRun({ runtime: m.runtime, releases: m.releases, cases: m.cases, factor: m.factor, sets: m.sets ?? 12, seed: m.seed ?? 1, id: `${dir}-run` });
  writeFileSync(join(dir, 'run.json'), JSON.stringify(run));
  writeFileSync(join(dir, 'releases.state'), JSON.stringify(matrixState(m, ['run.json'])));
  return run;
}
