/**
 * The one run loop: rounds (or lockstep sets) × units × arms, over any
 * measurer. Rounds are the outer loop, so each unit's replicates spread over
 * the whole run and slow drift of the machine shows up as spread between
 * replicates rather than as a bias against whichever case ran last. Within
 * a replicate the arms' order follows the round plan (schedule.ts). With
 * adaptive rounds, units whose ratios are still too uncertain get more
 * replicates afterwards, all arms at a time, so pairs stay pairs. The run is
 * saved after every replicate: an interrupt or a crash loses nothing. With a
 * measurer whose replicates start untimed (lockstep's warmup), a replicate's
 * results are saved while the next one's processes warm up, off the clock.
 */
import type { CaseResult, Precision, RunRecord } from '@rtbench/core/schema';
import { createRandom, median } from '@rtbench/stats';
import type { Arm, ArmResult, LateFailure, Measurer, Unit } from '@rtbench/measurers';
import type { CaseLook, CellState } from '@rtbench/verdicts';
import { lookAtCases } from './decided.ts';
import { casePrecision } from './precision.ts';
import { finishRun, resultKey } from '@rtbench/saved-runs';
import { balancedOrders, maxRoundsOf, shuffle, type RoundPlan } from './schedule.ts';

export interface ProgressEvent {
  /** Jobs finished (including skipped ones): one job is one arm of one replicate. */
  done: number;
  /** Jobs planned so far; grows when adaptive rounds add some. */
  total: number;
  /** ms since the run started. */
  elapsedMs: number;
  round: number;
  /** The round plan's rounds (adaptive: the minimum). */
  rounds: number;
  /** True once the planned rounds are done and rounds are added adaptively. */
  adaptive: boolean;
  caseId: string;
  variantId: string;
  /** ms of timed samples so far (in-runtime timing): with elapsedMs, the share of the run spent sampling. */
  timedMs: number;
  /**
   * Present once the job has finished. `text`: the value as it should read
   * when it is not a time per op (host-timed cases: "812 ms", "12.3K req/s").
   */
  outcome?: { status: 'ok'; medianNs: number; text?: string } | { status: 'failed' | 'unsupported'; message: string };
}

/**
 * Profiles, the loop's last phase: after the measured rounds (a profiler
 * changes the timing, so never in a measured process), each pass takes one
 * kind of profile of every unit on every arm in extra processes, in the
 * run's case and variant order. The run's signal stops it; what was taken is
 * kept (a pass saves as it goes).
 */
export interface Profiler {
  readonly passes: readonly ProfilePass[];
  /** Called with the finished run before the first profile; false: no profiles after all. */
  start?(run: RunRecord): boolean;
}

export interface ProfilePass {
  /** For the progress line: "profiling", "allocation profile". */
  readonly label: string;
  /** Profiles one unit on one arm; `unitIndex` and `armIndex` are their places in the run; `measurer`, the run's (a server it starts is profiled through it). */
  take(unit: Unit, arm: Arm, at: { unitIndex: number; armIndex: number; measurer: Measurer }, signal?: AbortSignal): Promise<void>;
  /** Called once every arm has taken the unit (a comparison's differences). */
  unitDone?(unit: Unit): void;
}

export interface RunHooks {
  onProgress?(event: ProgressEvent): void;
  /** Called as each profile starts. */
  onProfile?(event: { pass: string; caseId: string; variantId: string }): void;
  /** Called with the run so far after every replicate (with a measurer whose replicates start untimed: as the next one's processes warm), and at the end. */
  save(run: RunRecord): void;
  signal?: AbortSignal;
}

export interface LoopPlan {
  units: readonly Unit[];
  /** The arms that can run, in the run's variant order (the first is the baseline). */
  arms: readonly Arm[];
  roundPlan: RoundPlan;
  seed: number;
  /** The run's results by resultKey(case, variant) (record.ts addResults). */
  resultFor: ReadonlyMap<string, CaseResult>;
  /** Profiles after the measured rounds, when asked for. */
  profiler?: Profiler;
  /** With adaptive rounds: a unit needs no more rounds once this says so, in place of the ratios' precision target (claims: every check on it decided). */
  settled?(unit: Unit, run: RunRecord): boolean;
}

