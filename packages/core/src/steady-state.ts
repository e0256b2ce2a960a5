/**
 * Warmup that watches (docs/warmup.md): the test the in-runtime loop runs
 * after each warmup batch, and the series it keeps of them. Runs beside case
 * code: captured built-ins (primordials.ts), index stores, plain loops.
 *
 * The case is steady when the medians of the last two windows of batch times
 * (ns per call) are one level: within the rule's tolerance, or within what
 * their own spread allows (a step the noise hides is not one it can
 * measure). The engine's horizons (minMs, tierUpCalls) come first: a flat
 * stretch before them says nothing about a tier-up to come.
 */
import { abs, max, min, round, sqrt } from './primordials.ts';
import type { MeasureOptions, WarmupSeries } from './protocol-schema.ts';

export type SteadyRule = NonNullable<MeasureOptions['steady']>;

/** A warmup series keeps at most this many points: past it, neighbours are merged pairwise. */
export const WARMUP_SERIES_POINTS = 128;

/** The median of values[from, to), without Array.prototype.sort (case code may have replaced it). */
export function medianOf(values: readonly number[], from: number, to: number): number {
  const sorted: number[] = [];
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    let j = sorted.length;
    while (j > 0 && sorted[j - 1]! > v) {
      sorted[j] = sorted[j - 1]!;
      j--;
    }
    sorted[j] = v;
  }
  const n = sorted.length;
  if (!n) return NaN;
  return n & 1 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/** Median absolute deviation of values[from, to) around their median. */
function madOf(values: readonly number[], from: number, to: number, median: number): number {
  const deviations: number[] = [];
  for (let i = from; i < to; i++) deviations[i - from] = abs(values[i]! - median);
  return medianOf(deviations, 0, deviations.length);
}

/**
 * How many robust standard errors two windows' medians may differ by and
 * still be one level. With 2, about 5% of pairs of windows of one level
 * would be called two levels under normal noise; such a false "still
 * stepping" only costs another batch, so the test leans towards waiting.
 */
const NOISE_Z = 2;

/**
 * Whether the last 2·w values are one level: the medians of the last w and
 * the w before differ by at most `tolerance` of the earlier one, or by at
 * most NOISE_Z standard errors of their difference (each window's scale from
 * its MAD; the median's standard error is ~1.25 σ/√w).
 */
export function windowsOneLevel(values: readonly number[], w: number, tolerance: number): boolean {
  const n = values.length;
  if (n < 2 * w) return false;
  const before = medianOf(values, n - 2 * w, n - w);
  const recent = medianOf(values, n - w, n);
  const gap = abs(recent - before);
  if (gap <= tolerance * before) return true;
  const sigmaBefore = 1.4826 * madOf(values, n - 2 * w, n - w, before);
  const sigmaRecent = 1.4826 * madOf(values, n - w, n, recent);
  const standardError = (1.2533 * sqrt(sigmaBefore * sigmaBefore + sigmaRecent * sigmaRecent)) / sqrt(w);
  return gap <= NOISE_Z * standardError;
}

/**
 * Whether the rule's horizons let the warmup end now (ms and calls since the
 * warmup began). The tier-up horizon is projected at the fastest call so far,
 * or at the rate an earlier process of the runtime reached past it
 * (`tierUpCallNs`) when that is faster: a process in a slow state (some
 * V8 processes ran json-reviver's `stringify [size=10kb]` at 67–76 µs a
 * call, the rest at 16–25 µs) would otherwise project its calls beyond the
 * horizon and not wait at all (docs/warmup.md, "The learned horizon").
 */
export function pastHorizons(rule: SteadyRule, elapsedMs: number, calls: number, fastestCallNs: number): boolean {
  if (elapsedMs < rule.minMs) return false;
  // In a slow state, a case of a fraction of a millisecond or more never nears the tier-up calls in time: it waits out the horizon's time.
  if (inSlowState(rule, fastestCallNs) && elapsedMs < rule.tierUpWithinMs) return false;
  const callNs = rule.tierUpCallNs !== undefined ? min(fastestCallNs, rule.tierUpCallNs) : fastestCallNs;
  // Short of the calls an engine tiers up by, and all of them take no longer than its horizon at that rate: wait for
  // them. Their time at the rate, not the wall clock's: a process sharing its core with other runtimes' runs fewer
  // calls a second than one alone, and must still warm to the same call (docs/warmup.md, "The learned horizon").
  return !(calls < rule.tierUpCalls && (rule.tierUpCalls * callNs) / 1e6 <= rule.tierUpWithinMs);
}

/**
 * How much slower than the rate an earlier process of its arm reached a
 * process must run to be in another state: processes of one arm differ by
 * tens of percent (memory layout, a neighbour's load) without any state to
 * blame; one at half the speed is in a slow state. Bun's processes warming a
 * string-building case beside node's on two cores (gc-pressure's "strings
 * (2k built and dropped)") ran some at 1–2.7 ms a call from start to end,
 * the rest at 0.25–0.33 ms (docs/warmup.md, "A process in a slow state").
 */
export const SLOW_STATE_FACTOR = 2;

