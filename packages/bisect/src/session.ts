/**
 * The measurements of one bisect invocation over its folder: a step the
 * folder saved is replayed; a new one is measured (step.ts) only when the
 * time measured so far says it fits in the budget, and is saved with what it
 * gave. The command says what happens through the hooks.
 */
import { rmSync } from 'node:fs';
import type { BisectOptions, BisectResult, Measure, StepOutcome, StepRequest } from './types.ts';
import type { BisectFolder } from './state.ts';
import type { CampaignBudget } from '@rtbench/run';
import { BISECT_DEFAULTS } from './defaults.ts';
import { bisect } from './search.ts';
import { measureStep, StepInterrupted, type Releases, type StepContext } from './step.ts';

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

  /** The search's measure function (@rtbench/bisect search.ts). */
  readonly measure = async (request: StepRequest): Promise<StepOutcome> => {
    const { range, folder } = this.ctx;
    const older = range.tags[request.older]!;
    const newer = range.tags[request.newer]!;
    const saved = folder.saved(request, older, newer);
    if (saved) return saved.outcome;
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
