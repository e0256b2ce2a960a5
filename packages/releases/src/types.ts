/**
 * The shapes a release matrix is made of, declared once: a track (one
 * runtime's releases on one suite, never split across machines), the windows
 * of adjacent releases measured together as variants of one design, the state
 * its folder keeps. What the analysis decides (steps, change points) is
 * shaped in @rtbench/verdicts (release-matrix.ts); the view that carries it,
 * in @rtbench/report (views/releases.ts).
 */
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import type { ReleaseTrack } from '@rtbench/verdicts';

/** What must match for a folder's measurements to be reused: the same question, measured the same way. */
export interface MatrixIdentity {
  /** The --filter patterns, joined as the plan joins them ('' for every case). */
  filter: string;
  /** A change smaller than this is not one (0.01 = 1%). */
  threshold: number;
  /** Sampling time per process and set, in ms. */
  timePerSetMs: number;
  /** Warmup floor per process and case, in ms. */
  warmupMs: number;
  /** Sets of processes every window gets (each set holds one process per release of the window). */
  sets: number;
  /** Consecutive sets one process serves (the unit of an interval is the set of processes). */
  setsPerProcess: number;
  /** Most releases measured side by side in one set. */
  windowSize: number;
}

/** Releases measured together: a contiguous part of a track's releases, one process each per set. */
export interface WindowState {
  releases: string[];
  /** Run files in the folder (relative to it), in the order they were measured; each holds fresh sets of this window. */
  runs: string[];
}

export interface TrackState extends ReleaseTrack {
  windows: WindowState[];
}

export interface MatrixState {
  schema: 'rtbench.releases';
  version: 1;
  identity: MatrixIdentity;
  /** The machines that measured its runs (each run records its host too); a step is paired inside a run's sets only. */
  machines: string[];
  /** --shard i/n this folder measured; absent: the whole matrix (or a merge of every shard). */
  shard?: { index: number; count: number };
  /** A merged folder: the shard folders it was made from. */
  mergedFrom?: string[];
  tracks: TrackState[];
  /** Claims outcomes on the tracks' releases, from the claims runs `--claims` named (absent: none given yet). */
  claims?: ReleaseClaim[];
}

/**
 * One claims outcome on one release of a track, kept in the state so that a
 * redraw (which reads no claims run) still shows it.
 */
export interface ReleaseClaim {
  /** The track's key. */
  track: string;
  /** The release the claim was checked on: a tag of the track. */
  release: string;
  /**
   * Its sides with that release written as the runtime alone ("node",
   * "node --jitless", "node #2"; another release stays as it is, "node@24"):
   * the same check lines up across the releases.
   */
  sides: { subject: string; other: string };
  /** The claims run: its id (a run given again replaces its outcomes), its file as given, when it started (the newest run's word is shown). */
  run: { id: string; file: string; startedAt: string };
  outcome: ClaimOutcome;
}

