/**
 * Whether a case's resident memory keeps growing while it is called, and by
 * how much per call, from each process's readings at warm and after each
 * sample. A trend, not a step: the later of two readings must be higher in
 * most pairs, and the growth must exceed what /proc's pages and the
 * runtime's own work per sample explain. Readings taken after full
 * collections are judged on what the process (or, where it says, the
 * engine) kept; the slope is read from the later half, since a runtime's own
 * growth comes while a case is new to it. The rule, its allowances and why
 * each is sized so: docs/memory.md, "The leak mark".
 */
import { median } from '@rtbench/stats';

/** One process's readings: resident bytes at the case's ready, then after each sample; calls of the case per sample. */
export interface ResidentSeries {
  readyBytes: number;
  sampleBytes: readonly number[];
  callsPerSample: number;
  /** Resident bytes as the case answered, after the runtime's full collection where it could force one. */
  endBytes?: number;
  /** readyBytes and endBytes were read after full collections the runtime forced: they hold what the process kept, no garbage. */
  collected?: boolean;
  /**
   * What the engine held for the program (heap in use and the memory outside it that it was told of), read by the
   * runtime right after the same two collections; absent where it cannot say (workerd).
   */
  held?: { readyBytes: number; endBytes: number };
}

export interface ProcessGrowth {
  /** Theil–Sen slope of resident bytes over calls. */
  bytesPerCall: number;
  /** What the engine held more per call from the collected warm to the collected end, where it said. */
  heldPerCallBytes?: number;
  /** Growth over the samples at that slope, bytes. */
  grownBytes: number;
  keepsGrowing: boolean;
}

export interface MemoryGrowth {
  /** Processes judged (those with enough readings). */
  processes: number;
  /** Median over processes of their growth per call, bytes. */
  bytesPerCall: number;
  /** Median over processes of what the engine held more per call, where every judged process said. */
  heldPerCallBytes?: number;
  /** Every judged process kept growing (or its rounds together held more in every one); absent: the readings cannot say (short rounds the resident set alone judges). */
  leak?: boolean;
}

/** Readings a series needs to be judged (the ready one and the samples): a loaded machine may cut a set to 5 turns. */
export const MIN_GROWTH_READINGS = 6;

/** Growth over the samples below this is not told apart from the allocator's, the heap's and the runtime's own steps. */
export const GROWTH_FLOOR_BYTES = 1024 * 1024;

/** Growth a sample may bring whatever the case does, garbage not yet collected included (seen up to about half of it on a steady case). */
export const SAMPLE_ALLOWANCE_BYTES = 32 * 1024;

/**
 * Growth a sample of the later half may keep past a forced collection
 * whatever the case does: the runtime's own (its allocator's and heap's
 * pages, given back to the system late) is seen up to about half of it on a
 * steady case.
 */
export const KEPT_SAMPLE_ALLOWANCE_BYTES = 12 * 1024;

/** Samples a series read between collections needs before it can be marked (keptGrowing). */
export const MIN_KEPT_SAMPLES = 32;

/**
 * The share of what the resident set kept between the collections that the engine must say it holds too, where it
 * says: memory the process's allocator keeps after the program let go of it (V8 frees ArrayBuffers' backing stores
 * off the thread that allocated them) grows the resident set past every collection while the heap and the bytes
 * outside it stay flat. Half: a leak the program keeps is all held, less the allocator's and the pages' rounding.
 */
export const HELD_SHARE = 0.5;

/**
 * Growth a sample may bring to what the engine held past a collection whatever the case does (its compiled code,
 * its caches warming): seen up to about a tenth of it on steady cases. Below KEPT_SAMPLE_ALLOWANCE_BYTES: the
 * engine's figure carries none of the runtime's own growth per sample that the resident set does, so a slower leak
 * (4 KB a call from 2 calls a sample on) is told where the engine says.
 */
export const HELD_SAMPLE_ALLOWANCE_BYTES = 4 * 1024;

/** Rounds a case needs before its rounds are judged together (a default table's rounds are each too short to mark). */
export const MIN_POOLED_ROUNDS = 3;

/**
 * What the engine must hold more per call in every round, read together: a
 * leak of a few KB a call holds 4 KiB (3.8–4.8 KiB a call in every round of
 * a default table on node, deno and bun); a steady case's rounds held at
 * most 0.9 KiB a call, about 0.1–0.2 KiB over all of them.
 */
