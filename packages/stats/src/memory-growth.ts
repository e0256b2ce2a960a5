/**
 * Whether a case's resident memory keeps growing while it is called, and by
 * how much per call. Each process gives a series: the resident bytes when the
 * case was warm, then after each sample, against the calls made since warm.
 *
 * A process "keeps growing" when the medians of the four quarters of its
 * series never fall, rise over the last three (the first may be flat: the
 * allocator hands out memory that earlier cases freed before the resident set
 * grows) by steps of which neither of the last two is under half their mean
 * (a young generation or a runtime's buffers that grow and then settle rise
 * early and flatten), and the last quarter sits at least GROWTH_FLOOR_BYTES
 * above the first: a resident set that steps up once (the
 * heap took another page, the allocator another arena) and then holds is
 * steady, and a few pages of drift are below what /proc's page granularity
 * and the allocator's caching can tell from a leak. Where the runtime took a
 * full collection after its last sample (bun always, V8 under --expose-gc),
 * at least half of that growth must outlast it: garbage not yet collected is
 * not kept. A case is marked when
 * every process it has a series for keeps growing; its growth per call is the
 * median of the processes' Theil–Sen slopes (the median of the slopes between
 * every two readings: one jump does not carry it).
 */
import { median } from './quantile.ts';

/** One process's readings: resident bytes at the case's ready, then after each sample; calls of the case per sample. */
export interface ResidentSeries {
  readyBytes: number;
  sampleBytes: readonly number[];
  callsPerSample: number;
  /** Resident bytes as the case answered, after the runtime's full collection where it could force one. */
  endBytes?: number;
}

export interface ProcessGrowth {
  /** Theil–Sen slope of resident bytes over calls. */
  bytesPerCall: number;
  /** Median of the last quarter minus median of the first, bytes. */
  grownBytes: number;
  keepsGrowing: boolean;
}

export interface MemoryGrowth {
  /** Processes judged (those with enough readings). */
  processes: number;
  /** Median over processes of their growth per call, bytes. */
  bytesPerCall: number;
  /** Every judged process kept growing. */
  leak: boolean;
}

/** Readings a series needs to be judged (the ready one and the samples): a loaded machine may cut a set to 5 turns. */
export const MIN_GROWTH_READINGS = 6;

/** Growth from the first quarter to the last below this is not told apart from the allocator's and the heap's steps. */
export const GROWTH_FLOOR_BYTES = 1024 * 1024;

/** At most this many readings enter the pairwise slopes (evenly spaced): the pairs grow with the square of the count. */
const MAX_SLOPE_POINTS = 200;

function theilSen(xs: readonly number[], ys: readonly number[]): number {
  const step = Math.max(1, Math.ceil(xs.length / MAX_SLOPE_POINTS));
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i += step) {
    for (let j = i + step; j < xs.length; j += step) if (xs[j]! !== xs[i]!) slopes.push((ys[j]! - ys[i]!) / (xs[j]! - xs[i]!));
  }
  return slopes.length ? median(slopes) : 0;
}

/** One process's growth, or undefined when it has too few readings to say. */
export function processGrowth(series: ResidentSeries): ProcessGrowth | undefined {
  const ys = [series.readyBytes, ...series.sampleBytes];
  if (ys.length < MIN_GROWTH_READINGS || !(series.callsPerSample > 0)) return undefined;
  const xs = ys.map((_, i) => i * series.callsPerSample);
  const quarter = (k: number): number => median(ys.slice(Math.floor((k * ys.length) / 4), Math.floor(((k + 1) * ys.length) / 4)));
  const quarters = [0, 1, 2, 3].map(quarter);
  const steps = [1, 2, 3].map((k) => quarters[k]! - quarters[k - 1]!);
  const grownBytes = quarters[3]! - quarters[0]!;
  const even = steps[1]! >= grownBytes / 6 && steps[2]! >= grownBytes / 6;
  const rising = steps[0]! >= 0 && steps[1]! > 0 && steps[2]! > 0 && even;
  const last = ys[ys.length - 1]!;
  const kept = series.endBytes === undefined || series.endBytes - series.readyBytes >= (last - series.readyBytes) / 2;
  return { bytesPerCall: theilSen(xs, ys), grownBytes, keepsGrowing: rising && grownBytes >= GROWTH_FLOOR_BYTES && kept };
}

/** A case × variant's growth over its processes, or undefined when no process has enough readings. */
export function memoryGrowth(series: readonly ResidentSeries[]): MemoryGrowth | undefined {
  const judged = series.map(processGrowth).filter((g): g is ProcessGrowth => g !== undefined);
  if (!judged.length) return undefined;
  return { processes: judged.length, bytesPerCall: median(judged.map((g) => g.bytesPerCall)), leak: judged.every((g) => g.keepsGrowing) };
}
