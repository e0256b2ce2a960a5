/**
 * A bisect as a campaign's planner (@rtbench/campaign campaign-loop.ts), the one
 * entry the command calls with what it parsed: the bisect's own defaults
 * filled in, the range listed, the case picked by the plan of the ends, the
 * folder named. Opened, it resumes the folder's steps; its runs are the
 * steps the search asks for that the folder does not hold (the search runs
 * beside the loop and waits for each); its answer is a view. The command
 * plans each step's run (the plan port), runs the loop, words its events
 * and writes the answer.
 */
import { basename } from 'node:path';
import { TIME_PER_OP, type RunRecord } from '@rtbench/core/schema';
import type { BisectView } from '@rtbench/report/views';
import { campaignFolder, type CampaignPlanner, type CampaignRun, type CampaignTell } from '@rtbench/campaign';
import type { PlanFlags, PlanPort } from '@rtbench/run';
import { listRange, releaseVariant, runtimeCacheDir } from '@rtbench/arms';
import type { MeasurerDescriptor } from '@rtbench/measurers';
import { isResolved } from '@rtbench/runtime-registry';
import { UsageError } from '@rtbench/core/usage-error';
import { bisectView } from './answer.ts';
import { BISECT_DEFAULTS, bisectRounds, bisectThreshold } from './defaults.ts';
import { bisect } from './search.ts';
import { removeInstalled, replayStep } from './resume.ts';
import { BisectFolder, LOCK_FILE, type BisectIdentity } from './state.ts';
import { installsOf, logRatiosOf, Releases } from './step.ts';
import type { BisectResult, SearchState, StepOutcome, StepRecord, StepRequest } from './types.ts';

/** What the command parsed; an option left out takes the bisect's default, or its measurer's. */
export interface BisectRequest {
  /** `node@24.0.0..node@26.10.0 [flags] [ENV=x]`, or a package's versions. */
  range: string;
  suite: string;
  filter: readonly string[];
  /** The measurer --measure named; absent: wall time, measured by `timing`. */
  measured?: MeasurerDescriptor;
  timing: MeasurerDescriptor;
  threshold?: number;
  rounds?: number;
  maxRounds?: number;
  /** --time; absent: BISECT_DEFAULTS'. */
  timePerRoundMs?: number;
  warmupMs?: number;
  /** --fixed-warmup: each process warms for warmupMs exactly, not until steady (smoke runs). */
  fixedWarmup?: boolean;
  timeout?: string;
  /** --dir; else a folder under `resultsDir` named by what is bisected. */
  dir?: string;
  resultsDir: string;
  clean: boolean;
  allChanges: boolean;
}

/** What the bisect's opening says: what is bisected, how, and where. */
export interface BisectFacts {
  runtime: string;
  first: string;
  last: string;
  releases: number;
  suite: string;
  caseId: string;
  /** The measurer --measure named, with what it needs; absent: wall time, by `timing`. */
  measured?: { name: string; needs?: string };
  timing: string;
  threshold: number;
  /** The level of every interval its steps and answer print (the steps' "different" rule). */
  confidence: number;
  minRounds: number;
  maxRounds: number;
  /** About how many releases a single change installs, and the disk each takes (absent: a package's versions, in the library cache). */
  installs: number;
  perRelease?: string;
  clean: boolean;
}

/** One step's run: two releases compared. */
export interface StepAbout {
  runtime: string;
  older: string;
  newer: string;
  rounds: number;
  /** 0 for a pair's first measurement; 1 for its first repeat (not yet decided). */
  attempt: number;
}

/** What a bisect tells beside its runs. */
export type BisectStep =
  | { kind: 'decided'; step: StepRecord; runtime: string; unit: BisectView['unit']; stepsLeft: number; perRoundMs?: number; minRounds: number }
  | { kind: 'skipped'; runtime: string; tag: string; reason: string }
  /** What the saved-run reader said of a step's run file read back on resume. */
  | { kind: 'noted'; file: string; note: string }
  /** `refused`: entries the state listed that are not releases in the runtime cache, left where they are. */
  | { kind: 'cleaned'; removed: number; refused: string[] };

export type BisectPlanner = CampaignPlanner<BisectFacts, StepAbout, BisectStep, BisectView>;

