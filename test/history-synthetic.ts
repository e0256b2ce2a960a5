/** A series of synthetic saved runs for the history tests: one run per step, seeded noise, a commit and a start time each. */
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun, type SyntheticOptions } from './compare-synthetic.ts';

export interface HistoryStep {
  /** Multiplies every case's time in this run (1.1: 10% slower than 1). */
  factor: number;
  /** The project commit the run records (absent: none). */
  commit?: string;
  dirty?: boolean;
  /** Start time; default: one day after the previous step. */
  startedAt?: string;
  /** Replaces the variant's version and binary hash (a new build under the same id). */
  binary?: { version: string; sha256: string };
  /** A different digest for every case (the work changed). */
  digest?: string;
}

export interface HistoryRunsOptions extends Omit<SyntheticOptions, 'arms' | 'seed'> {
  variants?: string[];
  /** Seed of the first run; run i uses seed + i. */
  seed?: number;
}

/** One run per step: every variant at the step's factor, with independent noise per run. */
export function historyRuns(steps: readonly HistoryStep[], o: HistoryRunsOptions): RunRecord[] {
  const variants = o.variants ?? ['node@24'];
  const seed = o.seed ?? 1;
  return steps.map((step, i) => {
    const run = syntheticRun({
      ...o,
      seed: seed + i * 7919,
      arms: variants.map((id) => ({ id, factor: step.factor, ...(step.digest ? { overrides: Object.fromEntries(o.cases.map((c) => [c.id, { digest: step.digest }])) } : {}) })),
    });
    const startedAt = step.startedAt ?? new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
    return {
      ...run,
      id: `history-${i + 1}`,
      startedAt,
      finishedAt: startedAt,
      ...(step.commit ? { git: { commit: step.commit, dirty: step.dirty ?? false } } : {}),
      variants: run.variants.map((v) => (step.binary ? { ...v, version: step.binary.version, binarySha256: step.binary.sha256 } : v)),
    };
  });
}
