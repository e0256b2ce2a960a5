/**
 * How long a run should take, said before it starts, from its plan alone:
 * cases × arms × rounds, each arm's process paying its start-up, its warmup's
 * floor and its share of sampling; where a round is a fresh server (request
 * cases, a Worker), each server paying its start and a round trip per request
 * it is planned to serve. It is a rough guide for a user deciding whether to
 * wait, not a measurement: the line after the run says how long it took,
 * beside it.
 */
import { isResolved } from '@rtbench/runtime-registry';
import type { ServedRound } from '@rtbench/measurers';
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

/**
 * What a request costs the host beside the handler's own CPU: the round trip
 * on loopback and the reads of the server's threads before and after it, once
 * they are idle. From results/20261126-111226Z-relay-request.json: 48 rounds
 * of 151 requests and 50 to the empty handler, 40.5 s; a round's wall time
 * less its requests' CPU on the JavaScript thread, 651 ms on average, is a
 * server's start (taken as a process's, PROCESS_OVERHEAD_MS) and 1.25 ms a
 * request.
 */
export const REQUEST_ROUND_TRIP_MS = 1.25;

/** What the estimate reads of a plan: the cases, the arms and the options that set each set's time. */
export interface EstimatePlan {
  suite: { cases: Readonly<Plan['suite']['cases']> };
  variants: Readonly<Plan['variants']>;
  options: Pick<Plan['options'], 'roundPlan' | 'timeMs' | 'warmupMs' | 'warmupMinMs' | 'measurer' | 'prepared'>;
}

export interface ExpectedTime {
  /** The planned rounds' time; where rounds are servers, the least they take, the handler's own time left out. */
  ms: number;
  /** The most that added rounds can take beyond it (an adaptive run's --max-time left after the planned rounds). */
  addedMs: number;
  /** Present where rounds are servers: the most they take when each serves until steady within a time; undefined when one serves a count whole. */
  servers?: { mostMs: number | undefined };
  /** How it was reckoned, in words. */
  reckoning: string;
}

/** The servers a round starts, one per request case (a request's CPU rows are cases of one server); undefined for other runs. */
function servedUnits(plan: EstimatePlan): readonly ServedRound[] | undefined {
  return plan.options.measurer.servedRounds?.(plan.suite.cases, { warmupMinMs: plan.options.warmupMinMs, own: plan.options.prepared?.setup });
}

/** What the run's heading counts: "16 cases", or "1 request case" where the rounds are servers, as the expected line counts them. */
export function countedCases(plan: EstimatePlan): string {
  const served = servedUnits(plan);
  return served ? counted(served.length, 'request case') : counted(plan.suite.cases.length, 'case');
}

/**
 * The expected time of a run timed inside the runtimes (the lockstep, duet and
 * processes schedules) or of one whose rounds are servers (request cases);
 * undefined for a measurer whose round is a whole program (host-timed) or
 * runs under a tool (valgrind), whose pace the plan does not tell.
 */
export function expectedTime(plan: EstimatePlan): ExpectedTime | undefined {
  const { roundPlan, measurer } = plan.options;
  const arms = plan.variants.filter(isResolved).length;
  const served = servedUnits(plan);
  if (served) return servedTime(served, arms, roundPlan.rounds);
  if (!measurer.warmsInRuntime || measurer.metric !== undefined) return undefined;
  const cases = plan.suite.cases.length;
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

/** Rounds that are fresh servers: each unit's server on each arm in each round pays its start and a round trip per request (or wave) it serves. */
function servedTime(units: readonly ServedRound[], arms: number, rounds: number): ExpectedTime {
  const servers = arms * rounds;
  const trips = (requests: number, u: ServedRound) => (Math.ceil(requests / u.concurrency) + u.emptyRequests) * REQUEST_ROUND_TRIP_MS;
  const least = units.reduce((sum, u) => sum + PROCESS_OVERHEAD_MS + trips(u.requests.least, u), 0);
  const bounded = units.every((u) => u.withinMs !== undefined);
  const most = units.reduce((sum, u) => sum + PROCESS_OVERHEAD_MS + Math.max(u.withinMs ?? 0, trips(u.requests.least, u)), 0);
  const each = [...new Set(units.map(servingWords))].join(' or ');
  const product = `${counted(units.length, 'request case')} × ${counted(arms, 'arm')} × ${counted(rounds, 'round')}`;
  const reckoning = `${counted(units.length * servers, 'fresh server')}: ${product}, each ${each}`;
  return { ms: least * servers, addedMs: 0, servers: { mostMs: bounded ? most * servers : undefined }, reckoning };
}

/** "serving 50–300 requests until steady, within 3 s", "serving 151 requests, 10 in flight". */
function servingWords(u: ServedRound): string {
  const { least, most } = u.requests;
  const count = least === most ? counted(most, 'request') : `${least}–${most} requests`;
  const until = u.withinMs !== undefined ? ` until steady, within ${formatSeconds(u.withinMs)}` : '';
  return `serving ${count}${u.concurrency > 1 ? `, ${u.concurrency} in flight` : ''}${until}`;
}

/** "0.46 s", "2.1 s": a set's time. */
function formatSeconds(ms: number): string {
  return `${+(ms / 1000).toPrecision(2)} s`;
}

/** The options that shorten a run of this kind. */
function shorterWith(plan: EstimatePlan, expected: ExpectedTime): string {
  if (expected.servers) return '--filter or --rounds shorten it';
  return plan.options.roundPlan.adaptive ? '--filter, --rounds, --max-time or --time shorten it' : '--filter, --rounds or --time shorten it';
}

/** How long, in words: "about 2:57"; rounds that are servers: "0:13 to 1:22", or "at least 0:31 and the handler's own time". */
function span(expected: ExpectedTime): string {
  if (!expected.servers) return `about ${formatClock(expected.ms)}`;
  const { mostMs } = expected.servers;
  return mostMs === undefined ? `at least ${formatClock(expected.ms)} and the handler's own time` : `${formatClock(expected.ms)} to ${formatClock(mostMs)}`;
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
  return `expected: ${span(expected)} (${expected.reckoning})${added}; ${shorterWith(plan, expected)}`;
}

/** The line said after a run: "took 3:11 (expected about 2:56 + up to 1:00 of added rounds)". */
export function tookLine(tookMs: number, expected: ExpectedTime | undefined): string {
  if (!expected) return `took ${formatClock(tookMs)}`;
  const added = expected.addedMs >= 1000 ? ` + up to ${formatClock(expected.addedMs)} of added rounds` : '';
  return `took ${formatClock(tookMs)} (expected ${span(expected)}${added})`;
}
