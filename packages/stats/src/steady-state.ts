/**
 * Did a process reach a steady state, and where? Each process × case is
 * classified from its warmup series (as the in-runtime watch kept it: core
 * steady-state.ts) and the samples taken after it, in the classes of Barrett
 * et al., "Virtual Machine Warmup Blows Hot and Cold" (OOPSLA 2017): flat,
 * warmed, slowdown, no steady state, with warmed-late for a process whose
 * samples themselves stepped down (it was still warming as sampling began).
 * Two stretches are one level when their medians differ by at most a
 * tolerance or by no more than their spread allows (robust standard errors
 * from the MAD): a step the noise hides is not called one.
 */
import { median } from './quantile.ts';
import { studentTQuantile } from './t-interval.ts';

export type SteadyStateClass = 'flat' | 'warmed' | 'warmed-late' | 'slowdown' | 'no-steady-state';

/** The classes a table marks (the cell's median may not be its steady state's), the graver first: a tie goes to it. */
const MARKED_STEADY_STATES: readonly SteadyStateClass[] = ['no-steady-state', 'slowdown', 'warmed-late'];

/** A process's warmup as the in-runtime watch kept it (core protocol-schema.ts warmupSeriesSchema). */
export interface WarmupCourse {
  calls: readonly number[];
  ms: readonly number[];
  /** ns per call at each point. */
  ns: readonly number[];
  calibrationCalls: number;
  steadyAt?: { calls: number; ms: number };
  /** The samples' batches hold this many times the series' last (grown to span the case's collections); absent: the same. */
  samplesGrown?: number | undefined;
}

export interface ProcessSteadyState {
  class: SteadyStateClass;
  /** warmed: where the warmup settled (calls of the case, ms since it began). */
  calls?: number;
  ms?: number;
}

export interface SteadyStateOptions {
  /** Medians this share apart or less are one level. */
  tolerance: number;
  /** …and so are medians whose difference a level shared would exceed with at most this chance (two-sided, Student's t on the stretches' degrees of freedom). */
  alpha: number;
  /** Points of the watched warmup (after calibration) that give its first level. */
  earlyPoints: number;
  /** Fewer samples than this are not split in halves. */
  minSamplesToSplit: number;
}

/**
 * 5%: a level a process holds within 5% is steady for a table whose intervals
 * are ±2% over many processes. alpha 0.1% per test keeps false steps rare
 * (measured on one log-normal level: packages/stats/test/steady-state.test.ts),
 * since every cell of a table has six or more processes to be wrong about.
 */
export const STEADY_STATE_DEFAULTS: SteadyStateOptions = { tolerance: 0.05, alpha: 0.001, earlyPoints: 8, minSamplesToSplit: 12 };

/**
 * -1 when `later` is a lower level than `earlier`, +1 when higher, 0 when
 * they are one level (within the tolerance, or within what one level's
 * noise allows the medians' difference at `alpha`). One scale for both
 * stretches, as under one level they share it: 1.4826 × the MAD of every
 * value around its own stretch's median; a median's standard error is
 * ~1.2533 σ/√n; Student's t on n₁ + n₂ − 2 degrees of freedom, as the scale
 * of a few values is itself uncertain.
 */
export function levelChange(earlier: readonly number[], later: readonly number[], options: Pick<SteadyStateOptions, 'tolerance' | 'alpha'> = STEADY_STATE_DEFAULTS): -1 | 0 | 1 {
  if (!earlier.length || !later.length) return 0;
  const a = median(earlier);
  const b = median(later);
  const gap = b - a;
  if (Math.abs(gap) <= options.tolerance * a) return 0;
  const sigma = 1.4826 * median([...earlier.map((v) => Math.abs(v - a)), ...later.map((v) => Math.abs(v - b))]);
  const standardError = 1.2533 * sigma * Math.sqrt(1 / earlier.length + 1 / later.length);
  const df = Math.max(1, earlier.length + later.length - 2);
  // Stryker disable next-line EqualityOperator: a gap equal to the allowance to the last bit does not occur (a continuous statistic)
  if (Math.abs(gap) <= studentTQuantile(1 - options.alpha / 2, df) * standardError) return 0;
  // Stryker disable next-line EqualityOperator: a gap of 0 returned above
  return gap < 0 ? -1 : 1;
}

/**
 * One process's class. No warmup series (a kept case's rewarm, a process
 * timed without the watch): from its samples alone.
 */
export function classifyProcess(warmup: WarmupCourse | undefined, samples: readonly number[], options: SteadyStateOptions = STEADY_STATE_DEFAULTS): ProcessSteadyState {
  if (warmup && !warmup.steadyAt) return { class: 'no-steady-state' };
  // A step while sampling, caught by the samples' halves.
  if (samples.length >= options.minSamplesToSplit) {
    const half = Math.floor(samples.length / 2);
    const step = levelChange(samples.slice(0, half), samples.slice(samples.length - half), options);
    if (step < 0) return { class: 'warmed-late' };
    if (step > 0) return { class: 'slowdown' };
  }
  if (!warmup || !samples.length) return { class: 'flat' };
  const early = warmup.ns.filter((_, i) => warmup.calls[i]! > warmup.calibrationCalls).slice(0, options.earlyPoints);
  const course = levelChange(early, samples, options);
  if (course < 0) return { class: 'warmed', calls: warmup.steadyAt!.calls, ms: warmup.steadyAt!.ms };
  // Samples grown past the warmup's batches hold the collections its short batches mostly missed: slower for that, not slowed.
  if (course > 0 && !((warmup.samplesGrown ?? 1) > 1)) return { class: 'slowdown' };
  return { class: 'flat' };
}

export interface CellSteadyState {
  /** The marked class shared by enough of the cell's processes to mark it (the commonest), or undefined. */
  mark?: SteadyStateClass;
  /** Processes per class. */
  counts: Partial<Record<SteadyStateClass, number>>;
  /** Processes classified (runs saved before classification have none). */
  classified: number;
}

/**
 * A cell (case × variant) is marked when at least a third of its classified
 * processes (at least one) are in marked classes: one process out of six that
 * stepped is worth a look, and a single false step among many should not
 * mark a cell whose other processes agree.
 */
export function cellSteadyState(states: readonly (ProcessSteadyState | undefined)[]): CellSteadyState {
  const counts: Partial<Record<SteadyStateClass, number>> = {};
  let classified = 0;
  for (const s of states) {
    if (!s) continue;
    classified++;
    counts[s.class] = (counts[s.class] ?? 0) + 1;
  }
  let marked = 0;
  let mark: SteadyStateClass | undefined;
  let most = 0;
  for (const c of MARKED_STEADY_STATES) {
    const k = counts[c] ?? 0;
    marked += k;
    if (k > most) {
      mark = c;
      most = k;
    }
  }
  return { ...(mark && marked >= Math.max(1, Math.ceil(classified / 3)) ? { mark } : {}), counts, classified };
}