export const POOLED_HELD_PER_CALL_BYTES = 2 * 1024;

/** What a round may hold more whatever the case does (the runtime's caches, its compiled code): each round past it, and all of them past the floor and it each. */
export const ROUND_ALLOWANCE_BYTES = 128 * 1024;

/** The share of pairs of readings in which the later one is higher, at least, for a trend. */
const RISING_SHARE = 0.75;

/** At most this many readings enter the pairwise slopes (evenly spaced): the pairs grow with the square of the count. */
const MAX_SLOPE_POINTS = 200;

/** Readings evenly spaced, at most MAX_SLOPE_POINTS: the pairs grow with the square of the count. */
function thinned<T>(items: readonly T[]): T[] {
  const step = Math.max(1, Math.ceil(items.length / MAX_SLOPE_POINTS));
  return items.filter((_, i) => i % step === 0);
}

/** The Theil–Sen slope and the share of pairs that rise. */
function trend(xs: readonly number[], ys: readonly number[]): { slope: number; risingShare: number } {
  const slopes: number[] = [];
  let rising = 0;
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      slopes.push((ys[j]! - ys[i]!) / (xs[j]! - xs[i]!));
      if (ys[j]! > ys[i]!) rising++;
    }
  }
  return slopes.length ? { slope: median(slopes), risingShare: rising / slopes.length } : { slope: 0, risingShare: 0 };
}

/**
 * Whether a series read from a collected warm to a collected end kept growing:
 * what the process kept against the floor and the smaller allowance, and what
 * the later half's samples kept at its rate besides (low where the half's
 * first reading held garbage, never high), since the runtime's own growth
 * that outlasts a collection comes in the first samples, as the slope's
 * does. A shorter series is never marked: a collection's pages come back to
 * the system late, by megabytes on bun, more than its leak could grow.
 */
function keptGrowing(readings: readonly number[], endBytes: number): boolean {
  const samples = readings.length - 1;
  if (samples < MIN_KEPT_SAMPLES) return false;
  const half = Math.floor(samples / 2);
  const keptBytes = endBytes - readings[0]!;
  const keptLaterBytes = endBytes - readings[half]!;
  return keptBytes >= GROWTH_FLOOR_BYTES + samples * KEPT_SAMPLE_ALLOWANCE_BYTES && keptLaterBytes >= (samples - half) * KEPT_SAMPLE_ALLOWANCE_BYTES;
}

/** One process's growth, or undefined when its readings cannot say (too few, or it fell below its start). */
export function processGrowth(series: ResidentSeries): ProcessGrowth | undefined {
  const readings = [series.readyBytes, ...series.sampleBytes];
  if (readings.length < MIN_GROWTH_READINGS || !(series.callsPerSample > 0)) return undefined;
  const collectedEnd = series.collected === true ? series.endBytes : undefined;
  // Where warm was read after a collection, a fall below it is pages the allocator gave back late, not an earlier
  // case's garbage: that series is read from warm.
  const lowest = Math.min(...readings);
  const from = collectedEnd === undefined && lowest < series.readyBytes - GROWTH_FLOOR_BYTES ? readings.lastIndexOf(lowest) : 0;
  const all = readings.slice(from);
  const last = all[all.length - 1]!;
  const allowance = (all.length - 1) * SAMPLE_ALLOWANCE_BYTES;
  if (from > 0 && (all.length < MIN_GROWTH_READINGS || last < series.readyBytes + GROWTH_FLOOR_BYTES + allowance)) return undefined;
  const points = thinned(all.map((y, i) => ({ x: i * series.callsPerSample, y })));
  const { risingShare } = trend(points.map((p) => p.x), points.map((p) => p.y));
  const later = points.slice(Math.floor((points.length - 1) / 2));
  const { slope } = trend(later.map((p) => p.x), later.map((p) => p.y));
  const grownBytes = slope * (all.length - 1) * series.callsPerSample;
  const base = all[0]!;
  const rising = risingShare >= RISING_SHARE;
  if (collectedEnd !== undefined) {
    const held = series.held;
    if (!held) return { bytesPerCall: slope, grownBytes, keepsGrowing: rising && keptGrowing(all, collectedEnd) };
    const samples = all.length - 1;
    const heldGrowth = held.endBytes - held.readyBytes;
    const heldPerCallBytes = heldGrowth / (samples * series.callsPerSample);
    const heldGrowing = samples >= MIN_KEPT_SAMPLES && heldGrowth >= GROWTH_FLOOR_BYTES + samples * HELD_SAMPLE_ALLOWANCE_BYTES;
    const attributed = heldGrowth >= HELD_SHARE * (collectedEnd - all[0]!);
    return { bytesPerCall: slope, heldPerCallBytes, grownBytes, keepsGrowing: rising && heldGrowing && attributed };
  }
  const kept = series.endBytes === undefined || series.endBytes - base >= ((last - base) * 3) / 4;
  return { bytesPerCall: slope, grownBytes, keepsGrowing: rising && grownBytes >= GROWTH_FLOOR_BYTES + allowance && kept };
}

