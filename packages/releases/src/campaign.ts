/**
 * A release matrix as one campaign (@rtbench/run campaign.ts), the one
 * entry point the command calls with what it parsed: the matrix's own
 * defaults filled in, its folder named and checked, the tracks listed (each
 * range's releases on each suite), the claims runs matched to them, and a
 * sitting (sitting.ts) held within the budget; its exit code. The command
 * parses, plans each window's run (the plan port), and shows the lines it
 * is told and the matrix it is handed.
 */
import { assertWritableFolder, campaignFolder, SETS_PER_PROCESS, type CampaignSay, type MeasurerDescriptor, type PlanPort } from '@rtbench/run';
import type { ReleaseMatrixView } from '@rtbench/report';
import { matchClaims, type GivenClaims, type ReleaseOf, type SuiteName } from './claims.ts';
import { releaseVariantText } from './commands.ts';
import { MatrixRefused } from './refused.ts';
import { listTracks, MATRIX_DEFAULTS, MatrixSitting, type WindowPlanner } from './sitting.ts';
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
  /** --time, --warmup and --budget, parsed from `matrixDurations` when not given. */
  timePerSetMs: number;
  warmupMs: number;
  budgetMs: number;
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

/** What the matrix asks of the command: each window's run planned, its lines said, its answer shown, and the names of suites and releases it cannot know by itself. */
export interface ReleasesPorts {
  plan: PlanPort;
  say: CampaignSay;
  drawn: (view: ReleaseMatrixView) => void;
  /** The name a suite argument stands for (a suite given as a path goes by its own name). */
  suiteName: SuiteName;
  /** A claims run's variant as a release of its runtime. */
  releaseOf: ReleaseOf;
  /** The names claims runs record for the suites typed (asked only when claims are given: it loads them). */
  claimsSuiteNames: (suites: readonly string[]) => Promise<SuiteName>;
}

/** The durations the command parses when none is given: the matrix's time and budget, the comparison measurer's warmup. */
export function matrixDurations(timing: MeasurerDescriptor): { time: string; warmup: string; budget: string } {
  return { time: MATRIX_DEFAULTS.time, warmup: timing.defaults.compare.warmup, budget: MATRIX_DEFAULTS.budget };
}

/** Measures the matrix until its windows have their sets, its budget ends or it is stopped; its exit code (0, BUDGET_EXIT, INTERRUPTED_EXIT). */
export async function runReleases(request: ReleasesRequest, ports: ReleasesPorts): Promise<number> {
  const { ranges, suites, shard } = request;
  const identity: MatrixIdentity = {
    filter: request.filter?.join(',') ?? '',
    threshold: request.threshold ?? request.timing.defaults.threshold([]),
    timePerSetMs: request.timePerSetMs,
    warmupMs: request.warmupMs,
    sets: request.sets ?? MATRIX_DEFAULTS.sets,
    setsPerProcess: MATRIX_DEFAULTS.setsPerProcess,
    windowSize: request.windowSize ?? MATRIX_DEFAULTS.window,
  };
  if (identity.windowSize < 2) throw new MatrixRefused('--window: a window holds two releases at least');
  const dir = campaignFolder(request.resultsDir, 'releases', [...ranges, ...suites, identity.filter], request.dir, shard ? `-shard-${shard.index}-of-${shard.count}` : '');
  if (!request.planOnly) assertWritableFolder(dir, request.dir !== undefined ? '--dir' : "the matrix's folder");
  const all = await listTracks(ranges, suites, request.every ?? 1, ports.suiteName);
  // A window's run is planned as `bench --compare` of its releases: its sets are the rounds, each warm process serving the matrix's sets per process.
  const planner: WindowPlanner = {
    planWindow: (track, releases, sets) =>
      ports.plan({
        suite: track.suite,
        arms: releases.map((tag) => releaseVariantText(track, tag)),
        flags: { ...(request.filter ? { filter: request.filter } : {}), rounds: sets, time: `${identity.timePerSetMs * sets}ms`, warmup: `${identity.warmupMs}ms`, measurerOptions: { [SETS_PER_PROCESS]: identity.setsPerProcess }, ...(request.timeout ? { timeout: request.timeout } : {}) },
      }),
    suiteName: ports.suiteName,
  };
  // Claims are matched against every track (a shard's own kept), by the suites' own names (suites load only when claims are given).
  const claims = matchClaims(all, request.claims, ports.releaseOf, await ports.claimsSuiteNames(request.claims.length ? suites : []));
  const sitting = MatrixSitting.open(dir, identity, all, planner, { ...(shard ? { shard } : {}), claims, planOnly: request.planOnly });
  try {
    return await sitting.sit(request.budgetMs, ports.say, ports.drawn);
  } finally {
    sitting.close();
  }
}
