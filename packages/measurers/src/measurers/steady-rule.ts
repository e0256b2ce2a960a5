/**
 * The lockstep measurer's warmup rule (also the fresh processes'): a process
 * warms a case until its batch times are steady (core steady-state.ts),
 * within the horizons its engine declares (runtime-kit engine.ts
 * WarmupHorizon). `--warmup` raises the engine's minimum; a maximum of
 * `--warmup` times the cap factor beyond the engine's is kept. What it
 * costs and what it finds: docs/warmup.md.
 */
import type { MeasureOptions } from '@rtbench/core/measure';
import type { RoundRecord } from '@rtbench/core/schema';
import { pastHorizons, SLOW_STATE_FACTOR, TIER_UP_STEP } from '@rtbench/core/steady-state';
import { median } from '@rtbench/stats';
import type { WarmupHorizon } from '@rtbench/host';
import type { Arm } from '../measurer.ts';

/** Batches in each of the two windows compared: ~8 ms of ~1 ms batches, or 8 calls of a long case. */
const STEADY_WINDOW_BATCHES = 8;
/** Two windows whose medians are within 2% are one level: the table's own target interval. */
const STEADY_TOLERANCE = 0.02;

/** An engine that declares no horizon gets V8's, the most cautious measured (docs/measurements/harness-figures.md). */
const DEFAULT_HORIZON: WarmupHorizon = { minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };

/**
 * The most a watched warmup takes: the engine's maximum, or `warmupMs` when
 * that is longer (withSteadyRule); what a default time-out leaves room for.
 * Every engine in the tree declares DEFAULT_HORIZON's 3 s.
 */
export function longestWarmupMs(warmupMs: number): number {
  return Math.max(warmupMs, DEFAULT_HORIZON.maxMs);
}

/**
 * The in-runtime options with the steady rule for one engine: only for an
 * adaptive warmup (warmupMinMs set); a fixed warmup stays fixed.
 */
export function withSteadyRule(measure: MeasureOptions, horizon: WarmupHorizon | undefined, tierUpCallNs?: number): MeasureOptions {
  if (measure.warmupMinMs === undefined || measure.fixedIterations !== undefined) return measure;
  const h = horizon ?? DEFAULT_HORIZON;
  return {
    ...measure,
    steady: {
      windowBatches: STEADY_WINDOW_BATCHES,
      tolerance: STEADY_TOLERANCE,
      minMs: Math.max(h.minMs, measure.warmupMinMs),
      tierUpCalls: h.tierUpCalls,
      tierUpWithinMs: h.tierUpWithinMs,
      maxMs: Math.max(h.maxMs, measure.warmupMs),
      ...(tierUpCallNs !== undefined ? { tierUpCallNs } : {}),
    },
  };
}

/**
 * The rate past the tier-up horizon, learned per runtime as run (warmupKey)
 * and case. Waiting for
 * tier-up calls is the costliest part of a table's warmup, and tier-ups only
 * speed a case up, so the fastest median of an arm's processes so far is a
 * rate the arm reaches past the horizon. Later processes are told it: one
 * already one level within the least tier-up step of it ends there (core
 * steady-state.ts atKnownRate; its series says `waived`), one slower waits,
 * projecting the calls at that rate (pastHorizons), so a process that starts
 * in a slow state is not sampled there. A process told no rate (the first
 * round's) waits with none to be held to; once another process teaches one,
 * it is held to the same test after the fact (heldToRate). Why not waive per
 * arm: docs/warmup.md, "The learned horizon".
 *
 * A rate can mislead: V8 runs a long loop early in code compiled for the
 * loop alone (on-stack replacement) at its optimized rate, then for
 * thousands of calls in a middle tier at twice that or more, until the
 * function itself is optimized. A process that met the rate in that early
 * stretch and was sampled SLOW_STATE_FACTOR times slower is classed warmed
 * late, and the arm's later processes are told no rate for the case: they
 * wait for the tier-up calls at their own.
 */
export class TierUpHorizons {
  private readonly learned = new Map<string, number>();
  /** Per runtime and case, the records of processes that were told no rate, until a rate judges each. */
  private readonly untold = new Map<string, { record: ProcessRecord; horizon: WarmupHorizon }[]>();
  /** The runtimes and cases whose rate waived a process that was then sampled in a slower state. */
  private readonly misled = new Set<string>();