/** A run in progress: what it runs, and the counts and flags its steps share. */
interface LoopState {
  run: RunRecord;
  plan: LoopPlan;
  measurer: Measurer;
  hooks: RunHooks;
  /** performance.now() when the run started. */
  started: number;
  random: ReturnType<typeof createRandom>;
  /** Each unit's arm orders, drawn up front ('balanced'); undefined: 'shuffled' draws as it goes (so old seeds replay). */
  balanced: Map<string, Arm[][]> | undefined;
  /** Orders the units of a set when warm processes serve every unit of it (its own stream, so the arms' orders replay). */
  setRandom: ReturnType<typeof createRandom> | undefined;
  /** Jobs planned so far, jobs done, and ms of timed samples (the progress line's figures). */
  total: number;
  done: number;
  timedMs: number;
  /** Results recorded and not yet saved (only with a measurer whose replicates start untimed). */
  unsaved: boolean;
  adaptivePhase: boolean;
  /** Rounds each unit has run. */
  roundsRun: Map<string, number>;
}

/** Runs the plan with the measurer, fills `run`, finishes and saves it. */
export async function executeLoop(run: RunRecord, plan: LoopPlan, measurer: Measurer, hooks: RunHooks): Promise<RunRecord> {
  const started = performance.now();
  const { roundPlan, arms, units } = plan;
  const random = createRandom(plan.seed);
  const balanced = roundPlan.order === 'balanced' ? new Map(units.map((u) => [u.key, balancedOrders(arms, maxRoundsOf(roundPlan), random)])) : undefined;
  const setRandom = measurer.endSet && measurer.setOrder !== 'fixed' ? createRandom((plan.seed ^ 0x5e7) >>> 0) : undefined;
  const total = roundPlan.rounds * units.length * arms.length;
  const roundsRun = new Map(units.map((u) => [u.key, 0]));
  const s: LoopState = { run, plan, measurer, hooks, started, random, balanced, setRandom, total, done: 0, timedMs: 0, unsaved: false, adaptivePhase: false, roundsRun };
  await plannedRounds(s);
  if (roundPlan.adaptive) await adaptiveRounds(s, roundPlan.adaptive);
  await ending(s, () => measurer.endRun?.());
  measurer.dispose?.();
  run.timing = { wallMs: Math.round(performance.now() - started), timedMs: Math.round(s.timedMs) };
  finishRun(run, aborted(s));
  hooks.save(run);
  if (plan.profiler && !aborted(s) && (plan.profiler.start?.(run) ?? true)) await profilePhase(plan.profiler, units, arms, measurer, hooks);
  return run;
}

const aborted = (s: LoopState): boolean => s.hooks.signal?.aborted ?? false;

const setOrder = (s: LoopState, of: readonly Unit[]): readonly Unit[] => (s.setRandom ? shuffle(of, s.setRandom) : of);

function save(s: LoopState): void {
  s.unsaved = false;
  s.run.finishedAt = new Date().toISOString();
  s.hooks.save(s.run);
}

function saveIfUnsaved(s: LoopState): void {
  if (s.unsaved) save(s);
}

/** New results recorded: saved now, or, with a measurer whose replicates start untimed, while the next one warms. */
function recorded(s: LoopState): void {
  if (s.measurer.untimedStart) s.unsaved = true;
  else save(s);
}

/** The measurer's end of a set or of the run: what it learned applied; if it fails, what was recorded is saved first. */
async function ending(s: LoopState, end: () => Promise<LateFailure[]> | undefined): Promise<void> {
  try {
    const lates = await end();
    if (lates) applyLate(s, lates);
  } catch (error) {
    saveIfUnsaved(s);
    throw error;
  }
}

const endSet = (s: LoopState): Promise<void> => ending(s, () => s.measurer.endSet?.());

/** What is learned only once processes ended: warnings, and crashes after a case's result (that case's round fails). */
function applyLate(s: LoopState, lates: readonly LateFailure[]): void {
  for (const late of lates) {
    const unit = s.plan.units.find((u) => u.key === late.unitKey);
    const arm = s.plan.arms.find((a) => a.id === late.armId);
    if (!unit || !arm) continue;
    for (const result of resultsOf(s, unit, arm)) {
      // A warning leaves the case's rounds and status as they are (once per message, as with a result's warnings).
      if (late.failure.kind === 'warning') {
        if (!result.failures.some((f) => f.kind === 'warning' && f.message === late.failure.message)) result.failures.push({ ...late.failure, round: late.round });
        continue;
      }
      result.rounds = result.rounds.filter((r) => r.round !== late.round);
      if (result.status === 'unsupported') continue;
      result.failures.push({ ...late.failure, round: late.round });
      result.status = 'failed';
    }
  }
  recorded(s);
}

