/**
 * One sitting of a release matrix, as `rtbench releases` holds it: the
 * folder opened and locked, the tracks written into its state, what is still
 * to measure and what it will cost, then the windows short of their sets
 * measured in turn. Each window's missing sets are one run of its releases,
 * planned by the command as `bench --compare` plans them; its file is named
 * in the state before it starts, so a sitting stopped mid-window continues
 * it. The view is redrawn from the folder. The campaign loop (@rtbench/run
 * campaign-loop.ts) holds the sitting through the matrix's planner
 * (campaign.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { slug } from '@rtbench/host/files';
import type { ReleaseMatrixView } from '@rtbench/report/views';
import type { RunRequest } from '@rtbench/run';
import { listLatest, listRange } from '@rtbench/arms';
import { analyseMatrix } from './analysis.ts';
import { folderRuns } from './folder-files.ts';
import { estimateJobMs, pendingJobs, planTracks, type TrackPlan, type WindowJob } from './estimate.ts';
import { keepClaims } from './claims.ts';
import { MatrixRefused } from './refused.ts';
import { askedTrack, holdMatrix, saveMatrix, syncTracks } from './state.ts';
import { shardTracks } from './shard.ts';
import { thin } from './windows.ts';
import type { MatrixIdentity, MatrixState, ReleaseClaim, TrackState } from './types.ts';
import type { ReleaseTrack } from '@rtbench/verdicts';

/**
 * The matrix's own defaults. A window's sets: 12, two per warm process (as a
 * comparison's lockstep sets), so 6 independent process sets per step, 2 more
 * than a bisect's first look; 100 ms of sampling per process and set as a
 * bisect's rounds; windows of up to 6 releases (a set of 6 processes on 2
 * cores); 60 min per sitting. The warmup and the threshold are the default
 * measurer's for a comparison.
 */
export const MATRIX_DEFAULTS = { sets: 12, setsPerProcess: 2, timePerSetMs: 100, window: 6, budgetMs: 60 * 60_000 } as const;

/** The files a matrix keeps in its folder, redrawn after every sitting and merge: its page and its report. */
export const MATRIX_FILES = { page: 'releases.html', report: 'releases.md' } as const;

/** The matrix's view, from its folder's runs (the command writes its page and report, MATRIX_FILES). */
export function drawMatrix(dir: string, state: MatrixState, tracks: readonly TrackState[]): ReleaseMatrixView {
  const runs = folderRuns(dir);
  const view = analyseMatrix(state.identity, tracks, runs.read, dir, state.claims);
  if (runs.notes.length) view.notes = runs.notes;
  return view;
}

/**
 * The run file of a window's next sitting: a name neither in the folder nor in
 * its state, so that no run is ever listed for two windows (two tracks that
 * differ only in their flags share the rest of the name).
 */
export function nextRunFile(dir: string, state: MatrixState, job: Pick<WindowJob, 'track' | 'window'>, suiteName: string): string {
  const named = new Set([...state.tracks, ...(state.setAside ?? [])].flatMap((t) => t.windows.flatMap((w) => w.runs)));
  for (let n = job.window.runs.length + 1; ; n++) {
    const file = slug(`${job.track.runtime}-${suiteName}-${job.window.releases[0]}..${job.window.releases.at(-1)}-${n}`) + '.json';
    if (!named.has(file) && !existsSync(join(dir, file))) return file;
  }
}

/**
 * The tracks a command names: each range (its releases listed, thinned to
 * every `every`th) on each suite, in the order typed; and the versions of a
 * package's range left out because their set cannot be had in the suites,
 * one line each.
 */
export async function listTracks(ranges: readonly string[], suites: readonly string[], every: number, suiteName: (suite: string) => string): Promise<{ tracks: ReleaseTrack[]; skipped: string[] }> {
  const tracks: ReleaseTrack[] = [];
  const skipped: string[] = [];
  for (const text of ranges) {
    const range = (await listLatest(text, 'releases', suites)) ?? (await listRange(text, 'releases', suites));
    for (const s of range.skipped ?? []) skipped.push(`${range.runtime}@${s.tag} left out: ${s.reason}`);
    if (range.tags.length < 2) throw new MatrixRefused(`releases ${text}: ${range.tags.length === 1 ? '1 release' : `${range.tags.length} releases`} listed; a step needs two`);
    const releases = thin(range.tags, every);
    const name = [range.runtime, ...range.extra].join(' ');
    // A track is known by its runtime and flags, so that a range grown by a new release continues its folder.
    if (tracks.some((t) => [t.runtime, ...t.extra].join(' ') === name)) throw new MatrixRefused(`releases: two ranges of ${name}; give one range per runtime (and flags)`);
    for (const suite of suites) {
      tracks.push({ key: `${name} × ${suiteName(suite)}`, runtime: range.runtime, extra: range.extra, suite, range: text, listed: range.tags, releases });
    }
  }
  return { tracks, skipped };
}