/** Whether even the process's fastest call so far is SLOW_STATE_FACTOR times slower than the rate its arm is known to reach. */
function inSlowState(rule: SteadyRule, fastestCallNs: number): boolean {
  return rule.tierUpCallNs !== undefined && fastestCallNs > SLOW_STATE_FACTOR * rule.tierUpCallNs;
}

/**
 * Whether a process held only by the tier-up horizon is already where the
 * horizon leads: its steady window's fastest call within TIER_UP_STEP of the
 * rate an earlier process of the runtime reached past the horizon
 * (`tierUpCallNs`). The horizon waits for tier-ups, which only speed a case
 * up; a process as fast as one that crossed has none left to wait for. One
 * still slower (a slow start, a mid tier) waits. Returns the ratio, or
 * undefined when the rule knows no rate or the process is slower.
 */
function atKnownRate(rule: SteadyRule, fastestRecentNs: number): number | undefined {
  if (rule.tierUpCallNs === undefined) return undefined;
  const ratio = fastestRecentNs / rule.tierUpCallNs;
  return ratio > 0 && ratio <= 1 + TIER_UP_STEP ? ratio : undefined;
}

/**
 * Batches of at least LONG_BATCH_NS (a case of milliseconds a call, one call
 * a batch) are compared in windows of LONG_BATCH_WINDOW: 8 of them would
 * hold a 16 ms case for a quarter of a second.
 */
const LONG_BATCH_NS = 2e6;
const LONG_BATCH_WINDOW = 4;

/** The batches of one warmup, watched: the steady test's window, and the series the host saves. */
export class WarmupWatch {
  /** ns per call of each batch since the batch size last changed (the test compares like with like). */
  private window: number[] = [];
  private readonly calls: number[] = [];
  private readonly ms: number[] = [];
  private readonly ns: number[] = [];
  /** Calls already in the last point (a merged point spans several batches). */
  private callsAtPoint: number[] = [];
  private calibrationCalls = 0;
  private steadyAt: { calls: number; ms: number } | undefined;
  private lastBatchNs = 0;
  /** Where the windows were first one level while only the tier-up horizon held the warmup, and the recent window's values there. */
  private flatBeforeTierUp: { calls: number; ms: number; window: number[] } | undefined;
  /** What crossing the tier-up horizon did, found where the batches became steady past it, or that it was not waited for (atKnownRate). */
  private crossed: WarmupSeries['tierUp'];

  constructor(private readonly rule: SteadyRule) {}

  /** One batch: its ns per call, the calls made so far (this batch's included), ms since the warmup began. */
  add(nsPerCall: number, totalCalls: number, elapsedMs: number): void {
    this.window[this.window.length] = nsPerCall;
    const k = this.ns.length;
    this.lastBatchNs = nsPerCall * (totalCalls - (k ? this.calls[k - 1]! : 0));
    this.callsAtPoint[k] = totalCalls - (k ? this.calls[k - 1]! : 0);
    this.calls[k] = totalCalls;
    this.ms[k] = elapsedMs;
    this.ns[k] = nsPerCall;
    if (k + 1 >= WARMUP_SERIES_POINTS) this.merge();
  }

  /**
   * Calibration is over: the batches so far were of growing sizes, but for
   * the last step's when they were of the size the warmup goes on with
   * (`carried`): those open the first window.
   */
  calibrated(totalCalls: number, carried?: { nsPerCall: readonly number[]; callsPerBatch: number }): void {
    this.calibrationCalls = totalCalls;
    this.window = [];
    if (!carried) return;
    for (let i = 0; i < carried.nsPerCall.length; i++) this.window[i] = carried.nsPerCall[i]!;
    this.lastBatchNs = this.window[this.window.length - 1]! * carried.callsPerBatch;
  }

  /** The batch size changed (the JIT made the case much faster): the test starts over. */
  resized(): void {
    this.window = [];
  }

  /** Whether the batches are steady now (past the horizons); remembers where, the first time. */
  steady(elapsedMs: number, totalCalls: number, fastestCallNs: number): boolean {
    const w = this.windowBatches();
    if (!pastHorizons(this.rule, elapsedMs, totalCalls, fastestCallNs)) {
      // Past minMs, only the tier-up horizon holds it. Flat already: at the rate known past the horizon it ends here;
      // otherwise remember where and at what level, to say at the end whether the horizon changed anything.
      if (elapsedMs < this.rule.minMs || !windowsOneLevel(this.window, w, this.rule.tolerance)) return false;
      const ratio = atKnownRate(this.rule, this.fastestRecent());
      if (ratio !== undefined) {
        this.steadyAt = { calls: totalCalls, ms: elapsedMs };
        this.crossed = { kind: 'waived', ratio: round(ratio * 1e4) / 1e4 };
        return true;
      }
      if (!this.flatBeforeTierUp) this.flatBeforeTierUp = { calls: totalCalls, ms: elapsedMs, window: lastOf(this.window, w) };
      return false;
    }
    if (!windowsOneLevel(this.window, w, this.rule.tolerance)) return false;
    if (!this.steadyAt) {
      this.steadyAt = { calls: totalCalls, ms: elapsedMs };
      this.crossed = this.flatBeforeTierUp && acrossTierUp(this.flatBeforeTierUp, lastOf(this.window, w), this.rule.tierUpCalls);
    }
    return true;
  }

