/**
 * A release matrix as a campaign's planner (@rtbench/campaign campaign-loop.ts),
 * the one entry the command calls with what it parsed: the matrix's own
 * defaults filled in, and a sitting (sitting.ts) held by the campaign loop.
 * The command parses, plans each window's run (the plan port), runs the
 * loop, words its events and writes the matrix.
 */
import { join } from 'node:path';
import { assertWritableFolder, campaignFolder, type CampaignPlanner } from '@rtbench/campaign';
import type { PlanPort } from '@rtbench/run';
import type { MeasurerDescriptor } from '@rtbench/measurers';
import type { ReleaseMatrixView } from '@rtbench/report/views';
import { processesOf, type TrackPlan, type WindowJob } from './estimate.ts';
import { matchClaims, type GivenClaims, type ReleaseOf, type SuiteName } from './claims.ts';
import { releaseVariantText } from './commands.ts';
import { MatrixRefused } from './refused.ts';
import { listTracks, MATRIX_DEFAULTS, MATRIX_FILES, MatrixSitting, type WindowPlanner } from './sitting.ts';
import { LOCK_FILE } from './state.ts';
import type { MatrixIdentity } from './types.ts';

/** What the command parsed; an option left out takes the matrix's default, or the comparison measurer's. */
export interface ReleasesRequest {
  /** `node@25.8.0..node@26.1.0`, `bun@latest~3`, each with its flags and environment. */
  ranges: readonly string[];
  suites: readonly string[];
  filter?: readonly string[];
  /** --every: every n-th release of each range measured (both ends always). */
  every?: number;
  sets?: number;
  windowSize?: number;
  threshold?: number;
  /** --time and --warmup; absent: the matrix's time, the comparison measurer's warmup. */
  timePerSetMs?: number;
  /** --warmup, else the comparison measurer's (parsed by the command). */
  warmupMs: number;
  /** --fixed-warmup: each process warms for warmupMs exactly, not until steady (smoke runs). */
  fixedWarmup?: boolean;
  /** The measurer a comparison takes by default: the matrix's threshold when none is asked. */
  timing: MeasurerDescriptor;
  timeout?: string;
  shard?: { index: number; count: number };
  /** --dir; else a folder under `resultsDir` named by what is measured. */
  dir?: string;
  resultsDir: string;
  /** --plan: say what is to measure, measure nothing, write nothing. */
  planOnly: boolean;
  /** The claims runs --claims named, read. */
  claims: readonly GivenClaims[];
}

/** What the matrix asks of the command: each window's run planned, and the names of suites and releases it cannot know by itself. */
export interface ReleasesPorts {
  plan: PlanPort;
  /** The name a suite argument stands for (a suite given as a path goes by its own name). */
  suiteName: SuiteName;
  /** A claims run's variant as a release of its runtime. */
  releaseOf: ReleaseOf;
  /** The names claims runs record for the suites typed (asked only when claims are given: it loads them). */
  claimsSuiteNames: (suites: readonly string[]) => Promise<SuiteName>;
}

/** What the matrix's opening says: its tracks, how they are measured, and what is still to measure. */
export interface MatrixFacts {
  tracks: number;
  shard?: { index: number; count: number };
  /** Every track asked, before a shard's were dealt. */
  asked: number;
  sets: number;
  setsPerProcess: number;
  threshold: number;
  /** Tracks the folder holds that the command no longer asks. */
  setAside: readonly string[];
  /** Versions of a package's range left out (their set cannot be had), one line each. */
  skipped: readonly string[];
  plans: readonly TrackPlan[];
  total: { processes: number; ms: number; sets: number };
}

/** What one window's run measures. */
export interface WindowAbout {
  track: string;
  releases: readonly string[];
  sets: number;
  processes: number;
}

export type MatrixPlanner = CampaignPlanner<MatrixFacts, WindowAbout, never, ReleaseMatrixView>;

/**
 * The matrix as a campaign's planner: its folder named and checked, the
 * tracks listed (each range's releases on each suite), the claims runs
 * matched to them; opened, it says what is still to measure; its runs are
 * the windows short of their sets, in turn; its answer, the matrix drawn
 * from the folder (also when the budget or a stop ended the sitting), kept
 * in the folder as a page and a report.
 */
