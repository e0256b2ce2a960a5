/**
 * The measurements of one bisect invocation over its folder: a step the
 * folder saved is replayed from its run file; a new one is measured (step.ts) only when the
 * time measured so far says it fits in the budget, and is saved with what it
 * gave. The command says what happens through the hooks.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BisectOptions, BisectResult, Measure, StepOutcome, StepRequest } from './types.ts';
import { STATE_FILE, type BisectFolder, type SavedStep } from './state.ts';
import { readCampaignRun, releaseVariant, type CampaignBudget } from '@rtbench/run';
import { isResolved } from '@rtbench/runtime-kit';
import { UsageError } from '@rtbench/suite-loader';
import { BISECT_DEFAULTS } from './defaults.ts';
import { bisect } from './search.ts';
import { logRatiosOf, measureStep, StepInterrupted, type Releases, type StepContext } from './step.ts';

/** Thrown when the next measurement would end past the budget: the same command continues from the saved steps. */
export class BudgetReached extends Error {
  override readonly name = 'BudgetReached';
}

export interface SessionHooks {
  /** A new measurement starts; `estimateMs` is 0 before any has been timed. */
  measuring?: (older: string, newer: string, request: StepRequest, estimateMs: number) => void;
  /** A release could not run the case: it is skipped. */
  cannotRun?: (tag: string, reason: string) => void;
}

export class BisectSession {
  private measuredMs = 0;
  private measuredRounds = 0;

  constructor(
    private readonly ctx: StepContext,
    private readonly releases: Releases,
    private readonly caseId: string,
    private readonly budget: CampaignBudget,
    private readonly hooks: SessionHooks = {},
  ) {}

  /** Wall time per paired round measured so far in this invocation; undefined before the first. */
  perRoundMs(): number | undefined {
    return this.measuredRounds ? this.measuredMs / this.measuredRounds : undefined;
  }

  private replay(saved: SavedStep, request: StepRequest): Promise<StepOutcome | undefined> {
    return replayStep(saved, request, this.ctx, this.releases, this.caseId);
  }

  /** The search's measure function (@rtbench/bisect search.ts). */
  readonly measure = async (request: StepRequest): Promise<StepOutcome> => {
    const { range, folder } = this.ctx;
    const older = range.tags[request.older]!;
    const newer = range.tags[request.newer]!;
    const saved = folder.saved(request, older, newer);
    const replayed = saved && (await this.replay(saved, request));
    if (replayed) return replayed;
    const estimate = (this.perRoundMs() ?? 0) * request.rounds;
    if (!this.budget.fits(estimate)) throw new BudgetReached();
    this.hooks.measuring?.(older, newer, request, estimate);
    const t0 = Date.now();
    const { outcome, run } = await measureStep(this.ctx, this.releases, request, older, newer, this.caseId);
    const durationMs = Date.now() - t0;
    if (outcome.kind === 'measured') {
      this.measuredMs += durationMs;
      this.measuredRounds += request.rounds;
    } else this.hooks.cannotRun?.(range.tags[outcome.release]!, outcome.reason);
    folder.add({ older, newer, purpose: request.purpose, attempt: request.attempt, rounds: request.rounds, outcome, ...(run ? { run: run.replace(/^.*\//, '') } : {}), durationMs });
    return outcome;
  };
}

/**
 * What a saved step gave, read again from what the folder holds, never from
 * the figures its state stores (a state is edited, copied, restored): a
 * measured step's log ratios from its run file (inside the folder, read as a
 * saved run), a release that could not run asked again. Undefined: measure
 * the step (its release runs now).
 */
export async function replayStep(saved: SavedStep, request: StepRequest, ctx: Pick<StepContext, 'range' | 'folder'>, releases: Pick<Releases, 'get'>, caseId: string): Promise<StepOutcome | undefined> {
  const { range, folder } = ctx;
  const state = join(folder.dir, STATE_FILE);
  if (saved.run === undefined) {
    // No run: a release that could not be resolved, asked again (cached for the bisect).
    if (saved.outcome.kind !== 'cannot-run') throw new UsageError(`${state} says ${saved.older} vs ${saved.newer} was measured but names no run file; remove it to start the bisect again`);
    const index = saved.outcome.release === request.older ? request.older : request.newer;
    const v = await releases.get(range.tags[index]!);
    return isResolved(v) ? undefined : { kind: 'cannot-run', release: index, reason: v.reason };
  }
  const read = readCampaignRun(folder.dir, saved.run, STATE_FILE, (message) => new UsageError(`${message}; remove it to start the bisect again`));
  if (!read) throw new UsageError(`${state} names ${saved.run} for ${saved.older} vs ${saved.newer}, which is not in ${folder.dir}; remove the state to start the bisect again`);
  const olderId = releaseVariant(range, saved.older).id;
  const newerId = releaseVariant(range, saved.newer).id;
  const ids = new Set(read.run.variants.map((v) => v.id));
  if (!ids.has(olderId) || !ids.has(newerId) || !read.run.cases.some((c) => c.id === caseId)) {
    throw new UsageError(`${state} names ${saved.run} for ${saved.older} vs ${saved.newer}, but that run does not compare them on ${caseId}; remove the state to start the bisect again`);
  }
  const got = logRatiosOf(read.run, caseId, olderId, newerId);
  return 'failed' in got ? { kind: 'cannot-run', release: got.failed === 'older' ? request.older : request.newer, reason: got.reason } : { kind: 'measured', logRatios: got.logRatios };
}

/** --clean: removes the releases this bisect installed from the runtime cache; how many. */
export function removeInstalled(folder: BisectFolder): number {
  const count = folder.state.installed.length;
  for (const entry of folder.state.installed) rmSync(entry, { recursive: true, force: true });
  folder.state.installed = [];
  folder.save();
  return count;
}

/** What ended a search before its answer: the budget (the same command continues) or an interrupted step; each step measured is saved. */
export type SearchStop = 'budget' | 'interrupted';

/**
 * The search a bisect command runs over its session's measurements, under
 * bisect's own policy: its confidences (BISECT_DEFAULTS) and the search's
 * decision rule. The command chooses the threshold, the rounds, which
 * changes to follow and what to print per step.
 */
export async function searchReleases(
  tags: readonly string[],
  measure: Measure,
  options: Pick<BisectOptions, 'threshold' | 'minRounds' | 'maxRounds' | 'follow' | 'onStep'>,
): Promise<BisectResult | SearchStop> {
  try {
    return await bisect(tags, measure, { ...options, confidence: BISECT_DEFAULTS.confidence, sameConfidence: BISECT_DEFAULTS.sameConfidence });
  } catch (error) {
    if (error instanceof BudgetReached) return 'budget';
    if (error instanceof StepInterrupted) return 'interrupted';
    throw error;
  }
}