const resultsOf = (s: LoopState, unit: Unit, arm: Arm): CaseResult[] => unit.cases.map((c) => s.plan.resultFor.get(resultKey(c.id, arm.id))!);

/** An arm that failed a unit, or for which every case of it is unsupported, is not asked again. */
function active(s: LoopState, unit: Unit, arm: Arm): boolean {
  const results = resultsOf(s, unit, arm);
  return results.some((r) => r.status === 'ok') && !results.some((r) => r.status === 'failed');
}

/** One replicate of a unit: its active arms in the round's order, their outcomes recorded. */
async function replicate(s: LoopState, unit: Unit, round: number, last = false): Promise<void> {
  const { arms, roundPlan } = s.plan;
  const { measurer, hooks } = s;
  const order = s.balanced ? s.balanced.get(unit.key)![round]! : shuffle(arms, s.random);
  const asked = order.filter((a) => active(s, unit, a));
  s.done += order.length - asked.length;
  if (!asked.length || aborted(s)) return;
  const event = (arm: Arm): ProgressEvent => ({ done: s.done, total: s.total, elapsedMs: performance.now() - s.started, timedMs: s.timedMs, round, rounds: roundPlan.rounds, adaptive: s.adaptivePhase, caseId: unit.key, variantId: arm.id });
  let results: ArmResult[];
  try {
    const context = { round, runArms: arms, ...(hooks.signal ? { signal: hooks.signal } : {}), ...(measurer.untimedStart ? { whileUntimed: () => saveIfUnsaved(s) } : {}), ...(last ? { last: true as const } : {}) };
    results = await measurer.replicate(unit, asked, { ...context, onArmStart: (arm) => hooks.onProgress?.(event(arm)) });
  } finally {
    // A replicate that threw, or did not get as far as its processes' warmup, still saves the ones before it.
    saveIfUnsaved(s);
  }
  for (const armResult of results) {
    const arm = asked.find((a) => a.id === armResult.armId)!;
    record(resultsOf(s, unit, arm), armResult, round);
    s.timedMs += armResult.timedMs ?? 0;
    s.done++;
    hooks.onProgress?.({ ...event(arm), outcome: progressOutcome(resultsOf(s, unit, arm)[0]!, armResult) });
  }
  // Arms the measurer left out of this replicate (a duet samples two of them) sat it out: their jobs are done.
  s.done += asked.length - results.length;
  recorded(s);
}

/** The round plan's rounds, every unit in each; an interrupt ends the set it falls in. */
async function plannedRounds(s: LoopState): Promise<void> {
  const { roundPlan, units } = s.plan;
  outer: for (let round = 0; round < roundPlan.rounds; round++) {
    const ordered = setOrder(s, units);
    for (const [i, unit] of ordered.entries()) {
      if (aborted(s)) {
        await endSet(s);
        break outer;
      }
      // Without an adaptive phase, the last round's last case is the run's last replicate.
      await replicate(s, unit, round, !roundPlan.adaptive && round === roundPlan.rounds - 1 && i === ordered.length - 1);
      s.roundsRun.set(unit.key, round + 1);
    }
    await endSet(s);
  }
}

type Adaptive = NonNullable<RoundPlan['adaptive']>;

/** The adaptive phase's own state: why each unit stopped, and (the 'decided' rule) the last look at the cases. */
interface AdaptiveState {
  loop: LoopState;
  adaptive: Adaptive;
  baseline: Arm | undefined;
  stopped: Map<string, Precision['stoppedBy']>;
  /** The 'decided' rule: each case goes on while a cell of it is undecided and within reach of the budget left. */
  decidedRule: boolean;
  unitOf: Map<string, Unit>;
  looks: Map<string, CaseLook>;
}

/** Rounds added to the units whose ratios are not yet precise enough (or not decided), then each cell's precision recorded. */
async function adaptiveRounds(loop: LoopState, adaptive: Adaptive): Promise<void> {
  loop.adaptivePhase = true;
  const { arms, units, settled } = loop.plan;
  const a: AdaptiveState = { loop, adaptive, baseline: arms[0], stopped: new Map(), decidedRule: adaptive.rule === 'decided' && !settled, unitOf: new Map(units.map((u) => [u.key, u])), looks: new Map() };
  while (!aborted(loop)) {
    if (!(await adaptiveSet(a))) break;
  }
  // What each cell aimed for and reached, and why its rounds stopped (the 'decided' rule: each cell's own state on
  // the data at the end, in the reach its case had at the last look: a case closed there and not run since reads as it did).
  if (a.decidedRule) {
    const lastReach = new Map([...a.looks].map(([key, look]) => [key, look.reach]));
    a.looks = lookNow(a, (key) => lastReach.get(key) ?? loop.roundsRun.get(key)!);
  }
  recordPrecision(a);
}

