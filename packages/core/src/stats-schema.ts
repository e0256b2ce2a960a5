/**
 * A case × variant's statistics as a run keeps them, and the finite number
 * every figure is: apart from the run schema (schema.ts), so a view that
 * picks a run's statistics from its samples (report's rowStats) loads this
 * schema alone, not the run's.
 */
import { z } from 'zod';

/** A figure: a number, never NaN or infinite. */
export const finite = z.number().finite();

export const statsSchema = z.object({
  n: z.number(),
  rounds: z.number(),
  median: finite,
  mean: finite,
  min: finite,
  max: finite,
  p25: finite,
  p75: finite,
  /** The median's interval over processes; absent when there were too few processes for one. */
  ci: z.tuple([finite, finite]).optional(),
  ciHalfWidthRel: finite.optional(),
  roundMedians: z.array(finite),
  /** Independent processes behind the rounds, and each one's median; absent in older runs (then each round was a process). */
  processes: z.number().int().positive().optional(),
  processMedians: z.array(finite).optional(),
  outliers: z.number(),
  ciMethod: z.string(),
  /** What `median` is (e.g. "median-of-medians"); absent in older runs. */
  estimator: z.string().optional(),
  /** Clusters of the process medians (@rtbench/stats detectModes); absent in older runs. */
  modes: z
    .object({ modes: z.array(z.object({ center: finite, count: z.number().int().positive(), low: finite, high: finite })).min(1), method: z.string() })
    .optional(),
});