/** The rounds asked, else the measurer's for a bisect; checked with the filter before the registry is asked. */
function rounds(request: BisectRequest): { minRounds: number; maxRounds: number } {
  const own = bisectRounds(request.measured ?? request.timing);
  const minRounds = request.rounds ?? own.min;
  const maxRounds = request.maxRounds ?? Math.max(own.max, minRounds);
  if (maxRounds < minRounds) throw new UsageError(`--max-rounds ${maxRounds} is below --rounds ${minRounds}`);
  if (!request.filter.length) throw new UsageError('bisect follows one case: name it with --filter (rtbench bench <suite> --filter <text> shows which cases a filter picks)');
  return { minRounds, maxRounds };
}

/** A step the search waits for: its run, and the answer it is waiting for. */
interface Asked {
  run: CampaignRun<StepAbout>;
  request: StepRequest;
  older: string;
  newer: string;
  olderId: string;
  newerId: string;
  answer: (outcome: StepOutcome) => void;
}

/** What a bisect settles before anything is opened: the range, its ends, the case, and how a step is planned. */
interface BisectSetup {
  request: BisectRequest;
  range: Awaited<ReturnType<typeof listRange>>;
  runtime: string;
  first: string;
  last: string;
  noteEnds: Awaited<ReturnType<typeof installsOf>>;
  suite: string;
  caseId: string;
  measure: string;
  measurer: NonNullable<BisectRequest['measured']> | BisectRequest['timing'];
  unit: (typeof TIME_PER_OP)['unit'];
  threshold: number;
  minRounds: number;
  maxRounds: number;
  identity: BisectIdentity;
  dir: string;
  planStep: (arms: readonly string[], stepRounds: number) => ReturnType<PlanPort>;
}

/** A bisect under way: its setup, its folder once open, and the search that runs beside the loop. */
interface BisectState extends BisectSetup {
  folder?: BisectFolder;
  releases?: Releases;
  tell: CampaignTell<BisectStep>;
  measuredMs: number;
  measuredRounds: number;
  /** The step the search waits for; `next` hands it to the loop. */
  asked?: Asked;
  searched?: { result: BisectResult } | { error: unknown };
  wake: () => void;
  started: boolean;
}

/** The bisect of `request` as a planner: the range listed and the case picked (the plan of the ends) before anything is opened. */
export async function bisectCampaign(request: BisectRequest, plan: PlanPort): Promise<BisectPlanner> {
  const c: BisectState = { ...(await bisectSetup(request, plan)), tell: () => {}, measuredMs: 0, measuredRounds: 0, wake: () => {}, started: false };
  return {
    what: 'bisect',
    dir: c.dir,
    lockFile: LOCK_FILE,
    open: async (told) => openBisect(c, told),
    next: () => nextStep(c),
    told: async (run, record: RunRecord, ms) => toldStep(c, run, record, ms),
    end: (ending) => endBisect(c, ending),
    close: () => c.folder?.close(),
  };
}

