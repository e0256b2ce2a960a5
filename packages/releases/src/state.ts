/**
 * A matrix's folder: its runs (one file per window and sitting, read by
 * `report` and `history` as any run) and `releases.state` (not .json, so a
 * history of the folder reads only runs), which names the tracks, their
 * windows and each window's run files. How many sets a window has is read
 * from its runs, not written down, so a run cut short (Ctrl-C, a crash, a
 * killed CI job) counts for the sets it saved, and the same command measures
 * only the sets still missing, in fresh processes.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '@rtbench/host';
import type { MatrixIdentity, MatrixState, TrackState } from './types.ts';
import { windowsToAdd } from './windows.ts';
import type { ReleaseTrack } from '@rtbench/verdicts';

const STATE_FILE = 'releases.state';

/** Whether a path is a release matrix's folder (what `merge` joins as shards of a matrix rather than runs). */
export function isMatrixFolder(path: string): boolean {
  return existsSync(join(path, STATE_FILE));
}

/** A folder that cannot hold this matrix, said in one line (the CLI's usage error). */
export class MatrixRefused extends Error {
  override readonly name = 'MatrixRefused';
}

function readState(dir: string): MatrixState | undefined {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  let state: MatrixState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as MatrixState;
  } catch (error) {
    throw new MatrixRefused(`${file} is not readable (${(error as Error).message.split('\n')[0]}); remove it to start the matrix again`);
  }
  if (state.schema !== 'rtbench.releases' || state.version !== 1) throw new MatrixRefused(`${file} is not an rtbench release matrix`);
  return state;
}

/** A folder's saved matrix, as it is (for merge and for drawing); refused when there is none. */
export function loadMatrix(dir: string): MatrixState {
  const state = readState(dir);
  if (!state) throw new MatrixRefused(`${dir} holds no release matrix (no ${STATE_FILE})`);
  return state;
}

/**
 * The folder's matrix, continued when it was asked the same way (and is the
 * same shard), else a new one; a folder holding another matrix is
 * refused, naming what differs.
 */
export function openMatrix(dir: string, identity: MatrixIdentity, machine: string, shard?: { index: number; count: number }): MatrixState {
  mkdirSync(dir, { recursive: true });
  const state = readState(dir);
  if (!state) return { schema: 'rtbench.releases', version: 1, identity, machines: [machine], ...(shard ? { shard } : {}), tracks: [] };
  const differ = (Object.keys(identity) as (keyof MatrixIdentity)[]).filter((k) => state.identity[k] !== identity[k]);
  if (differ.length) throw new MatrixRefused(`${dir} holds a matrix asked differently (${differ.map((k) => `${k}: ${state.identity[k]} there, ${identity[k]} now`).join('; ')}); name another --dir or remove that one`);
  if (state.mergedFrom) throw new MatrixRefused(`${dir} holds merged shards; measure into another --dir (a merged matrix is redrawn by merging its shards again: rtbench merge <shard folder>… --save ${dir})`);
  // A step is paired inside each run's sets, never across runs, so sittings on several machines (CI runners) pool as independent units.
  if (!state.machines.includes(machine)) state.machines.push(machine);
  const was = state.shard ? `${state.shard.index}/${state.shard.count}` : 'none';
  const now = shard ? `${shard.index}/${shard.count}` : 'none';
  if (was !== now) throw new MatrixRefused(`${dir} holds shard ${was}, not ${now}; name another --dir`);
  return state;
}

/**
 * The tracks as listed now, in the state: a track seen before keeps its
 * windows and gets new ones only for steps none of them holds (a release
 * published since); a new track gets its windows. Returns the tracks of this
 * matrix, in the order given.
 */
export function syncTracks(state: MatrixState, tracks: readonly ReleaseTrack[]): TrackState[] {
  return tracks.map((track) => {
    let saved = state.tracks.find((t) => t.key === track.key);
    if (!saved) {
      saved = { ...track, windows: [] };
      state.tracks.push(saved);
    } else Object.assign(saved, { range: track.range, listed: track.listed, releases: track.releases });
    for (const releases of windowsToAdd(track.releases, saved.windows, state.identity.windowSize)) saved.windows.push({ releases, runs: [] });
    return saved;
  });
}

export function saveMatrix(dir: string, state: MatrixState): void {
  writeFileAtomically(join(dir, STATE_FILE), `${JSON.stringify(state, null, 1)}\n`);
}
