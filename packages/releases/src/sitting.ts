/**
 * One sitting of a release matrix, as `rtbench releases` holds it: the
 * folder opened and locked, the tracks written into its state, what is still
 * to measure and what it will cost, then the windows short of their sets
 * measured in turn within the budget. Each window's missing sets are one run
 * of its releases, planned by the command as `bench --compare` plans them and
 * run by the one run loop (@rtbench/run); its file is named in the state
 * before it starts, so a sitting stopped mid-window continues it. The page
 * and the report are redrawn from the folder. `sit` holds it as one
 * campaign (@rtbench/run campaign.ts), saying what happens; runReleases
 * (campaign.ts) opens it, and the command plans each window's run and shows
 * the lines and the answer.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { slug, writeFileAtomically } from '@rtbench/host';
import { budgetReachedLine, counted, formatClock, MARKDOWN_FLAG, pageReporter, printable, reporterFor, type ReleaseMatrixView } from '@rtbench/report';
import { BUDGET_EXIT, CampaignBudget, INTERRUPTED_EXIT, listLatest, listRange, runIntoFile, whileStoppable, type CampaignSay, type ProgressEvent, type RunRequest } from '@rtbench/run';
import { analyseMatrix } from './analysis.ts';
import { folderRuns } from './folder-files.ts';
import { estimateJobMs, pendingJobs, planTracks, processesOf, type TrackPlan, type WindowJob } from './estimate.ts';
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
export const MATRIX_DEFAULTS = { sets: 12, setsPerProcess: 2, time: '100ms', window: 6, budget: '60m' } as const;

/** The matrix's view, with its page and report written into the folder. */
export function drawMatrix(dir: string, state: MatrixState, tracks: readonly TrackState[]): ReleaseMatrixView {
  const runs = folderRuns(dir);
  const view = analyseMatrix(state.identity, tracks, runs.read, dir, state.claims);
  if (runs.notes.length) view.notes = runs.notes;
  const drawn = { color: false, columns: 100 };
  writeFileAtomically(join(dir, 'releases.html'), pageReporter().render(view, drawn));
  // Controls in a name are shown, as in every markdown output (the page escapes for itself).
  writeFileAtomically(join(dir, 'releases.md'), printable(reporterFor(MARKDOWN_FLAG)!.render(view, drawn)));
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

/** The tracks a command names: each range (its releases listed, thinned to every `every`th) on each suite, in the order typed. */
export async function listTracks(ranges: readonly string[], suites: readonly string[], every: number, suiteName: (suite: string) => string): Promise<ReleaseTrack[]> {
  const tracks: ReleaseTrack[] = [];
  for (const text of ranges) {
    const range = (await listLatest(text, 'releases')) ?? (await listRange(text, 'releases'));
    if (range.tags.length < 2) throw new MatrixRefused(`releases ${text}: ${counted(range.tags.length, 'release')} listed; a step needs two`);
    const releases = thin(range.tags, every);
    const name = [range.runtime, ...range.extra].join(' ');
    // A track is known by its runtime and flags, so that a range grown by a new release continues its folder.
    if (tracks.some((t) => [t.runtime, ...t.extra].join(' ') === name)) throw new MatrixRefused(`releases: two ranges of ${name}; give one range per runtime (and flags)`);
    for (const suite of suites) {
      tracks.push({ key: `${name} × ${suiteName(suite)}`, runtime: range.runtime, extra: range.extra, suite, range: text, listed: range.tags, releases });
    }
  }
  return tracks;
}

/** What a sitting asks of the command. */
export interface WindowPlanner {
  /** The run of `releases` of the track for `sets` sets, planned as `bench --compare` plans them (suite, filter, flags). */
  planWindow(track: TrackState, releases: readonly string[], sets: number): Promise<RunRequest>;
  /** The name a suite argument stands for (a suite given as a path goes by its own name). */
  suiteName(suite: string): string;
}

export interface SittingHooks {
  signal: AbortSignal;
  /** A window is about to be measured (its estimate in ms). */
  measuring?(job: WindowJob, estimateMs: number): void;
  onProgress?(job: WindowJob, event: ProgressEvent): void;
}

/** How a sitting opens its folder. */
export interface SittingOptions {
  /** --shard i/n: the tracks this folder measures are dealt from all the tracks asked. */
  shard?: { index: number; count: number };
  /** Claims outcomes (matched by matchClaims) to keep for its tracks. */
  claims?: readonly ReleaseClaim[];
  /** --plan: the folder read, nothing written (no folder made, no lock taken, no state saved). */
  planOnly?: boolean;
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
    const held = holdMatrix(dir, identity, { shard: options.shard, readOnly: options.planOnly === true });
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

  /** Measures the windows in turn; stops before one that would end past the campaign's budget, or when a run was interrupted. */
  async measure(budget: CampaignBudget, hooks: SittingHooks): Promise<'done' | 'budget' | 'interrupted'> {
    for (const job of this.jobs) {
      const estimate = estimateJobMs(this.state.identity, job, this.casesOf(job.track));
      if (!budget.fits(estimate)) return 'budget';
      const file = nextRunFile(this.dir, this.state, job, this.planner.suiteName(job.track.suite));
      job.window.runs.push(file);
      saveMatrix(this.dir, this.state);
      hooks.measuring?.(job, estimate);
      const request = await this.planner.planWindow(job.track, job.window.releases, job.sets);
      const path = join(this.dir, file);
      const run = await runIntoFile(request, path, { signal: hooks.signal, ...(hooks.onProgress ? { onProgress: (e: ProgressEvent) => hooks.onProgress!(job, e) } : {}) });
      if (run.status === 'interrupted') return 'interrupted';
    }
    return 'done';
  }

  draw(): ReleaseMatrixView {
    return drawMatrix(this.dir, this.state, this.tracks);
  }

  /**
   * The sitting as the command holds it, one campaign: what is still to
   * measure said up front; then, unless only planned, the windows measured
   * within the budget and stoppable, a line per window and per set, and the
   * page and report redrawn and handed to `drawn`. Its exit code (0,
   * BUDGET_EXIT, INTERRUPTED_EXIT).
   */
  async sit(budgetMs: number, say: CampaignSay, drawn: (view: ReleaseMatrixView) => void): Promise<number> {
    const { identity } = this.state;
    const { shard } = this.options;
    const plans = await this.plans();
    const total = plans.reduce((a, p) => ({ processes: a.processes + p.processes, ms: a.ms + p.estimateMs, sets: a.sets + p.sets }), { processes: 0, ms: 0, sets: 0 });
    say(`releases: ${counted(this.tracks.length, 'track')}${shard ? ` (shard ${shard.index}/${shard.count} of ${this.state.asked?.length ?? 0})` : ''}, sets of ${identity.sets} per window (${identity.setsPerProcess} per process), threshold ${+(identity.threshold * 100).toFixed(2)}%, budget ${formatClock(budgetMs)}`, 'heading');
    if (this.setAside.length) say(`set aside, no longer asked (kept in the folder; asked again, continued): ${this.setAside.join(', ')}`, 'warning');
    for (const p of plans) say(`  ${p.key}: ${p.releases} releases × ${counted(p.cases, 'case')}; to measure: ${counted(p.windows, 'window')}, ${p.sets} sets, ${p.processes} processes, ~${formatClock(p.estimateMs)}`);
    say(`folder ${this.dir}; ${total.sets ? `about ${formatClock(total.ms)} for ${total.processes} processes${total.ms > budgetMs ? ` (more than --budget ${formatClock(budgetMs)}: it stops there, and the same command continues)` : ''}` : 'nothing new to measure'}`, 'note');
    if (this.options.planOnly) return 0;

    const started = Date.now();
    let lastSet = -1;
    const ended = await whileStoppable((line) => say(line, 'warning'), 'stopping the current window; the sets measured are saved, run the same command to continue', (signal) =>
      this.measure(new CampaignBudget(budgetMs), {
        signal,
        measuring: (job, estimate) => {
          lastSet = -1;
          say(`  measuring ${job.track.key}: ${job.window.releases.join(', ')}: ${job.sets} sets, ${processesOf(job, identity.setsPerProcess)} processes, ~${formatClock(estimate)}`, 'note');
        },
        // A line as each set starts: how far a long window has gone.
        onProgress: (job, e) => {
          if (e.round <= lastSet) return;
          lastSet = e.round;
          say(`    set ${e.round + 1} of ${job.sets} [${formatClock(e.elapsedMs)}]`, 'note');
        },
      }),
    );
    drawn(this.draw());
    say(`${formatClock(Date.now() - started)} this time`, 'note');
    if (ended === 'budget') {
      say(budgetReachedLine(budgetMs), 'ending');
      return BUDGET_EXIT;
    }
    return ended === 'interrupted' ? INTERRUPTED_EXIT : 0;
  }
}