/**
 * Whether a case's rounds read together kept what they allocated, where the
 * engine says what it held: each round read from a collected warm to a
 * collected end, too short alone (a default table's rounds hold 8–32
 * samples, fewer than MIN_KEPT_SAMPLES), but holding more in every one. In
 * every round the engine held at least POOLED_HELD_PER_CALL_BYTES a call
 * and ROUND_ALLOWANCE_BYTES more; all of them together more than the floor
 * and each round's allowance, and at least HELD_SHARE of what the resident
 * set kept (growth only the allocator keeps is not a leak). The resident
 * set alone cannot tell a leak from a heap that grows to its size over
 * short rounds (a fresh process per round: React's renders kept 8–290 KB a
 * call past the collections, and keep nothing): where the engine cannot
 * say, short rounds are not judged (`unjudgeable`).
 */
export function roundsKeptGrowing(series: readonly ResidentSeries[]): boolean {
  const rounds = series.filter((s) => s.collected === true && s.endBytes !== undefined && s.held !== undefined && s.callsPerSample > 0 && s.sampleBytes.length > 0);
  if (rounds.length < MIN_POOLED_ROUNDS || rounds.length < series.length) return false;
  let held = 0;
  let kept = 0;
  for (const s of rounds) {
    const grown = s.held!.endBytes - s.held!.readyBytes;
    if (!(grown >= POOLED_HELD_PER_CALL_BYTES * s.sampleBytes.length * s.callsPerSample && grown >= ROUND_ALLOWANCE_BYTES)) return false;
    held += grown;
    kept += s.endBytes! - s.readyBytes;
  }
  return held >= GROWTH_FLOOR_BYTES + rounds.length * ROUND_ALLOWANCE_BYTES && held >= HELD_SHARE * kept;
}

/** A round only the resident set judges (the engine does not say what it held), read between collections but too short for it alone. */
const unjudgeable = (s: ResidentSeries): boolean => s.collected === true && s.held === undefined && s.sampleBytes.length < MIN_KEPT_SAMPLES;

/**
 * A case × variant's growth over its processes, or undefined when no process
 * has enough readings. Its mark: a leak when its rounds together held more
 * in every one (roundsKeptGrowing), or every judged round kept growing; not
 * one when a round that can say did not; unknown (absent) when the rest
 * are rounds the resident set alone cannot judge.
 */
export function memoryGrowth(series: readonly ResidentSeries[]): MemoryGrowth | undefined {
  const each = series.map((s) => ({ s, g: processGrowth(s) }));
  const judged = each.flatMap(({ g }) => (g ? [g] : []));
  if (!judged.length) return undefined;
  const saying = each.filter(({ s, g }) => g && !unjudgeable(s)).map(({ g }) => g!);
  const leak = roundsKeptGrowing(series) || (saying.every((g) => g.keepsGrowing) && (saying.length === judged.length ? true : saying.some((g) => !g.keepsGrowing) ? false : undefined));
  const held = judged.flatMap((g) => (g.heldPerCallBytes !== undefined ? [g.heldPerCallBytes] : []));
  return {
    processes: judged.length,
    bytesPerCall: median(judged.map((g) => g.bytesPerCall)),
    ...(held.length === judged.length ? { heldPerCallBytes: median(held) } : {}),
    ...(leak !== undefined ? { leak } : {}),
  };
}