/** One more set of the units still pending, closest to a word first under the 'decided' rule; false: the phase is over. */
async function adaptiveSet(a: AdaptiveState): Promise<boolean> {
  const { loop: s, adaptive, stopped, decidedRule } = a;
  const { units, arms } = s.plan;
  if (decidedRule) {
    // Every look starts afresh: a case closed at an earlier one (out of reach, or decided) is open again once
    // other cells' words have moved the table's e-BH bar, as in the stopping simulation.
    for (const [key, why] of stopped) if (why === 'out-of-reach' || why === 'decided') stopped.delete(key);
    a.looks = lookNow(a, (key, open) => reachable(a, key, open));
  }
  const usable = (unit: Unit): boolean => arms.some((arm) => active(s, unit, arm));
  const pending = units.filter((u) => !stopped.has(u.key) && usable(u) && !converged(a, u));
  const settledAs = (u: Unit): Precision['stoppedBy'] => (!decidedRule ? 'target' : a.looks.get(u.key)!.states.some((st) => st.state === 'out-of-reach') ? 'out-of-reach' : 'decided');
  for (const u of units) if (!pending.includes(u) && !stopped.has(u.key)) stopped.set(u.key, settledAs(u));
  const next = pending.filter((u) => {
    if (s.roundsRun.get(u.key)! < adaptive.maxRounds) return true;
    stopped.set(u.key, 'max-rounds');
    return false;
  });
  if (!next.length) return false;
  s.total += next.length * arms.length;
  let ran = 0;
  // Under the 'decided' rule the case closest to a word goes first, so a budget that runs out mid-set cuts the furthest.
  const ordered = decidedRule ? [...next].sort((x, y) => a.looks.get(x.key)!.next! - a.looks.get(y.key)!.next!) : setOrder(s, next);
  for (const u of ordered) {
    if (aborted(s)) break;
    if (adaptive.budgetMs !== undefined && performance.now() - s.started >= adaptive.budgetMs) {
      for (const p of ordered.slice(ran)) stopped.set(p.key, 'time-budget');
      break;
    }
    await replicate(s, u, s.roundsRun.get(u.key)!);
    s.roundsRun.set(u.key, s.roundsRun.get(u.key)! + 1);
    ran++;
  }
  await endSet(s);
  // Jobs planned but not run leave the total.
  s.total -= (next.length - ran) * arms.length;
  return ran >= next.length;
}

function precisionOf(a: AdaptiveState, unit: Unit): Map<string, number | undefined> {
  const c = unit.cases[0]!;
  const byArm = new Map(a.loop.plan.arms.map((arm) => [arm.id, a.loop.plan.resultFor.get(resultKey(c.id, arm.id))!]));
  return casePrecision(a.baseline ? byArm.get(a.baseline.id) : undefined, byArm);
}

/** The ratios decide; a lone variant is judged on its own median's CI. */
function converged(a: AdaptiveState, unit: Unit): boolean {
  const { plan, run } = a.loop;
  if (plan.settled) return plan.settled(unit, run);
  if (a.decidedRule) return a.looks.get(unit.key)?.next === undefined;
  const reached = precisionOf(a, unit);
  const judged = plan.arms.length > 1 ? [...reached].filter(([id]) => id !== a.baseline?.id) : [...reached];
  return judged.every(([, r]) => r !== undefined && r <= a.adaptive.target);
}

function lookNow(a: AdaptiveState, reach: (key: string, open: number) => number): Map<string, CaseLook> {
  const { run, plan } = a.loop;
  return lookAtCases(run, plan.units.map((u) => u.key), (key) => plan.arms.map((arm) => plan.resultFor.get(resultKey(a.unitOf.get(key)!.cases[0]!.id, arm.id))!), a.adaptive.maxRounds, reach);
}

/** Rounds a case can have in all: its own so far plus its share of the time left at the pace so far, within maxRounds. */
function reachable(a: AdaptiveState, key: string, open: number): number {
  const { adaptive, loop } = a;
  const had = loop.roundsRun.get(key)!;
  if (adaptive.budgetMs === undefined) return adaptive.maxRounds;
  const caseRounds = [...loop.roundsRun.values()].reduce((x, y) => x + y, 0);
  const elapsed = performance.now() - loop.started;
  const share = Math.floor((adaptive.budgetMs - elapsed) / ((elapsed / Math.max(1, caseRounds)) * Math.max(1, open)));
  return Math.min(adaptive.maxRounds, had + Math.max(0, share));
}

