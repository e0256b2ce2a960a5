/**
 * `rtbench releases node@25.8.0..node@26.1.0 [bun@latest~3 …] <suite>…`:
 * every release of each range on every case of the suites. parse -> list
 * each range's releases (npm registry) -> the matrix's folder
 * (@rtbench/releases: tracks, windows of adjacent releases, what is still
 * to measure) -> the plan, said up front -> each window's missing sets run as
 * `bench --compare` of its releases (the same plan and run loop), saved in
 * the folder -> the verdicts of every step, the page and the report.
 */
import { existsSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { analyseMatrix, MatrixRefused, mergeMatrices, openMatrix, pendingJobs, planTracks, processesOf, releaseVariantText, saveMatrix, shardTracks, STATE_FILE, syncTracks, thin, type MatrixIdentity, type MatrixState, type TrackState, type WindowJob } from '@rtbench/releases';
import { counted, releasesMarkdown, releasesPage, releasesText, type ReleaseMatrixView, type ReleaseTrack } from '@rtbench/report';
import { executeRun, readRegularFile, takeLock, writeRunAtomically } from '@rtbench/run';
import { writeFileAtomically } from '@rtbench/host';
import { locateSuite } from '@rtbench/suite-loader';
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { listLatest, listRange } from '@rtbench/bisect';
import { stderrColours as pc } from '../emit/colours.ts';
import { UsageError } from '../errors.ts';
import { listingFormat, writeListing, type ListingFlags } from '../listing.ts';
import { resultsDir } from '../paths.ts';
import { DEFAULT_MEASURER, makePlan, parsePercent } from '../plan.ts';
import { formatClock } from '../run/progress.ts';
import { runEnvironment } from '../run/environment.ts';
import { parseShard } from '../shards/shard.ts';

/** Timing's comparison defaults (the default measurer's). */
// A measurer that declares no sets per process gives each set fresh processes (one set each).
const COMPARE_DEFAULTS = { ...DEFAULT_MEASURER.defaults.compare, setsPerProcess: DEFAULT_MEASURER.defaults.compare.setsPerProcess ?? 1, threshold: DEFAULT_MEASURER.defaults.threshold([]) };

export interface ReleasesFlags extends ListingFlags {
  filter?: readonly string[];
  every?: string | number;
  sets?: string | number;
  time?: string;
  warmup?: string;
  threshold?: string | number;
  window?: string | number;
  budget?: string;
  shard?: string | number;
  dir?: string;
  plan?: boolean;
  timeout?: string;
}

/**
 * Defaults. A window's sets: 12, two per warm process (6 independent process
 * sets per step, 2 more than a bisect's first look), 100 ms of sampling per
 * process and set as a bisect's rounds; windows of up to 6 releases (a set of
 * 6 processes on 2 cores); a 1% threshold as --compare. Budget: 60 min.
 */
export const RELEASES_DEFAULTS = { sets: 12, setsPerProcess: COMPARE_DEFAULTS.setsPerProcess, time: '100ms', warmup: COMPARE_DEFAULTS.warmup, window: 6, budget: '60m', threshold: COMPARE_DEFAULTS.threshold } as const;

/** Exit code of a matrix stopped by its --budget: run the same command again to go on. */
const BUDGET_EXIT = 75;

/** A range of releases: `<runtime>@<a>..<runtime>@<b>` or `<runtime>@latest~N`, flags and environment after it. */
const RANGE_HEAD = /^[a-z]+@(?:latest~\d+|[^\s.][^\s]*\.\.[^\s]+)(?:\s|$)/;

function slug(text: string): string {
  return text.replace(/[^\w@.+-]+/g, '_').replace(/_+/g, '_').slice(0, 120);
}

/** The machine a sitting measures on, listed in the state (each run records its host in full). */
function thisMachine(): string {
  return `${hostname()}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`;
}

/** The tracks the command names: each range on each suite, in the order typed. */
async function listTracks(ranges: readonly string[], suites: readonly string[], every: number): Promise<ReleaseTrack[]> {
  const tracks: ReleaseTrack[] = [];
  for (const text of ranges) {
    const range = (await listLatest(text, 'releases')) ?? (await listRange(text, 'releases'));
    if (range.tags.length < 2) throw new UsageError(`releases ${text}: ${counted(range.tags.length, 'release')} listed; a step needs two`);
    const releases = thin(range.tags, every);
    const name = [range.runtime, ...range.extra].join(' ');
    // A track is known by its runtime and flags, so that a range grown by a new release continues its folder.
    if (tracks.some((t) => [t.runtime, ...t.extra].join(' ') === name)) throw new UsageError(`releases: two ranges of ${name}; give one range per runtime (and flags)`);
    for (const suite of suites) {
      tracks.push({ key: `${name} × ${locateSuite(suite).name}`, runtime: range.runtime, extra: range.extra, suite, range: text, listed: range.tags, releases });
    }
  }
  return tracks;
}

/** Reads the folder's runs once each; a run file that is not there (a sitting killed before its first save) reads as empty. */
function runReader(dir: string): (file: string) => RunRecord {
  const cache = new Map<string, RunRecord>();
  const empty = (file: string): RunRecord => ({ schema: 'rtbench.run', schemaVersion: 1, id: file, status: 'interrupted', startedAt: '', finishedAt: '', command: [], suite: '', mode: 'compare', options: {} as RunRecord['options'], host: {} as RunRecord['host'], variants: [], cases: [], results: [], digestMismatches: [] });
  return (file) => {
    let run = cache.get(file);
    if (!run) {
      const path = join(dir, file);
      run = existsSync(path) ? (JSON.parse(readRegularFile(path)) as RunRecord) : empty(file);
      cache.set(file, run);
    }
    return run;
  };
}

/** The run file of a window's next sitting. */
function runFileOf(job: WindowJob): string {
  const n = job.window.runs.length + 1;
  return slug(`${job.track.runtime}-${locateSuite(job.track.suite).name}-${job.window.releases[0]}..${job.window.releases.at(-1)}-${n}`) + '.json';
}

/** The matrix's view, page and report, redrawn from the folder. */
function drawMatrix(dir: string, state: MatrixState, tracks: readonly TrackState[]): ReleaseMatrixView {
  const view = analyseMatrix(state.identity, tracks, runReader(dir), dir);
  writeFileAtomically(join(dir, 'releases.html'), releasesPage(view));
  writeFileAtomically(join(dir, 'releases.md'), releasesMarkdown(view));
  return view;
}

/** Prints the matrix's answer: text (or JSON), and where the page and the report are. */
function emitMatrix(view: ReleaseMatrixView, flags: ListingFlags): void {
  writeListing(listingFormat(flags) === 'json' ? `${JSON.stringify({ schema: 'rtbench.releases-result', ...view }, null, 1)}\n` : releasesText(view), flags);
  if (!flags.quiet) process.stderr.write(pc.dim(`page ${join(view.folder, 'releases.html')}; report ${join(view.folder, 'releases.md')}\n`));
}

export async function releasesCommand(args: readonly string[], flags: ReleasesFlags): Promise<number> {
  // Everything typed is checked before the registry is asked or anything installs.
  listingFormat(flags);
  const ranges = args.filter((a) => RANGE_HEAD.test(a));
  const suites = args.filter((a) => !RANGE_HEAD.test(a));
  if (!ranges.length) throw new UsageError('releases: name a range of releases (node@25.8.0..node@26.1.0, or node@latest~3), then the suites');
  if (!suites.length) throw new UsageError('releases: name one or more suites (or benchmark files) after the ranges');
  const every = parsePositiveInt(flags.every ?? 1, '--every');
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  const identity: MatrixIdentity = {
    filter: flags.filter?.join(',') ?? '',
    threshold: flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : RELEASES_DEFAULTS.threshold,
    timePerSetMs: parseDuration(flags.time ?? RELEASES_DEFAULTS.time, '--time'),
    warmupMs: parseDuration(flags.warmup ?? RELEASES_DEFAULTS.warmup, '--warmup'),
    sets: parsePositiveInt(flags.sets ?? RELEASES_DEFAULTS.sets, '--sets'),
    setsPerProcess: RELEASES_DEFAULTS.setsPerProcess,
    windowSize: parsePositiveInt(flags.window ?? RELEASES_DEFAULTS.window, '--window'),
  };
  if (identity.windowSize < 2) throw new UsageError('--window: a window holds two releases at least');
  const budgetMs = parseDuration(flags.budget ?? RELEASES_DEFAULTS.budget, '--budget');
  const say = (line: string): void => {
    if (!flags.quiet) process.stderr.write(`${line}\n`);
  };

  const all = await listTracks(ranges, suites, every);
  const mine = shardTracks(all, shard);
  const dir = flags.dir ?? join(resultsDir, 'releases', slug([...ranges, ...suites, identity.filter].join('-')) + (shard ? `-shard-${shard.index}-of-${shard.count}` : ''));
  let state: MatrixState;
  let unlock: () => void;
  try {
    state = openMatrix(dir, identity, thisMachine(), shard);
    unlock = takeLock(join(dir, 'releases.lock'), (pid) => `another rtbench (pid ${pid}) is measuring in ${dir}; two at once would overwrite each other's runs: wait for it, or name another --dir`);
  } catch (error) {
    if (error instanceof MatrixRefused) throw new UsageError(error.message);
    throw error;
  }
  try {
    const tracks = syncTracks(state, mine);
    saveMatrix(dir, state);
    const read = runReader(dir);
    const jobs = pendingJobs(identity, tracks, read);

    // The cases of each suite, as the run will pick them (the plan of its first window installs those releases).
    const casesBySuite = new Map<string, number>();
    for (const track of tracks) {
      if (casesBySuite.has(track.suite)) continue;
      const first = track.windows[0]!.releases;
      const probe = await makePlan(track.suite, { ...(flags.filter ? { filter: flags.filter } : {}), rounds: 6 }, first.slice(0, 2).map((tag) => releaseVariantText(track, tag)));
      if (probe.suite.cases.length === 0) throw new UsageError(`--filter ${identity.filter} picks no case of ${track.suite}`);
      casesBySuite.set(track.suite, probe.suite.cases.length);
    }
    const plans = planTracks(identity, tracks, jobs, (t) => casesBySuite.get(t.suite) ?? 0);
    const total = plans.reduce((a, p) => ({ processes: a.processes + p.processes, ms: a.ms + p.estimateMs, sets: a.sets + p.sets }), { processes: 0, ms: 0, sets: 0 });
    say(pc.bold(`releases: ${counted(tracks.length, 'track')}${shard ? ` (shard ${shard.index}/${shard.count} of ${all.length})` : ''}, sets of ${identity.sets} per window (${identity.setsPerProcess} per process), threshold ${+(identity.threshold * 100).toFixed(2)}%, budget ${formatClock(budgetMs)}`));
    for (const p of plans) say(`  ${p.key}: ${p.releases} releases × ${counted(p.cases, 'case')}; to measure: ${counted(p.windows, 'window')}, ${p.sets} sets, ${p.processes} processes, ~${formatClock(p.estimateMs)}`);
    say(pc.dim(`folder ${dir}; ${total.sets ? `about ${formatClock(total.ms)} for ${total.processes} processes${total.ms > budgetMs ? ` (more than --budget ${formatClock(budgetMs)}: it stops there, and the same command continues)` : ''}` : 'nothing new to measure'}`));
    if (flags.plan) return 0;

    const abort = new AbortController();
    const onSignal = (): void => {
      say(pc.yellow('\ninterrupted: stopping the current window; the sets measured are saved, run the same command to continue'));
      abort.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const environment = runEnvironment();
    const started = Date.now();
    let stopped: 'budget' | 'interrupted' | undefined;
    try {
      for (const job of jobs) {
        const cases = casesBySuite.get(job.track.suite) ?? 0;
        const estimate = planTracks(identity, [job.track], [job], () => cases)[0]!.estimateMs;
        if (Date.now() - started + estimate > budgetMs) {
          stopped = 'budget';
          break;
        }
        const file = runFileOf(job);
        job.window.runs.push(file);
        saveMatrix(dir, state);
        say(pc.dim(`  measuring ${job.track.key}: ${job.window.releases.join(', ')}: ${job.sets} sets, ${processesOf(job, identity.setsPerProcess)} processes, ~${formatClock(estimate)}`));
        const plan = await makePlan(
          job.track.suite,
          { ...(flags.filter ? { filter: flags.filter } : {}), rounds: job.sets, time: `${identity.timePerSetMs * job.sets}ms`, warmup: `${identity.warmupMs}ms`, setsPerProcess: identity.setsPerProcess, ...(flags.timeout ? { timeout: flags.timeout } : {}) },
          job.window.releases.map((tag) => releaseVariantText(job.track, tag)),
        );
        const path = join(dir, file);
        let lastSet = -1;
        const run = await executeRun({ suite: plan.suite, variants: plan.variants, options: { ...plan.options, command: process.argv.slice(2) }, environment }, {
          signal: abort.signal,
          save: (r) => writeRunAtomically(path, r),
          onProgress: (e) => {
            // A line as each set starts: how far a long window has gone.
            if (e.round <= lastSet) return;
            lastSet = e.round;
            say(pc.dim(`    set ${e.round + 1} of ${job.sets} [${formatClock(e.elapsedMs)}]`));
          },
        });
        writeRunAtomically(path, run);
        if (run.status === 'interrupted') {
          stopped = 'interrupted';
          break;
        }
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const view = drawMatrix(dir, state, tracks);
    emitMatrix(view, flags);
    say(pc.dim(`${formatClock(Date.now() - started)} this time`));
    if (stopped === 'budget') {
      process.stderr.write(pc.yellow(`budget of ${formatClock(budgetMs)} reached; run the same command again to continue (or raise --budget)\n`));
      return BUDGET_EXIT;
    }
    if (stopped === 'interrupted') return 130;
    return 0;
  } finally {
    unlock();
  }
}

/** Whether a path is a release matrix's folder (what `merge` joins as shards of a matrix rather than runs). */
export function isMatrixFolder(path: string): boolean {
  return existsSync(join(path, STATE_FILE));
}

/** `rtbench merge <shard folder>… --save <folder>`: the shards of one matrix joined, then drawn as one (the false discovery rate over all of it). */
export function mergeMatrixCommand(dirs: readonly string[], flags: ListingFlags & { save?: string }): number {
  listingFormat(flags);
  if (flags.save === undefined) throw new UsageError('rtbench merge: name the merged matrix\'s folder with --save <folder>');
  let merged: MatrixState;
  try {
    merged = mergeMatrices(dirs, flags.save);
  } catch (error) {
    if (error instanceof MatrixRefused) throw new UsageError(error.message);
    throw error;
  }
  emitMatrix(drawMatrix(flags.save, merged, merged.tracks), flags);
  return 0;
}
