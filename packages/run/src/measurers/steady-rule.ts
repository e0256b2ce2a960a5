/**
 * The lockstep measurer's warmup rule (also the fresh processes'): a process
 * warms a case until its batch times are steady (core steady-state.ts),
 * within the horizons its engine declares (runtime-kit engine.ts
 * WarmupHorizon). `--warmup` raises the engine's minimum; a maximum of
 * `--warmup` times the cap factor beyond the engine's is kept. What it
 * costs and what it finds: docs/warmup.md.
 */
import type { MeasureOptions } from '@rtbench/core';
import { TIER_UP_STEP, type WarmupSeries } from '@rtbench/core/protocol';
import type { WarmupHorizon } from '@rtbench/runtime-kit';

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
export function withSteadyRule(measure: MeasureOptions, horizon: WarmupHorizon | undefined, waiveTierUp = false): MeasureOptions {
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
      ...(waiveTierUp ? { waiveTierUp: true as const } : {}),
    },
  };
}

/**
 * The tier-up horizon, learned per arm and case. Waiting for an engine's
 * tier-up calls is the costliest part of a table's warmup (two 10 KB
 * json-reviver cases: 15 of its 36 s), and a case whose time is in a
 * builtin does not step there. So the first process of an arm that crosses
 * the horizon with a case already flat says whether the case stepped there
 * (core steady-state.ts, `tierUp`); if it did not, the arm's later processes
 * open that case with the horizon waived. Tiering by calls happens at the
 * same count in every process of one binary and flags, so one crossing
 * speaks for the others; a step seen by any process keeps the horizon for
 * the rest of the run, and a crossing slower after the horizon than before
 * speaks for none (the process shared its core unevenly). What it saves:
 * docs/warmup.md, "The learned horizon".
 */
export class TierUpHorizons {
  private readonly learned = new Map<string, 'waive' | 'keep'>();

  /** Whether this arm's next process may open this case without waiting for the tier-up horizon. */
  waives(armId: string, caseId: string): boolean {
    return this.learned.get(key(armId, caseId)) === 'waive';
  }

  /** What a process's warmup of this case found at the horizon (nothing when it did not cross it flat). */
  learn(armId: string, caseId: string, warmup: WarmupSeries | undefined): void {
    const crossed = warmup?.tierUp?.kind === 'crossed' ? warmup.tierUp : undefined;
    if (!crossed) return;
    // Slower past the horizon: the process was disturbed (the horizon waits for tier-ups, which only speed a case up); the next process judges.
    if (crossed.ratio > 1 + TIER_UP_STEP) return;
    const k = key(armId, caseId);
    if (crossed.stepped) this.learned.set(k, 'keep');
    else if (!this.learned.has(k)) this.learned.set(k, 'waive');
  }
}

const key = (armId: string, caseId: string): string => `${armId}\u0000${caseId}`;