/** The range listed, its ends installed, and the case the plan of the ends picks (checking the suite, the filter and the variants' flags). */
async function bisectSetup(request: BisectRequest, plan: PlanPort): Promise<BisectSetup> {
  const { minRounds, maxRounds } = rounds(request);
  const { measured, filter } = request;
  const timePerRoundMs = request.timePerRoundMs ?? BISECT_DEFAULTS.timePerRoundMs;
  const measurer = measured ?? request.timing;
  const measure = measured?.name ?? 'time';
  const unit = (measurer.metric ?? TIME_PER_OP).unit;

  // A package's versions whose set cannot be had in the suite are left out, and said when the bisect opens.
  const range = await listRange(request.range, 'bisect', [request.suite]);
  if (range.tags.length < 2) throw new UsageError(`bisect ${request.range}: only ${range.runtime}@${range.tags[0]} can be had as a set; a bisect needs two versions`);
  const { runtime } = range;
  const first = range.tags[0]!;
  const last = range.tags.at(-1)!;
  // The ends are resolved (and installed, if need be) by the probe below, before the folder is open.
  const noteEnds = await installsOf(range, [first, last]);
  const measureFlag: PlanFlags = measured ? { measure: measured.name } : {};
  const probe = await plan({ suite: request.suite, arms: [releaseVariant(range, first).id, releaseVariant(range, last).id], flags: { filter, ...measureFlag, rounds: minRounds, timeMs: timePerRoundMs * minRounds } });
  if (probe.suite.cases.length !== 1) {
    const ids = probe.suite.cases.map((c) => c.id);
    throw new UsageError(`--filter ${filter.join(',')} picks ${ids.length} cases of ${probe.suite.name}; a bisect follows one${ids.length ? `: ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''}` : ''}`);
  }
  const suite = probe.suite.name;
  const caseId = probe.suite.cases[0]!.id;
  const threshold = bisectThreshold(measurer, request.threshold, probe.variants);
  const identity: BisectIdentity = { range: request.range, suite, caseId, measure, threshold, timePerRoundMs, warmupMs: request.warmupMs ?? 0, ...(request.fixedWarmup ? { fixedWarmup: true as const } : {}), minRounds, maxRounds };
  const dir = campaignFolder(request.resultsDir, 'bisect', [request.range, suite, caseId, measure], request.dir);
  // Each step is planned as bench --compare plans two variants; rounds are set per step.
  const stepFlags: PlanFlags = { filter, ...measureFlag, ...(request.warmupMs !== undefined ? { warmupMs: request.warmupMs } : {}), ...(request.fixedWarmup ? { fixedWarmup: true } : {}), ...(request.timeout ? { timeout: request.timeout } : {}) };
  const planStep = (arms: readonly string[], stepRounds: number) => plan({ suite: request.suite, arms, flags: { ...stepFlags, rounds: stepRounds, timeMs: timePerRoundMs * stepRounds } });
  return { request, range, runtime, first, last, noteEnds, suite, caseId, measure, measurer, unit, threshold, minRounds, maxRounds, identity, dir, planStep };
}

const perRoundMs = (c: BisectState): number | undefined => (c.measuredRounds ? c.measuredMs / c.measuredRounds : undefined);

/** The folder opened (or taken up again), its releases, and the facts the campaign opens with. */
function openBisect(c: BisectState, told: CampaignTell<BisectStep>): { saved: number; facts: BisectFacts } {
  const { range, runtime, request, measurer } = c;
  c.tell = told;
  for (const { tag, reason } of range.skipped ?? []) c.tell({ kind: 'skipped', runtime, tag, reason });
  const folder = (c.folder = BisectFolder.open(c.dir, c.identity, undefined, { lockHeld: true }));
  c.releases = new Releases({ range, folder });
  c.noteEnds(folder);
  const perRelease = range.plugin?.releases!.diskPerRelease;
  const measured = request.measured;
  const facts: BisectFacts = {
    runtime,
    first: c.first,
    last: c.last,
    releases: range.tags.length,
    suite: c.suite,
    caseId: c.caseId,
    ...(measured ? { measured: { name: measured.name, ...(measured.needs ? { needs: measured.needs } : {}) } } : {}),
    timing: measurer.name,
    threshold: c.threshold,
    confidence: BISECT_DEFAULTS.confidence,
    minRounds: c.minRounds,
    maxRounds: c.maxRounds,
    installs: 2 * Math.ceil(Math.log2(range.tags.length)) + 2,
    ...(perRelease ? { perRelease } : {}),
    clean: request.clean,
  };
  return { saved: folder.state.steps.length, facts };
}

/** A step the search asks for: replayed from the folder, refused for a release that cannot run, or handed to the loop and awaited. */
async function measureStep(c: BisectState, stepRequest: StepRequest): Promise<StepOutcome> {
  const { range, runtime, caseId } = c;
  const folder = c.folder!;
  const releases = c.releases!;
  const older = range.tags[stepRequest.older]!;
  const newer = range.tags[stepRequest.newer]!;
  const saved = folder.saved(stepRequest, older, newer);
  const replayed = saved && (await replayStep(saved, stepRequest, { range, folder }, releases, caseId, (file, note) => c.tell({ kind: 'noted', file, note })));
  if (replayed) return replayed;
  for (const [tag, index] of [[older, stepRequest.older], [newer, stepRequest.newer]] as const) {
    const v = await releases.get(tag);
    if (isResolved(v)) continue;
    const outcome: StepOutcome = { kind: 'cannot-run', release: index, reason: v.reason };
    c.tell({ kind: 'skipped', runtime, tag, reason: v.reason });
    folder.add({ older, newer, purpose: stepRequest.purpose, attempt: stepRequest.attempt, rounds: stepRequest.rounds, outcome, durationMs: 0 });
    return outcome;
  }
  const olderId = releaseVariant(range, older).id;
  const newerId = releaseVariant(range, newer).id;
  const about: StepAbout = { runtime, older, newer, rounds: stepRequest.rounds, attempt: stepRequest.attempt };
  const run: CampaignRun<StepAbout> = { plan: () => c.planStep([olderId, newerId], stepRequest.rounds), file: basename(folder.runPath(older, newer)), about, estimateMs: (perRoundMs(c) ?? 0) * stepRequest.rounds };
  return new Promise((answer) => {
    c.asked = { run, request: stepRequest, older, newer, olderId, newerId, answer };
    c.wake();
  });
}

