/**
 * A claims run planned: the plan port plans it as `bench --compare` plans one
 * (the suite, its variants, the measurer its cases or the claim's measure
 * choose), then claims sets how many sets it gets: the planned ones first,
 * then one more for a case while a check on it is undecided, up to the most
 * and within the run's share of the budget. The unit an interval counts is
 * the process, so a set is fresh processes: lockstep is asked for one set
 * per process, and a case of a suite's own kind (start-up, HTTP load, a
 * request case) runs a fresh program or server every round already.
 */
import type { PlanFlags, PlanPort, RoundPlan, RunRequest } from '@rtbench/run';
import { MEASURERS, type MeasurerDescriptor } from '@rtbench/measurers';
import type { SuiteLocation } from '@rtbench/suite-loader';
import { MIN_UNITS } from '@rtbench/stats';
import { CLAIMS_DEFAULTS } from './defaults.ts';
import { baseVariant, settledWhen, variantArgument, type ClaimsRunPlan } from './plan.ts';
import type { ClaimFamily } from '@rtbench/verdicts';

/** How many sets a claims run gets, and what it may spend on added ones. */
export interface ClaimsRounds {
  /** Sets every case gets first, per arm. */
  rounds: number;
  /** The most a case gets while a check on it is undecided, per arm. */
  maxRounds: number;
  /** Wall time after which no set is added. */
  budgetMs: number;
  /** The precision recorded as the run's target (a check's decision, not this, says when a case is done). */
  target: number;
}

/**
 * The round plan of a claims run, from the plan's own: its rounds kept (they
 * count per arm, so a measurer that seats two arms a round, a duet of k arms,
 * was planned k − 1 times the rounds asked: the plan's `perArm`) and the
 * most scaled by the same factor, so every arm can get `maxRounds` sets.
 */
export function claimsRoundPlan(planned: RoundPlan, asked: ClaimsRounds, perArm = 1): RoundPlan {
  return { order: 'balanced', rounds: planned.rounds, adaptive: { target: asked.target, maxRounds: Math.round(asked.maxRounds * perArm), budgetMs: asked.budgetMs } };
}

/**
 * What a claims run does when its first sets are fewer than an interval
 * needs (MIN_UNITS process pairs): a check without an interval is
 * undecided, and a case gets sets added while a check on it is undecided,
 * so it reaches MIN_UNITS sets when --max-rounds and the budget allow it;
 * when --max-rounds itself is below MIN_UNITS (`undecidable`), no claim can
 * be decided. Undefined when the first sets can give an interval.
 */
export interface FewSets {
  rounds: number;
  maxRounds: number;
  /** The sets an interval needs. */
  needs: number;
  undecidable: boolean;
}

export function fewSets(asked: Pick<ClaimsRounds, 'rounds' | 'maxRounds'>): FewSets | undefined {
  const { rounds, maxRounds } = asked;
  if (rounds >= MIN_UNITS) return undefined;
  return { rounds, maxRounds, needs: MIN_UNITS, undecidable: maxRounds < MIN_UNITS };
}

/**
 * The measurer of a claims run that runs its own fixed rounds (instruction
 * counts, which hardly differ between processes), so that --rounds and
 * --max-rounds do not apply to it; undefined for every other run, which adds
 * sets while a check is undecided.
 */
export function ownRoundsMeasurer(plan: Pick<ClaimsRunPlan, 'measure'>): MeasurerDescriptor | undefined {
  const measured = MEASURERS.chosenBy('measure').find((m) => m.name === plan.measure);
  return measured?.defaults.bench.adaptive === 'when-asked' ? measured : undefined;
}

/** What a claims run's planning is given beside its checks. */
export interface ClaimsRunSettings extends ClaimsRounds {
  /** Sampling time per process and set. */
  setMs: number;
  /** The warmup's floor per process, ms (absent: claims' default). */
  warmupMs?: number;
  /** --fixed-warmup: the warmup is warmupMs exactly, not watched until steady. */
  fixedWarmup?: boolean;
  timeout?: string;
  seed?: string | number;
  /** --schedule: the measurer that times the sets (lockstep when absent). */
  schedule?: string;
  family: ClaimFamily;
}

/** The run that decides `claimsPlan`'s checks, planned through the port with only its cases, done once they are decided. */
export async function planClaimsRun(port: PlanPort, location: SuiteLocation, claimsPlan: ClaimsRunPlan, s: ClaimsRunSettings): Promise<RunRequest> {
  const measured = MEASURERS.chosenBy('measure').find((m) => m.name === claimsPlan.measure);
  // A measurer whose rounds are added only when asked (instruction counts, which hardly differ between processes)
  // runs its own fixed rounds. Every other adds sets while a check is undecided: timing, and a suite's own kind of
  // case, which adds no rounds for a precision target (a round is a whole program or server) but whose rounds are
  // fresh processes, the unit a claim's interval counts.
  const fixed = ownRoundsMeasurer(claimsPlan);
  const flags: PlanFlags = {
    rounds: fixed ? fixed.defaults.compare.rounds : s.rounds,
    timeMs: s.setMs * s.rounds,
    warmupMs: s.warmupMs ?? CLAIMS_DEFAULTS.warmupMs,
    ...(s.fixedWarmup ? { fixedWarmup: true } : {}),
    ...(measured ? { measure: measured.name } : s.schedule ? { schedule: s.schedule } : {}),
    roundsPerProcess: CLAIMS_DEFAULTS.setsPerProcess,
    ...(s.timeout ? { timeout: s.timeout } : {}),
    ...(s.seed !== undefined ? { seed: s.seed } : {}),
  };
  // By its entry: a suite given as a path is found again, and its runs are named as its checks are.
  const request = await port({ suite: location.entry, arms: claimsPlan.variants.map(baseVariant).map(variantArgument), flags });
  request.suite = { ...request.suite, name: location.name, cases: request.suite.cases.filter((c) => claimsPlan.cases.includes(c.id)) };
  if (!fixed) request.options.roundPlan = claimsRoundPlan(request.options.roundPlan, s, request.options.perArm);
  return { ...request, settled: settledWhen(claimsPlan, s.family) };
}