/** What a sitting asks of the command. */
export interface WindowPlanner {
  /** The run of `releases` of the track for `sets` sets, planned as `bench --compare` plans them (suite, filter, flags). */
  planWindow(track: TrackState, releases: readonly string[], sets: number): Promise<RunRequest>;
  /** The name a suite argument stands for (a suite given as a path goes by its own name). */
  suiteName(suite: string): string;
}

/** How a sitting opens its folder. */
export interface SittingOptions {
  /** --shard i/n: the tracks this folder measures are dealt from all the tracks asked. */
  shard?: { index: number; count: number };
  /** Claims outcomes (matched by matchClaims) to keep for its tracks. */
  claims?: readonly ReleaseClaim[];
  /** --plan: the folder read, nothing written (no folder made, no lock taken, no state saved). */
  planOnly?: boolean;
  /** The campaign loop holds the folder's lock already. */
  lockHeld?: boolean;
}

export class MatrixSitting {
  readonly tracks: TrackState[];
  /** Keys of the tracks the folder held and this command no longer asks (set aside in the state). */
  readonly setAside: string[];
  /** The windows short of their sets, in the state's order. */
  readonly jobs: WindowJob[];
  private readonly cases = new Map<string, number>();

  private constructor(
    readonly dir: string,
    readonly state: MatrixState,
    all: readonly ReleaseTrack[],
    private readonly planner: WindowPlanner,
    readonly close: () => void,
    private readonly options: SittingOptions,
  ) {
    // Every track asked, before the shard's are dealt: what a merge checks the shards agree on.
    state.asked = all.map(askedTrack);
    ({ tracks: this.tracks, setAside: this.setAside } = syncTracks(state, shardTracks(all, options.shard)));
    keepClaims(state, this.tracks, options.claims ?? []);
    if (!options.planOnly) saveMatrix(dir, state);
    this.jobs = pendingJobs(state.identity, this.tracks, folderRuns(dir).read);
  }

  /** The folder's matrix, continued or begun, locked against a second sitting unless only planned (MatrixRefused: another matrix is there). */
  static open(dir: string, identity: MatrixIdentity, all: readonly ReleaseTrack[], planner: WindowPlanner, options: SittingOptions = {}): MatrixSitting {
    const held = holdMatrix(dir, identity, { shard: options.shard, lock: options.planOnly !== true && options.lockHeld !== true });
    try {
      return new MatrixSitting(dir, held.state, all, planner, held.close, options);
    } catch (error) {
      held.close();
      throw error;
    }
  }

  /** What is still to measure, per track, with the time it will take; the cases of each suite as the run will pick them (the plan of a first window installs its releases). */
  async plans(): Promise<TrackPlan[]> {
    for (const track of this.tracks) {
      if (this.cases.has(track.suite)) continue;
      const probe = await this.planner.planWindow(track, track.windows[0]!.releases.slice(0, 2), 6);
      const filter = this.state.identity.filter;
      if (probe.suite.cases.length === 0) throw new MatrixRefused(filter ? `--filter ${filter} picks no case of ${track.suite}` : `${track.suite} has no case to measure`);
      this.cases.set(track.suite, probe.suite.cases.length);
    }
    return planTracks(this.state.identity, this.tracks, this.jobs, (t) => this.casesOf(t));
  }

  private casesOf(track: TrackState): number {
    return this.cases.get(track.suite) ?? 0;
  }

  /** A window's next run: its file named in the state before it is measured, so a sitting stopped mid-window continues it. */
  nameRun(job: WindowJob): string {
    const file = nextRunFile(this.dir, this.state, job, this.planner.suiteName(job.track.suite));
    job.window.runs.push(file);
    if (!this.options.planOnly) saveMatrix(this.dir, this.state);
    return file;
  }

  /** The run of a window's missing sets, planned as `bench --compare` plans its releases. */
  planJob(job: WindowJob): Promise<RunRequest> {
    return this.planner.planWindow(job.track, job.window.releases, job.sets);
  }

  /** The estimate of a window's run. */
  estimateMs(job: WindowJob): number {
    return estimateJobMs(this.state.identity, job, this.casesOf(job.track));
  }

  draw(): ReleaseMatrixView {
    return drawMatrix(this.dir, this.state, this.tracks);
  }
}
