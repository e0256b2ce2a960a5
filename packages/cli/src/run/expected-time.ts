/**
 * How long a run should take, said before it starts, from its plan alone:
 * cases × arms × rounds, each arm's process paying its start-up, its warmup's
 * floor and its share of sampling. It is a rough guide for a user deciding
 * whether to wait, not a measurement: the line after the run says how long it
 * took, beside it.
 */
import { isResolved } from '@rtbench/runtime-registry';
import { counted, formatClock } from '@rtbench/report';
import type { Plan } from '../plan.ts';

/**
 * What a process costs beside its warmup and sampling (start-up, bundle load,
 * the protocol), per process. From results/20261128-230559Z-json-reviver.json:
 * 191 s for 96 sets of 4 processes, each set started for its own case, on the
 * shared 2-core machine: 0.5 s a process, of which 20 ms warmup and 40 ms
 * sampling.
 */
export const PROCESS_OVERHEAD_MS = 400;

/** What the estimate reads of a plan: the cases, the arms and the options that set each set's time. */
export interface EstimatePlan {
  suite: { cases: readonly unknown[] };
  variants: Readonly<Plan['variants']>;
  options: Pick<Plan['options'], 'roundPlan' | 'timeMs' | 'warmupMs' | 'warmupMinMs' | 'measurer' | 'prepared'>;
}

export interface ExpectedTime {
  /** The planned rounds' time. */
  ms: number;
  /** The most that added rounds can take beyond it (an adaptive run's --max-time left after the planned rounds). */
  addedMs: number;
  /** How it was reckoned, in words. */
  reckoning: string;
}

/**
 * The expected time of a run timed inside the runtimes (the lockstep, duet and
 * processes schedules); undefined for a measurer whose round is a whole
 * program or server (host-timed, requests) or runs under a tool (valgrind),
 * whose pace the plan does not tell.
 */
export function expectedTime(plan: EstimatePlan): ExpectedTime | undefined {
  const { roundPlan, measurer } = plan.options;
  if (!measurer.warmsInRuntime || measurer.metric !== undefined) return undefined;
  const cases = plan.suite.cases.length;
  const arms = plan.variants.filter(isResolved).length;
  const perProcess = plan.options.prepared?.roundsPerProcess ?? 1;
  const samplingMs = plan.options.timeMs / roundPlan.rounds;
  const warmupMs = plan.options.warmupMinMs ?? plan.options.warmupMs;
  const perArmMs = PROCESS_OVERHEAD_MS / perProcess + warmupMs + samplingMs;
  const setMs = arms * perArmMs;
  const ms = cases * roundPlan.rounds * setMs;
  const budgetMs = roundPlan.adaptive?.budgetMs;
  const mostMs = roundPlan.adaptive ? cases * roundPlan.adaptive.maxRounds * setMs : ms;
  const addedMs = Math.max(0, Math.min(mostMs, budgetMs ?? mostMs) - ms);
  const reckoning = `${counted(cases, 'case')} × ${counted(arms, 'arm')} × ${counted(roundPlan.rounds, 'round')} × ~${formatSeconds(setMs)} a set`;
  return { ms, addedMs, reckoning };
}

/** "0.46 s", "2.1 s": a set's time. */
function formatSeconds(ms: number): string {
  return `${+(ms / 1000).toPrecision(2)} s`;
}

/** The options that shorten a run of this kind. */
function shorterWith(plan: EstimatePlan): string {
  return plan.options.roundPlan.adaptive ? '--filter, --rounds, --max-time or --time shorten it' : '--filter, --rounds or --time shorten it';
}

/**
 * The line said before a run: "expected: about 2:56 (16 cases × 4 arms × 6
 * rounds × ~1.8 s a set), then up to 1:00 of added rounds; --filter, --rounds,
 * --max-time or --time shorten it"; undefined when the plan does not tell.
 */
export function expectedLine(plan: EstimatePlan): string | undefined {
  const expected = expectedTime(plan);
  if (!expected) return undefined;
  const added = expected.addedMs >= 1000 ? `, then up to ${formatClock(expected.addedMs)} of added rounds` : '';
  return `expected: about ${formatClock(expected.ms)} (${expected.reckoning})${added}; ${shorterWith(plan)}`;
}

/** The line said after a run: "took 3:11 (expected about 2:56 + up to 1:00 of added rounds)". */
export function tookLine(tookMs: number, expected: ExpectedTime | undefined): string {
  if (!expected) return `took ${formatClock(tookMs)}`;
  const added = expected.addedMs >= 1000 ? ` + up to ${formatClock(expected.addedMs)} of added rounds` : '';
  return `took ${formatClock(tookMs)} (expected about ${formatClock(expected.ms)}${added})`;
}
