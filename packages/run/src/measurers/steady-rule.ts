/**
 * The lockstep measurer's warmup rule (also the fresh processes'): a process
 * warms a case until its batch times are steady (core steady-state.ts),
 * within the horizons its engine declares (runtime-kit engine.ts
 * WarmupHorizon). `--warmup` raises the engine's minimum; a maximum of
 * `--warmup` times the cap factor beyond the engine's is kept. What it
 * costs and what it finds: docs/warmup.md.
 */
import type { MeasureOptions } from '@rtbench/core';
import type { WarmupHorizon } from '@rtbench/runtime-kit';

/** Batches in each of the two windows compared: ~8 ms of ~1 ms batches, or 8 calls of a long case. */
const STEADY_WINDOW_BATCHES = 8;
/** Two windows whose medians are within 2% are one level: the table's own target interval. */
const STEADY_TOLERANCE = 0.02;

/** An engine that declares no horizon gets V8's, the most cautious measured (docs/harness-figures.md). */
const DEFAULT_HORIZON: WarmupHorizon = { minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 };

/**
 * The in-runtime options with the steady rule for one engine: only for an
 * adaptive warmup (warmupMinMs set); a fixed warmup stays fixed.
 */
export function withSteadyRule(measure: MeasureOptions, horizon: WarmupHorizon | undefined): MeasureOptions {
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
    },
  };
}