/** The next run the search asks for (the search starts on the first call and runs beside the loop); undefined once it has its answer. */
async function nextStep(c: BisectState): Promise<CampaignRun<StepAbout> | undefined> {
  if (!c.started) {
    c.started = true;
    const onStep = (step: StepRecord, state: SearchState): void => {
      const per = perRoundMs(c);
      c.tell({ kind: 'decided', step, runtime: c.runtime, unit: c.unit, stepsLeft: state.stepsLeft, minRounds: c.minRounds, ...(per !== undefined ? { perRoundMs: per } : {}) });
    };
    const options = { threshold: c.threshold, minRounds: c.minRounds, maxRounds: c.maxRounds, follow: c.request.allChanges ? ('all' as const) : ('largest' as const), onStep, confidence: BISECT_DEFAULTS.confidence, sameConfidence: BISECT_DEFAULTS.sameConfidence };
    bisect(c.range.tags, (r) => measureStep(c, r), options).then(
      (result) => (c.searched = { result }),
      (error: unknown) => (c.searched = { error }),
    ).finally(() => c.wake());
  }
  while (!c.asked && !c.searched) await new Promise<void>((resolve) => (c.wake = resolve));
  if (c.asked) return c.asked.run;
  if (c.searched && 'error' in c.searched) throw c.searched.error;
  return undefined;
}

/** A step's run done: its ratios (or the release that could not run) saved in the folder and handed to the waiting search. */
function toldStep(c: BisectState, run: CampaignRun<StepAbout>, record: RunRecord, ms: number | undefined): void {
  const step = c.asked!;
  c.asked = undefined;
  const got = logRatiosOf(record, c.caseId, step.olderId, step.newerId);
  const { request: r } = step;
  let outcome: StepOutcome;
  if ('failed' in got) {
    outcome = { kind: 'cannot-run', release: got.failed === 'older' ? r.older : r.newer, reason: got.reason };
    c.tell({ kind: 'skipped', runtime: c.runtime, tag: got.failed === 'older' ? step.older : step.newer, reason: got.reason });
  } else {
    outcome = { kind: 'measured', logRatios: got.logRatios };
    if (ms !== undefined) {
      c.measuredMs += ms;
      c.measuredRounds += r.rounds;
    }
  }
  c.folder!.add({ older: step.older, newer: step.newer, purpose: r.purpose, attempt: r.attempt, rounds: r.rounds, outcome, run: run.file!, durationMs: ms ?? 0 });
  step.answer(outcome);
}

/** The bisect's view and exit: 1 when it ended early, found a change it could not confirm, or could not decide. */
async function endBisect(c: BisectState, ending: Parameters<BisectPlanner['end']>[0]): ReturnType<BisectPlanner['end']> {
  if (ending !== 'done' || !c.searched || !('result' in c.searched)) return { exit: 1 };
  const { result } = c.searched;
  const folder = c.folder!;
  const view = await bisectView(result, { range: c.range, folder, dir: c.dir, releases: c.releases!, suite: c.suite, caseId: c.caseId, measure: c.measure, threshold: c.threshold, unit: c.unit });
  if (c.request.clean) c.tell({ kind: 'cleaned', ...removeInstalled(folder, runtimeCacheDir()) });
  const { outcome } = result;
  const unconfirmed = outcome.kind === 'changes' && outcome.culprits.some((x) => !x.confirmed);
  return { view, exit: unconfirmed || outcome.kind === 'undecided' ? 1 : 0 };
}
