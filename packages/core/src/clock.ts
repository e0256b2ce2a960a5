/**
 * Clocks and their resolution. Each runtime entry hands the harness its best
 * clock (process.hrtime on Node, Bun.nanoseconds on Bun, performance.now on
 * Deno and workerd). The harness measures what the clock can resolve instead
 * of trusting its documentation, and switches to edge-aligned timing when the
 * clock is coarse (workerd's performance.now() moves in 1 ms steps).
 */

import { max, min } from './primordials.ts';
import type { ClockInfo } from './protocol-schema.ts';

export interface Clock {
  /** Where the time comes from, e.g. "process.hrtime.bigint". */
  readonly name: string;
  /** Nanoseconds since an arbitrary origin (a double; keep the origin recent). */
  now(): number;
}

export type { ClockInfo };

/** Clocks coarser than this are timed edge-to-edge (see measure.ts). */
const COARSE_CLOCK_NS = 5_000;

/** Read budget for probing: a clock that never moves is an error, not a hang. */
const MAX_PROBE_READS = 50_000_000;

/**
 * A value kept for the last clock asked about (a process times with one
 * clock), made afresh for any other. A slot, not a Map: the harness reads it
 * after case code has run, which may have replaced Map's methods.
 */
function perClock<T>(make: (clock: Clock) => T): (clock: Clock) => T {
  let kept: { clock: Clock; value: T } | undefined;
  return (clock) => {
    if (kept?.clock !== clock) kept = { clock, value: make(clock) };
    return kept.value;
  };
}

/**
 * probeClock once per clock and process: a clock's step and read cost are
 * the process's, not a case's, and on a coarse clock the probe spins ~5 ms.
 */
export const clockInfoOf: (clock: Clock) => ClockInfo = perClock((clock) => probeClock(clock));

/**
 * Probe the clock: smallest non-zero step, and how many reads fit in one step.
 * Stops after 50 steps, or after a few steps once 5 ms have passed (a 1 ms
 * clock needs no more than that to show itself). A coarse clock moves in
 * whole ticks: a process descheduled across its edges sees steps of two or
 * three ticks, so its tick is the greatest common divisor of the steps seen.
 */
export function probeClock(clock: Clock): ClockInfo {
  let prev = clock.now();
  const start = prev;
  let minStep = Infinity;
  let tick = 0;
  let steps = 0;
  let reads = 0;
  while (reads < MAX_PROBE_READS) {
    const t = clock.now();
    reads++;
    if (t !== prev) {
      const step = t - prev;
      if (step > 0 && step < minStep) minStep = step;
      if (step > 0) tick = commonTick(tick, step);
      prev = t;
      steps++;
      if (steps >= 50 || (steps >= 4 && t - start >= 5e6)) break;
    }
  }
  if (steps < 2) throw new Error(`clock ${clock.name} did not advance in ${reads} reads; cannot time anything`);
  const readCostNs = (prev - start) / reads;
  // A fine clock's steps are the reads' own spacing, with no common tick; a coarse clock's divide into its tick.
  const resolutionNs = minStep > COARSE_CLOCK_NS && tick > COARSE_CLOCK_NS ? tick : minStep;
  return { name: clock.name, resolutionNs, readCostNs, edgeAligned: resolutionNs > COARSE_CLOCK_NS };
}

/**
 * The greatest common divisor of two steps, in whole nanoseconds (a clock's
 * readings in ms carry float error below that). Operators only: it runs after
 * case code, which may have replaced Math's functions.
 */
function commonTick(a: number, b: number): number {
  const whole = (n: number): number => n + 0.5 - ((n + 0.5) % 1);
  let x = whole(a);
  let y = whole(b);
  // No destructuring: a case may have replaced the array iterator it goes through.
  while (y > 0) {
    const r = x % y;
    x = y;
    y = r;
  }
  return x;
}

/** How many recent full ticks' read rates the spin cost is taken from. */
const SPIN_WINDOW = 16;

/** A ring of a clock's newest read rates (ns per read over a whole tick) and how many ticks were ever measured. */
interface SpinRates {
  readonly window: number[];
  ticks: number;
}

/**
 * Per clock, the rates every EdgeTimer on it measured in this process (the last clock's only): a
 * read's cost is the runtime's and the process's, so a case's timer goes on
 * from the last case's rates, refreshed as it times (every REFRESH batches).
 */