  /** The batches since the size last changed, in ns per call (a copy): the span's first window (amortize.ts). */
  recentBatches(): number[] {
    return lastOf(this.window, this.window.length);
  }

  /** The fastest batch of the last window, in ns per call: what one sample will take. */
  fastestRecent(): number {
    const n = this.window.length;
    return fastestOf(this.window, max(0, n - this.windowBatches()), n);
  }

  /** Batches per window: the rule's, fewer for long batches. */
  private windowBatches(): number {
    return this.lastBatchNs >= LONG_BATCH_NS ? min(LONG_BATCH_WINDOW, this.rule.windowBatches) : this.rule.windowBatches;
  }

  /** The series as saved: ms to the µs and ns per call to the ps keep the JSON short (a run holds one per process and case). */
  series(): WarmupSeries {
    const ms: number[] = [];
    const ns: number[] = [];
    for (let i = 0; i < this.ns.length; i++) {
      ms[i] = round(this.ms[i]! * 1e3) / 1e3;
      ns[i] = round(this.ns[i]! * 1e3) / 1e3;
    }
    const steadyAt = this.steadyAt && { calls: this.steadyAt.calls, ms: round(this.steadyAt.ms * 1e3) / 1e3 };
    const tierUp = this.crossed;
    return { calls: this.calls, ms, ns, calibrationCalls: this.calibrationCalls, ...(steadyAt ? { steadyAt } : {}), maxMs: this.rule.maxMs, ...(tierUp ? { tierUp } : {}) };
  }

  /** Neighbouring points merged pairwise: the later one's calls and time, the mean ns per call over both (weighted by calls). */
  private merge(): void {
    const n = this.ns.length;
    let out = 0;
    for (let i = 0; i + 1 < n; i += 2, out++) {
      const a = this.callsAtPoint[i]!;
      const b = this.callsAtPoint[i + 1]!;
      this.ns[out] = a + b > 0 ? (this.ns[i]! * a + this.ns[i + 1]! * b) / (a + b) : this.ns[i + 1]!;
      this.calls[out] = this.calls[i + 1]!;
      this.ms[out] = this.ms[i + 1]!;
      this.callsAtPoint[out] = a + b;
    }
    if (n & 1) {
      this.ns[out] = this.ns[n - 1]!;
      this.calls[out] = this.calls[n - 1]!;
      this.ms[out] = this.ms[n - 1]!;
      this.callsAtPoint[out] = this.callsAtPoint[n - 1]!;
      out++;
    }
    this.ns.length = out;
    this.calls.length = out;
    this.ms.length = out;
    this.callsAtPoint.length = out;
  }
}

/** The last n values (a copy, by index: case code may have replaced Array methods). */
function lastOf(values: readonly number[], n: number): number[] {
  const out: number[] = [];
  const from = max(0, values.length - n);
  for (let i = from; i < values.length; i++) out[i - from] = values[i]!;
  return out;
}

/**
 * A crossing stepped when the fastest batch moved by more than this. The
 * steps the horizon waits for are tier-ups of 2–4×
 * (docs/measurements/harness-figures.md, "Tier-up by calls"); a window's
 * median moves by far more than 10% when the process shares its cores (four
 * processes warming a builtin-bound json-reviver case on two cores: medians
 * 0.07–1.6× apart across the horizon), its fastest batch, the one least
 * preempted, does not. 10% is also what a cell may be off without a warmup
 * mark (docs/warmup.md).
 */
export const TIER_UP_STEP = 0.1;

/**
 * What crossing the tier-up horizon did: the steady window's fastest batch
 * over the flat window's (equal numbers of batches), and whether they differ
 * by more than TIER_UP_STEP. A flat window found late (past a quarter of the
 * tier-up calls) may straddle the very step the horizon waits for (node@24
 * stepped at its 12,648th call), so it judges nothing: the horizon stays.
 * It is said in the saved series (the classes and the page read it); no
 * later process skips the horizon on its word.
 */
function acrossTierUp(flat: { calls: number; ms: number; window: readonly number[] }, steady: readonly number[], tierUpCalls: number): WarmupSeries['tierUp'] {
  if (flat.calls > tierUpCalls / 4) return undefined;
  const k = min(flat.window.length, steady.length);
  const ratio = fastestOf(steady, steady.length - k, steady.length) / fastestOf(flat.window, flat.window.length - k, flat.window.length);
  if (!(ratio > 0 && ratio < Infinity)) return undefined;
  return { kind: 'crossed', flatAt: { calls: flat.calls, ms: round(flat.ms * 1e3) / 1e3 }, ratio: round(ratio * 1e4) / 1e4, stepped: abs(ratio - 1) > TIER_UP_STEP };
}

function fastestOf(values: readonly number[], from: number, to: number): number {
  let fastest = Infinity;
  for (let i = from; i < to; i++) fastest = min(fastest, values[i]!);
  return fastest;
}
