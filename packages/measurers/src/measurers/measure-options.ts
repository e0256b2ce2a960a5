/** The in-runtime loop's options for the timing measurers (lockstep, fresh processes): warmup, then samples chosen from the clock. */
import type { MeasureOptions } from '@rtbench/core/measure';
import { SAMPLE_FLOOR_MS } from '@rtbench/core/amortize';
import { parseDurationMs } from '@rtbench/core/duration';
import { MeasurerRefused, type MeasurerSetup, type PrepareContext } from '../measurer.ts';

/** What of a measurer's setup the timing measurers read. */
export type TimedSetup = Pick<MeasurerSetup, 'sampleTimeMs' | 'warmupMs' | 'warmupMinMs' | 'timeoutMs' | 'needs'>;

/** The memory view's need, met by a full collection between a case's warmup and its first sample (its ready figure then holds no garbage). */
export function collectsBeforeSampling(setup: Pick<MeasurerSetup, 'needs'>): boolean {
  return setup.needs?.includes('settled-memory') ?? false;
}

/**
 * A smoke run's samples of a case per process (per set, in lockstep), whatever --time: enough to show that the case
 * answers more than once and that a set's processes take turns, and a median that ignores one sample a pause
 * stretched (two samples' mean took it: a forged figure's test read an honest one as shrunk on a loaded machine);
 * its figures are not otherwise read (docs/warmup.md).
 */
export const SMOKE_SAMPLES = 3;

/** A fixed warmup (--fixed-warmup: no warmupMinMs) makes a smoke run. */
export function isSmoke(setup: Pick<MeasurerSetup, 'warmupMinMs'>): boolean {
  return setup.warmupMinMs === undefined;
}

/**
 * A smoke run takes SMOKE_SAMPLES and no collection between cases unless a view reads what its samples saw (the memory
 * view's readings after collections, the GC view's counts over its sampling time).
 */
export function smokeSized(setup: Pick<MeasurerSetup, 'warmupMinMs' | 'needs'>): boolean {
  return isSmoke(setup) && !setup.needs?.length;
}

export function timedMeasureOptions(setup: TimedSetup): MeasureOptions {
  const smoke = smokeSized(setup);
  return {
    warmupMs: setup.warmupMs,
    ...(setup.warmupMinMs !== undefined ? { warmupMinMs: setup.warmupMinMs } : {}),
    timeMs: setup.sampleTimeMs,
    minSamples: smoke ? SMOKE_SAMPLES : 5,
    maxSamples: smoke ? SMOKE_SAMPLES : 100_000,
    sampleMs: 0,
    // Samples grown to span the case's collections: the median of such samples is the amortized cost (core
    // amortize.ts). Not for the memory view: its leak rule reads growth per sample and needs the samples' number.
    // Nor under a fixed warmup (--fixed-warmup, no warmupMinMs): a smoke run whose figures nobody reads, where the
    // span's windows (seven batches at least, twice while uneven) were most of a slow case's time.
    // Every sample SAMPLE_FLOOR_MS at least (amortize.ts says why).
    ...(collectsBeforeSampling(setup) ? { collectBeforeSampling: true } : isSmoke(setup) ? {} : { amortize: true, sampleFloorMs: SAMPLE_FLOOR_MS }),
    ...(smoke ? { noCollections: true } : {}),
    // The GC view's counts: a runtime that reads them from its engine's log turns the log on for this run alone.
    ...(setup.needs?.includes('collection-counts') ? { collectionLog: true } : {}),
  };
}

/** A measurer option's whole number of at least 1, as given (absent: undefined); anything else refused in one line. */
export function givenWholeNumber(context: PrepareContext, name: string): number | undefined {
  const value = context.given[name];
  if (value === undefined) return undefined;
  const raw = String(value).trim();
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new MeasurerRefused(`--${name} ${JSON.stringify(String(value))}: expected a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`);
  return n;
}

/** A measurer option's duration, as given ("150ms", "0.2s"; absent: undefined); anything else refused in one line. */
export function givenDurationMs(context: PrepareContext, name: string): number | undefined {
  const value = context.given[name];
  if (value === undefined) return undefined;
  const parsed = parseDurationMs(String(value));
  if ('why' in parsed) throw new MeasurerRefused(`--${name} ${JSON.stringify(String(value))}: ${parsed.why}`);
  return parsed.ms;
}