  /** The fastest ns per call this runtime's processes ran the case at, when one has and it never misled a process. */
  callNs(runtimeKey: string, caseId: string): number | undefined {
    const k = key(runtimeKey, caseId);
    return this.misled.has(k) ? undefined : this.learned.get(k);
  }

  /** The arm's runtime as run (warmupKey) and the rate its next process with this case is told. */
  told(caseId: string, arm: WarmupArm): ToldRate {
    const runtimeKey = warmupKey(arm);
    return { key: runtimeKey, ns: this.callNs(runtimeKey, caseId) };
  }

  /**
   * What a process's round of this case says: its median sample. `horizon`
   * is its engine's, which a process told no rate is judged by; `toldNs` the
   * rate it was told (callNs when it started).
   */
  learn(runtimeKey: string, caseId: string, record: ProcessRecord, horizon?: WarmupHorizon, toldNs?: number): void {
    if (!record.samples.length) return;
    const rate = median(record.samples);
    const k = key(runtimeKey, caseId);
    const known = this.learned.get(k);
    if (!(rate > 0 && rate < Infinity)) return;
    if (known !== undefined && record.warmup?.tierUp?.kind === 'waived' && rate > SLOW_STATE_FACTOR * known) {
      this.misled.add(k);
      record.steadyState = { class: 'warmed-late' };
      return;
    }
    const best = known === undefined ? rate : Math.min(known, rate);
    this.learned.set(k, best);
    // Nothing new to judge: no process told none, and the rate the untold were held to stands.
    if (toldNs !== undefined && best === known) return;
    const untold = this.untold.get(k) ?? [];
    if (toldNs === undefined) untold.push({ record, horizon: horizon ?? DEFAULT_HORIZON });
    // Two processes of the first round (an A/A's two arms) are both told none: each is held to the best rate either found.
    this.untold.set(k, untold.filter((u) => !heldToRate(u.record, u.horizon, best)));
  }
}

/**
 * What decides how a case warms on an arm: its runtime's binary and version,
 * the flags and environment it starts with, and the bundle it loads. Arms
 * alike in all of these (an A/A's, or one runtime under two names) learn one
 * tier-up horizon: a rate one of them reached past it is a rate the others'
 * processes can reach, and an arm whose own processes all started in a slow
 * state would otherwise never learn it.
 */
export function warmupKey(arm: WarmupArm): string {
  const env = Object.entries(arm.flags.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([arm.plugin.name, arm.target.binary, arm.target.version, arm.flags.args, env, arm.bundlePath]);
}

/** What of an arm decides how a case warms on it (warmupKey). */
type WarmupArm = Pick<Arm, 'plugin' | 'target' | 'flags' | 'bundlePath'>;

/** An arm's runtime as run (warmupKey) and the tier-up rate its process is told for a case (undefined: none). */
export interface ToldRate {
  key: string;
  ns: number | undefined;
}

type ProcessRecord = Pick<RoundRecord, 'samples'> & Partial<Pick<RoundRecord, 'warmup' | 'steadyState'>>;

/**
 * A process told no rate held to the test later processes meet:
 * sampled in a slow state (core steady-state.ts SLOW_STATE_FACTOR: a mark must not come from the tens of percent
 * processes differ by) where the known rate's
 * projection of the tier-up calls would have kept a later process warming
 * (pastHorizons), its samples were taken before the horizon; it is classed
 * warmed late (still warming as sampling began), its samples kept. Returns
 * whether it was.
 */
function heldToRate(record: ProcessRecord, horizon: WarmupHorizon, rateNs: number): boolean {
  const steadyAt = record.warmup?.steadyAt;
  const unmarked = record.steadyState?.class === 'flat' || record.steadyState?.class === 'warmed';
  if (!steadyAt || !unmarked || record.warmup?.tierUp?.kind === 'waived') return false;
  if (median(record.samples) <= rateNs * Math.max(SLOW_STATE_FACTOR, 1 + TIER_UP_STEP)) return false;
  const rule = { windowBatches: STEADY_WINDOW_BATCHES, tolerance: STEADY_TOLERANCE, minMs: 0, maxMs: horizon.maxMs, tierUpCalls: horizon.tierUpCalls, tierUpWithinMs: horizon.tierUpWithinMs, tierUpCallNs: rateNs };
  if (pastHorizons(rule, steadyAt.ms, steadyAt.calls, Infinity)) return false;
  record.steadyState = { class: 'warmed-late' };
  return true;
}

const key = (armId: string, caseId: string): string => `${armId}\u0000${caseId}`;