/** Each result's precision: the target, what it reached, its rounds, and why they stopped. */
function recordPrecision(a: AdaptiveState): void {
  const { loop, adaptive, baseline, stopped, decidedRule } = a;
  const { arms, units } = loop.plan;
  for (const unit of units) {
    const reachedBy = precisionOf(a, unit);
    const unitConverged = converged(a, unit);
    for (const result of loop.run.results.filter((r) => r.caseId === unit.cases[0]!.id)) {
      const reached = reachedBy.get(result.variantId);
      const own = result.variantId === baseline?.id && arms.length > 1 ? unitConverged : reached !== undefined && reached <= adaptive.target;
      const why: Precision['stoppedBy'] = decidedRule
        ? decidedWhy(result.status, a.looks.get(unit.key)!.states, arms.findIndex((arm) => arm.id === result.variantId) - 1, aborted(loop), stopped.get(unit.key))
        : result.status !== 'ok' ? 'failed' : own ? 'target' : aborted(loop) ? 'interrupted' : (stopped.get(unit.key) ?? 'target');
      result.precision = { target: adaptive.target, ...(reached !== undefined ? { reached } : {}), rounds: result.rounds.length, stoppedBy: why };
    }
  }
}

/**
 * Why a cell's rounds stopped under the 'decided' rule: its own state at the
 * last look (the baseline's: its case's — decided only when every cell is);
 * a cell still open stopped because the budget ran out or the run was
 * interrupted. `cell`: the candidate's index among the cells (−1: the baseline).
 */
function decidedWhy(status: CaseResult['status'], states: readonly CellState[], cell: number, interrupted: boolean, unitStop: Precision['stoppedBy'] | undefined): Precision['stoppedBy'] {
  if (status !== 'ok') return 'failed';
  const own = cell >= 0 ? [states[cell]] : states;
  if (own.some((s) => s?.state === 'open')) return interrupted ? 'interrupted' : unitStop === 'max-rounds' ? 'max-rounds' : 'time-budget';
  return own.some((s) => s?.state === 'out-of-reach') ? 'out-of-reach' : 'decided';
}

/** Every pass over units × arms; an interrupt stops it between two profiles. */
async function profilePhase(profiler: Profiler, units: readonly Unit[], arms: readonly Arm[], measurer: Measurer, hooks: RunHooks): Promise<void> {
  for (const pass of profiler.passes) {
    for (const [unitIndex, unit] of units.entries()) {
      for (const [armIndex, arm] of arms.entries()) {
        if (hooks.signal?.aborted) return;
        hooks.onProfile?.({ pass: pass.label, caseId: unit.key, variantId: arm.id });
        await pass.take(unit, arm, { unitIndex, armIndex, measurer }, hooks.signal);
      }
      if (hooks.signal?.aborted) return;
      pass.unitDone?.(unit);
    }
  }
}

/** One arm's outcomes into its results (one per case of the unit). */
function record(results: CaseResult[], armResult: ArmResult, round: number): void {
  results.forEach((result, i) => {
    const outcome = armResult.outcomes[i]!;
    // Warnings are said once per case and variant, however many rounds repeat them.
    for (const message of [...armResult.warnings, ...(outcome.kind === 'round' ? (outcome.warnings ?? []) : [])]) {
      if (!result.failures.some((f) => f.kind === 'warning' && f.message === message)) result.failures.push({ kind: 'warning', message, round });
    }
    if (outcome.kind === 'round') {
      if (result.status === 'ok') result.rounds.push(outcome.record);
    } else if (outcome.kind === 'unsupported') {
      if (result.status === 'ok') result.failures.push({ kind: 'unsupported', message: outcome.reason, round });
      if (result.status !== 'failed') result.status = 'unsupported';
    } else if (result.status !== 'unsupported') {
      result.failures.push({ ...outcome.failure, round });
      result.status = 'failed';
    }
  });
}

function progressOutcome(result: CaseResult, armResult: ArmResult): ProgressEvent['outcome'] {
  if (result.status === 'ok') {
    const last = result.rounds[result.rounds.length - 1];
    return { status: 'ok', medianNs: last ? median(last.samples) : NaN, ...(armResult.text ? { text: armResult.text } : {}) };
  }
  const f = result.failures[result.failures.length - 1];
  return { status: result.status === 'unsupported' ? 'unsupported' : 'failed', message: f?.message ?? '' };
}
