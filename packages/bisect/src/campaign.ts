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

/** The bisect of `request` as a planner: the range listed and the case picked (the plan of the ends) before anything is opened. */
export async function bisectCampaign(request: BisectRequest, plan: PlanPort): Promise<BisectPlanner> {
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
  // The case: the plan of the ends picks it (and checks the suite, the filter and the variants' flags).
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

  let folder: BisectFolder | undefined;
  let releases: Releases | undefined;
  let tell: CampaignTell<BisectStep> = () => {};
  let measuredMs = 0;
  let measuredRounds = 0;
  const perRoundMs = (): number | undefined => (measuredRounds ? measuredMs / measuredRounds : undefined);
  // The search runs beside the loop: it asks for a step and waits; `next` hands the step to the loop.
  let asked: Asked | undefined;
  let searched: { result: BisectResult } | { error: unknown } | undefined;
  let wake: () => void = () => {};
  let started = false;

  const measureStep = async (stepRequest: StepRequest): Promise<StepOutcome> => {
    const older = range.tags[stepRequest.older]!;
    const newer = range.tags[stepRequest.newer]!;
    const saved = folder!.saved(stepRequest, older, newer);
    const replayed = saved && (await replayStep(saved, stepRequest, { range, folder: folder! }, releases!, caseId, (file, note) => tell({ kind: 'noted', file, note })));
    if (replayed) return replayed;
    for (const [tag, index] of [[older, stepRequest.older], [newer, stepRequest.newer]] as const) {
      const v = await releases!.get(tag);
      if (isResolved(v)) continue;
      const outcome: StepOutcome = { kind: 'cannot-run', release: index, reason: v.reason };
      tell({ kind: 'skipped', runtime, tag, reason: v.reason });
      folder!.add({ older, newer, purpose: stepRequest.purpose, attempt: stepRequest.attempt, rounds: stepRequest.rounds, outcome, durationMs: 0 });
      return outcome;
    }
    const olderId = releaseVariant(range, older).id;
    const newerId = releaseVariant(range, newer).id;
    const about: StepAbout = { runtime, older, newer, rounds: stepRequest.rounds, attempt: stepRequest.attempt };
    const run: CampaignRun<StepAbout> = { plan: () => planStep([olderId, newerId], stepRequest.rounds), file: basename(folder!.runPath(older, newer)), about, estimateMs: (perRoundMs() ?? 0) * stepRequest.rounds };
    return new Promise((answer) => {
      asked = { run, request: stepRequest, older, newer, olderId, newerId, answer };
      wake();
    });
  };

  const onStep = (step: StepRecord, state: SearchState): void => {
    const per = perRoundMs();
    tell({ kind: 'decided', step, runtime, unit, stepsLeft: state.stepsLeft, minRounds, ...(per !== undefined ? { perRoundMs: per } : {}) });
  };

  return {
    what: 'bisect',
    dir,
    lockFile: LOCK_FILE,
    async open(told) {
      tell = told;
      for (const { tag, reason } of range.skipped ?? []) tell({ kind: 'skipped', runtime, tag, reason });
      folder = BisectFolder.open(dir, identity, undefined, { lockHeld: true });
      releases = new Releases({ range, folder });
      noteEnds(folder);
      const perRelease = range.plugin?.releases!.diskPerRelease;
      const facts: BisectFacts = {
        runtime,
        first,
        last,
        releases: range.tags.length,
        suite,
        caseId,
        ...(measured ? { measured: { name: measured.name, ...(measured.needs ? { needs: measured.needs } : {}) } } : {}),
        timing: measurer.name,
        threshold,
        minRounds,
        maxRounds,
        installs: 2 * Math.ceil(Math.log2(range.tags.length)) + 2,
        ...(perRelease ? { perRelease } : {}),
        clean: request.clean,
      };
      return { saved: folder.state.steps.length, facts };
    },
    async next() {
      if (!started) {
        started = true;
        bisect(range.tags, measureStep, { threshold, minRounds, maxRounds, follow: request.allChanges ? 'all' : 'largest', onStep, confidence: BISECT_DEFAULTS.confidence, sameConfidence: BISECT_DEFAULTS.sameConfidence }).then(
          (result) => (searched = { result }),
          (error: unknown) => (searched = { error }),
        ).finally(() => wake());
      }
      while (!asked && !searched) await new Promise<void>((resolve) => (wake = resolve));
      if (asked) return asked.run;
      if (searched && 'error' in searched) throw searched.error;
      return undefined;
    },
    async told(run, record: RunRecord, ms) {
      const step = asked!;
      asked = undefined;
      const got = logRatiosOf(record, caseId, step.olderId, step.newerId);
      const { request: r } = step;
      let outcome: StepOutcome;
      if ('failed' in got) {
        outcome = { kind: 'cannot-run', release: got.failed === 'older' ? r.older : r.newer, reason: got.reason };
        tell({ kind: 'skipped', runtime, tag: got.failed === 'older' ? step.older : step.newer, reason: got.reason });
      } else {
        outcome = { kind: 'measured', logRatios: got.logRatios };
        if (ms !== undefined) {
          measuredMs += ms;
          measuredRounds += r.rounds;
        }
      }
      folder!.add({ older: step.older, newer: step.newer, purpose: r.purpose, attempt: r.attempt, rounds: r.rounds, outcome, run: run.file!, durationMs: ms ?? 0 });
      step.answer(outcome);
    },
    async end(ending) {
      if (ending !== 'done' || !searched || !('result' in searched)) return { exit: 1 };
      const { result } = searched;
      const view = await bisectView(result, { range, folder: folder!, dir, releases: releases!, suite, caseId, measure, threshold, unit });
      if (request.clean) tell({ kind: 'cleaned', ...removeInstalled(folder!, runtimeCacheDir()) });
      const { outcome } = result;
      const unconfirmed = outcome.kind === 'changes' && outcome.culprits.some((c) => !c.confirmed);
      return { view, exit: unconfirmed || outcome.kind === 'undecided' ? 1 : 0 };
    },
    close: () => folder?.close(),
  };
}
