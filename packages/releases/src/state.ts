/**
 * A matrix's folder: its runs (one file per window and sitting, read by
 * `report` and `history` as any run) and `releases.state` (not .json, so a
 * history of the folder reads only runs), which names the tracks, their
 * windows and each window's run files. How many sets a window has is read
 * from its runs, not written down, so a run cut short (Ctrl-C, a crash, a
 * killed CI job) counts for the sets it saved, and the same command measures
 * only the sets still missing, in fresh processes. The state is input like a
 * saved run (edited, restored from a cache, merged): it is checked against
 * its schema before any field is used, and refused in one line naming the
 * file and the field: the campaign's state model (@rtbench/campaign
 * campaign-state.ts) reads, checks and saves it under the matrix's policy.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { matrixStateSchema, RELEASES_SCHEMA, RELEASES_STATE_VERSION } from '@rtbench/core/releases-schema';
import { identityDifference as differences, openCampaignState, readCampaignState, resumeCampaignState, saveCampaignState, type CampaignStatePolicy, type OpenCampaign } from '@rtbench/campaign';
import { MatrixRefused } from './refused.ts';
import type { AskedTrack, MatrixIdentity, MatrixState, TrackState } from './types.ts';
import { windowsToAdd } from './windows.ts';
import type { ReleaseTrack } from '@rtbench/verdicts';

const STATE_FILE = 'releases.state';
/** Held while a sitting measures into the folder. */
export const LOCK_FILE = 'releases.lock';

/** Whether a path is a release matrix's folder (what `merge` joins as shards of a matrix rather than runs). */
export function isMatrixFolder(path: string): boolean {
  return existsSync(join(path, STATE_FILE));
}

/** "tracks[0].windows[1].runs[0]": where in the state a problem is. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '') || 'the top level';
}

/** An identity's field as a person reads it: an empty filter is no filter, not nothing. */
function identityText(key: keyof MatrixIdentity, value: MatrixIdentity[keyof MatrixIdentity]): string {
  if (key === 'filter') return value === '' ? 'no --filter' : JSON.stringify(value);
  return String(value);
}

/**
 * A matrix's policy as a campaign's state: its tracks, windows and runs
 * stored under its question, checked against its schema; resumed on any
 * machine (a step is paired inside each run's sets, never across runs, so
 * sittings on several machines, CI runners, pool as independent units),
 * each one named; never into a merge of shards, nor as another shard.
 */
function matrixPolicy(shard?: { index: number; count: number }): CampaignStatePolicy<MatrixIdentity, MatrixState> {
  return {
    what: 'release matrix',
    stateFile: STATE_FILE,
    lockFile: LOCK_FILE,
    schema: RELEASES_SCHEMA,
    version: RELEASES_STATE_VERSION,
    restart: 'restore it, or start the matrix in another folder',
    check: (json) => {
      const parsed = matrixStateSchema.safeParse(json);
      if (parsed.success) return { state: parsed.data };
      const issue = parsed.error.issues[0]!;
      return { field: fieldPath(issue.path), why: issue.message.replace(/^Invalid input: /, '') };
    },
    begin: (identity, machine) => ({ schema: RELEASES_SCHEMA, version: RELEASES_STATE_VERSION, identity, machines: [machine], ...(shard ? { shard } : {}), tracks: [] }),
    resume: (state, machine, dir) => {
      if (state.mergedFrom) throw new MatrixRefused(`${dir} holds merged shards; measure into another --dir (a merged matrix is redrawn by merging its shards again: rtbench merge <shard folder>… --save ${dir})`);
      if (!state.machines.includes(machine)) state.machines.push(machine);
      const was = state.shard ? `${state.shard.index}/${state.shard.count}` : 'none';
      const now = shard ? `${shard.index}/${shard.count}` : 'none';
      if (was !== now) throw new MatrixRefused(`${dir} holds shard ${was}, not ${now}; name another --dir`);
    },
    fieldText: identityText,
    refused: (message) => new MatrixRefused(message),
  };
}

/** A folder's saved matrix, checked; refused when there is none. */
export function loadMatrix(dir: string): MatrixState {
  const state = readCampaignState(dir, matrixPolicy());
  if (!state) throw new MatrixRefused(`${dir} holds no release matrix (no ${STATE_FILE})`);
  return state;
}

/** The fields in which two identities differ, said as "sets: 12 there, 20 now". */
export function identityDifference(there: MatrixIdentity, now: MatrixIdentity, words = { there: 'there', now: 'now' }): string[] {
  return differences(there, now, identityText, words);
}

/**
 * The folder's matrix, continued when it was asked the same way (and is the
 * same shard), else a new one; a folder holding another matrix is
 * refused, naming what differs. Creates nothing: the sitting makes the folder.
 */
export function openMatrix(dir: string, identity: MatrixIdentity, machine: string, shard?: { index: number; count: number }): MatrixState {
  return resumeCampaignState(dir, matrixPolicy(shard), identity, machine);
}

/** The folder's matrix held for a sitting on this machine: locked unless only read (--plan) or the campaign loop holds the lock, then continued or begun as openMatrix continues it. */
export function holdMatrix(dir: string, identity: MatrixIdentity, options: { shard?: { index: number; count: number } | undefined; lock: boolean }): OpenCampaign<MatrixState> {
  return openCampaignState(dir, matrixPolicy(options.shard), identity, { lock: options.lock });
}

/** A track as the command asked it (what shards of one matrix agree on). */
export function askedTrack(track: Pick<ReleaseTrack, 'key' | 'range' | 'suite'>): AskedTrack {
  return { key: track.key, range: track.range, suite: track.suite };
}

/** The tracks a command asks of a folder, and those it held that the command no longer asks (set aside). */
export interface SyncedTracks {
  tracks: TrackState[];
  setAside: string[];
}

/**
 * The folder's tracks follow the command: the tracks asked, in the order
 * given, each one seen before (set aside or not) keeping its windows and
 * getting new ones only for steps none of them holds (a release published
 * since), a new one getting its windows; a track held and no longer asked is
 * set aside (kept with its runs, neither drawn nor merged, continued if asked
 * again), so an edit of the command's ranges never leaves a track behind.
 */
export function syncTracks(state: MatrixState, tracks: readonly ReleaseTrack[]): SyncedTracks {
  const known = [...state.tracks, ...(state.setAside ?? [])];
  const asked = tracks.map((track) => {
    const saved: TrackState = known.find((t) => t.key === track.key) ?? { ...track, windows: [] };
    Object.assign(saved, { range: track.range, listed: track.listed, releases: track.releases });
    for (const releases of windowsToAdd(track.releases, saved.windows, state.identity.windowSize)) saved.windows.push({ releases, runs: [] });
    return saved;
  });
  const keys = new Set(asked.map((t) => t.key));
  const setAside = state.tracks.filter((t) => !keys.has(t.key)).map((t) => t.key);
  const aside = known.filter((t) => !keys.has(t.key));
  state.tracks = asked;
  if (aside.length) state.setAside = aside;
  else delete state.setAside;
  return { tracks: asked, setAside };
}

export function saveMatrix(dir: string, state: MatrixState): void {
  saveCampaignState(dir, matrixPolicy(), state);
}