const spinRatesOf: (clock: Clock) => SpinRates = perClock(() => ({ window: [], ticks: 0 }));

/**
 * Timing for a coarse clock: wait for a tick, run the batch, spin until the
 * next tick counting reads; the batch took (edge2 - edge1) minus reads x the
 * cost of one read. That cost is re-measured on a full tick after every
 * fourth batch (it drifts within a process) and taken from the fast end of
 * the recent ticks, since preemption only ever lowers a tick's read count.
 * Why each choice: runners/workerd/README.md.
 */
export class EdgeTimer {
  private edge: number;
  /** The clock's recent read rates, shared by every timer on it in this process (spinRatesOf). */
  private readonly rates: SpinRates;
  /** A full tick is spent refreshing the rate after every REFRESH-th batch. */
  private static readonly REFRESH = 4;
  private batches = 0;

  /**
   * Warm the spin loop first: cold (before the JIT optimizes it), a read costs
   * several times more. A timer on a clock that an earlier timer of this
   * process calibrated on at least `calibrationTicks` ticks starts from those
   * rates (the spin loop is compiled by then) and adds one fresh tick: the
   * ~20 ms calibration is paid once per process, not once per case.
   */
  constructor(private readonly clock: Clock, calibrationTicks = 16, warmupTicks = 3) {
    this.rates = spinRatesOf(clock);
    this.edge = this.waitForEdge().time;
    if (this.rates.ticks >= calibrationTicks) {
      this.measureTick();
      return;
    }
    for (let tick = 0; tick < warmupTicks; tick++) this.waitForEdge();
    for (let tick = 0; tick < calibrationTicks; tick++) this.measureTick();
  }

  /**
   * ns per spin-loop read: the 25th percentile of the recent full ticks' rates
   * (the fast end). Sorted by hand, with index stores only: the timer runs
   * after case code, which may have replaced Array.prototype's methods.
   */
  get spinNs(): number {
    const sorted: number[] = [];
    const window = this.rates.window;
    for (let i = 0; i < window.length; i++) {
      const x = window[i]!;
      let j = sorted.length;
      while (j > 0 && sorted[j - 1]! > x) {
        sorted[j] = sorted[j - 1]!;
        j--;
      }
      sorted[j] = x;
    }
    return sorted[(sorted.length / 4) | 0]!;
  }

  /** Spin one whole tick (edge to edge) and record its rate. */
  private measureTick(): void {
    const previous = this.edge;
    const { time, reads } = this.waitForEdge();
    // A ring of the newest SPIN_WINDOW rates (index stores: see spinNs).
    this.rates.window[this.rates.ticks++ % SPIN_WINDOW] = (time - previous) / reads;
  }

  /** Spin until the clock value changes; returns the new value and how many reads it took. */
  private waitForEdge(): { time: number; reads: number; base: number } {
    const base = this.clock.now();
    let reads = 1;
    let t = base;
    while (t === base) {
      t = this.clock.now();
      reads++;
      if (reads > MAX_PROBE_READS) throw new Error(`clock ${this.clock.name} stopped advancing`);
    }
    this.edge = t;
    return { time: t, reads, base };
  }

  /** Call right before a batch: the batch starts at the last edge seen. */
  begin(): number {
    return this.edge;
  }

  /**
   * Call right after a batch: ns the batch took, interpolated within the
   * tick. Every few batches one full tick then refreshes the rate; the next
   * batch starts on the last edge seen either way.
   */
  end(begin: number): number {
    const { time, reads, base } = this.waitForEdge();
    if (++this.batches % EdgeTimer.REFRESH === 0) this.measureTick();
    // The spin began after the batch, at a time the clock showed as `base`, so it took at most time - base.
    // Read rates measured on a starved process (every recent tick preempted) overstate a read's cost; without
    // this bound a 2-tick batch of a 190 µs case on workerd read 0 ns (one core shared with six busy processes).
    const spun = min(reads * this.spinNs, time - base);
    // A batch far shorter than the interpolation error could come out below
    // zero; time is never negative, and the protocol rejects such a sample.
    return max(0, time - begin - spun);
  }

  /** Re-align to a fresh edge (after work that was not timed). */
  realign(): void {
    this.waitForEdge();
  }
}
