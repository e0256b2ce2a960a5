/**
 * What a matrix will cost, said before anything runs: per track the releases,
 * the cases, the sets and processes still to measure, and an estimate of the
 * time. A set keeps one process per release of its window live and asks each
 * for one sample per case in turn; a process warms each case it serves.
 */
import type { MatrixIdentity, TrackState } from './types.ts';
import { setsOf, type RunReader } from './analysis.ts';

/** A window short of its sets: what the next sitting measures, into a new run file. */
export interface WindowJob {
  track: TrackState;
  window: TrackState['windows'][number];
  /** Sets still to measure. */
  sets: number;
}

export interface TrackPlan {
  key: string;
  releases: number;
  cases: number;
  windows: number;
  sets: number;
  processes: number;
  estimateMs: number;
}

/**
 * A process's start, load and bundle, before its first case: what a set of
 * fresh processes pays once, on a 2-core machine (docs/releases.md, "The
 * estimate").
 */
const PROCESS_START_MS = 400;

/** The windows still short of their sets, in the state's order. */
export function pendingJobs(identity: MatrixIdentity, tracks: readonly TrackState[], read: RunReader): WindowJob[] {
  const jobs: WindowJob[] = [];
  for (const track of tracks) {
    for (const window of track.windows) {
      const done = setsOf(window, track, read);
      if (done < identity.sets) jobs.push({ track, window, sets: identity.sets - done });
    }
  }
  return jobs;
}

export function processesOf(job: Pick<WindowJob, 'sets' | 'window'>, setsPerProcess: number): number {
  return Math.ceil(job.sets / setsPerProcess) * job.window.releases.length;
}

/** The time a window's sets take: every process samples every case once per set and warms each case once per visit. */
export function estimateJobMs(identity: MatrixIdentity, job: Pick<WindowJob, 'sets' | 'window'>, cases: number): number {
  const k = job.window.releases.length;
  const perCaseAndProcess = identity.timePerSetMs + identity.warmupMs;
  return job.sets * cases * k * perCaseAndProcess + processesOf(job, identity.setsPerProcess) * PROCESS_START_MS;
}

export function planTracks(identity: MatrixIdentity, tracks: readonly TrackState[], jobs: readonly WindowJob[], casesOf: (track: TrackState) => number): TrackPlan[] {
  return tracks.map((track) => {
    const mine = jobs.filter((j) => j.track === track);
    const cases = casesOf(track);
    return {
      key: track.key,
      releases: track.releases.length,
      cases,
      windows: mine.length,
      sets: mine.reduce((n, j) => n + j.sets, 0),
      processes: mine.reduce((n, j) => n + processesOf(j, identity.setsPerProcess), 0),
      estimateMs: mine.reduce((n, j) => n + estimateJobMs(identity, j, cases), 0),
    };
  });
}