export async function releasesCampaign(request: ReleasesRequest, ports: ReleasesPorts): Promise<MatrixPlanner> {
  const { ranges, suites, shard } = request;
  const identity: MatrixIdentity = {
    filter: request.filter?.join(',') ?? '',
    threshold: request.threshold ?? request.timing.record.verdict.threshold([]),
    timePerSetMs: request.timePerSetMs ?? MATRIX_DEFAULTS.timePerSetMs,
    warmupMs: request.warmupMs,
    ...(request.fixedWarmup ? { fixedWarmup: true as const } : {}),
    sets: request.sets ?? MATRIX_DEFAULTS.sets,
    setsPerProcess: MATRIX_DEFAULTS.setsPerProcess,
    windowSize: request.windowSize ?? MATRIX_DEFAULTS.window,
  };
  if (identity.windowSize < 2) throw new MatrixRefused('--window: a window holds two releases at least');
  const dir = campaignFolder(request.resultsDir, 'releases', [...ranges, ...suites, identity.filter], request.dir, shard ? `-shard-${shard.index}-of-${shard.count}` : '');
  if (!request.planOnly) assertWritableFolder(dir, request.dir !== undefined ? '--dir' : "the matrix's folder");
  const { tracks: all, skipped } = await listTracks(ranges, suites, request.every ?? 1, ports.suiteName);
  // A window's run is planned as `bench --compare` of its releases: its sets are the rounds, each warm process serving the matrix's sets per process.
  const planner: WindowPlanner = {
    planWindow: (track, releases, sets) =>
      ports.plan({
        suite: track.suite,
        arms: releases.map((tag) => releaseVariantText(track, tag)),
        flags: { ...(request.filter ? { filter: request.filter } : {}), rounds: sets, timeMs: identity.timePerSetMs * sets, warmupMs: identity.warmupMs, ...(identity.fixedWarmup ? { fixedWarmup: true } : {}), roundsPerProcess: identity.setsPerProcess, ...(request.timeout ? { timeout: request.timeout } : {}) },
      }),
    suiteName: ports.suiteName,
  };
  // Claims are matched against every track (a shard's own kept), by the suites' own names (suites load only when claims are given).
  const claims = matchClaims(all, request.claims, ports.releaseOf, await ports.claimsSuiteNames(request.claims.length ? suites : []));
  let sitting: MatrixSitting | undefined;
  let next = 0;
  const jobs = new Map<object, WindowJob>();
  const held = (): MatrixSitting => sitting!;
  return {
    what: 'release matrix',
    dir,
    lockFile: LOCK_FILE,
    planOnly: request.planOnly,
    async open() {
      sitting = MatrixSitting.open(dir, identity, all, planner, { ...(shard ? { shard } : {}), claims, planOnly: request.planOnly, lockHeld: true });
      const plans = await sitting.plans();
      const total = plans.reduce((a, p) => ({ processes: a.processes + p.processes, ms: a.ms + p.estimateMs, sets: a.sets + p.sets }), { processes: 0, ms: 0, sets: 0 });
      const facts: MatrixFacts = { tracks: sitting.tracks.length, ...(shard ? { shard } : {}), asked: sitting.state.asked?.length ?? 0, sets: identity.sets, setsPerProcess: identity.setsPerProcess, threshold: identity.threshold, setAside: sitting.setAside, skipped, plans, total };
      const saved = sitting.tracks.reduce((n, t) => n + t.windows.reduce((m, w) => m + w.runs.length, 0), 0);
      return { saved, facts };
    },
    async next() {
      const s = held();
      const job = s.jobs[next++];
      if (!job) return undefined;
      const about: WindowAbout = { track: job.track.key, releases: job.window.releases, sets: job.sets, processes: processesOf(job, identity.setsPerProcess) };
      const run = { plan: () => s.planJob(job), about, sets: job.sets, estimateMs: s.estimateMs(job) };
      jobs.set(run, job);
      return run;
    },
    starting(run) {
      // Named in the state before it is measured: a sitting stopped mid-window continues it.
      run.file = held().nameRun(jobs.get(run)!);
    },
    told: async () => {},
    async end() {
      // A plan only says what is to measure.
      if (request.planOnly) return { exit: 0 };
      const view = held().draw();
      return { view, exit: 0, files: [{ path: join(dir, MATRIX_FILES.page), kind: 'page' as const, view }, { path: join(dir, MATRIX_FILES.report), kind: 'report' as const, view }] };
    },
    close: () => sitting?.close(),
  };
}
