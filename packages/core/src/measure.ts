/**
 * The in-runtime measurement loop. Runtime-neutral: no runtime APIs, and no
 * code generated from strings (workerd refuses `new Function` inside a
 * request), so the loop is a plain closure. Each case a process runs gets a
 * copy of the loop of its own (SYNC_LOOPS), so the loop's call site only ever
 * sees that case's function and the engine can inline it just as a generated
 * loop would.
 */
import { EdgeTimer, type Clock, type ClockInfo } from './clock.ts';
import type { SelfTimedBatch, Stopwatch, TimedFn } from './suite.ts';
import { max, min, objectAssign, round } from './primordials.ts';
import { lockstepPreBatch } from './protocol.ts';
import { runUpCalls } from './run-up.ts';
import type { MeasureOptions, WarmupSeries } from './protocol-schema.ts';
import { WarmupWatch, type SteadyRule } from './steady-state.ts';
import { cycleCallsOf, flooredCalls, spanPeriodicCosts, type YoungGeneration } from './amortize.ts';
import type { SampleSpan } from './protocol-schema.ts';

export type { MeasureOptions };

/**
 * How a profile knows this module's frames: the source its bundle's source
 * map names, the functions of each phase, and those of the timed path (the
 * batch loops and the batch timers' closures, into which the JIT inlines the
 * case's function). A profiler sees the stack as it is, not the async chain:
 * a batch after an `await` in threeBatches or watchedWarmup has that function
 * at its root, without warmUp under it, so they are warmup frames too. The
 * floor (harnessFloor) runs after a case's last sample (execute.ts floorFor).
 */
export const MEASURE_FRAMES = {
  source: 'packages/core/src/measure.ts',
  warmup: ['warmUp', 'watchedWarmup', 'spannedSampler', 'spanWindow', 'steadyTime', 'threeBatches', 'harnessFloor'],
  sampling: ['sample'],
  timedPath: ['timedLoop', 'timedLoopAsync', 'runSync', 'runAsync', 'runOwnSync', 'runOwnAsync', '(anonymous)'],
} as const;

export const DEFAULT_MEASURE_OPTIONS: MeasureOptions = {
  warmupMs: 150,
  timeMs: 400,
  minSamples: 5,
  maxSamples: 100_000,
  sampleMs: 0,
};

export interface Measurement {
  /** Nanoseconds per iteration, one entry per sample, in the order taken. */
  samples: number[];
  /**
   * When each sample started, in ms since the clock's origin (the runtime
   * entry sets it as the process starts), one entry per sample. The time
   * series shows a process switching between fast and slow states
   * (docs/measurements/two-speed-noise.md).
   */
  sampleStartMs: number[];
  iterationsPerSample: number;
  warmupIterations: number;
  /** The warmup as watched, under a steady rule. */
  warmup?: WarmupSeries;
  /** True when the case returned a promise and each iteration was awaited. */
  async: boolean;
  /** How long the samples were made to span the case's periodic costs (MeasureOptions.amortize). */
  span?: SampleSpan;
}

/**
 * Every result is written to a small ring that escapes to the global object,
 * so the engine cannot prove the work unused and drop it. Storing to an array
 * slot with a moving index also defeats store elimination.
 */
const ring: unknown[] = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];

(globalThis as Record<string, unknown>).__rtbenchKeepAlive = ring;

/**
 * The loops that call a case, in 16 textual copies. An engine keeps a call
 * site's type feedback per copy of the code, not per closure, so one loop
 * shared by the many cases a warm process serves would go megamorphic at its
 * `fn()`, stop inlining the case, and move short cases' figures by what ran
 * before them. Each case takes the next copy (loopCopy). The copies must stay
 * separate literals (closures of one factory share feedback) and named
 * (timedLoop, timedLoopAsync): profiles find the timed path by those names
 * (packages/profile/src/alloc-summary.ts TIMED_PATH).
 */
const SYNC_LOOPS: readonly ((fn: TimedFn, n: number) => void)[] = [
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
  function timedLoop(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = fn();
  },
];

const ASYNC_LOOPS: readonly ((fn: TimedFn, n: number) => Promise<void>)[] = [
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
  async function timedLoopAsync(fn, n) {
    for (let i = 0; i < n; i++) ring[i & 7] = await fn();
  },
];

let nextLoopCopy = 0;

/** The loops for the next case this process runs. */
function loopCopy(): { sync: (fn: TimedFn, n: number) => void; async: (fn: TimedFn, n: number) => Promise<void> } {
  const i = nextLoopCopy++ % SYNC_LOOPS.length;
  return { sync: SYNC_LOOPS[i]!, async: ASYNC_LOOPS[i]! };
}

/**
 * The harness's floor (harnessFloor): the same loop, a copy of its own, so no
 * case's copy sees the empty case's feedback.
 */
const FLOOR_LOOP = function timedLoop(fn: TimedFn, n: number): void {
  for (let i = 0; i < n; i++) ring[i & 7] = fn();
};
const FLOOR_CASE: TimedFn = () => undefined;

const runSync = SYNC_LOOPS[0]!;
const runAsync = ASYNC_LOOPS[0]!;

/** A case that owns its loop (TimedFnHooks.runBatch) runs the whole batch in one call. */
function runOwnSync(fn: TimedFn, n: number): void {
  ring[0] = fn.runBatch!(n);
}

async function runOwnAsync(fn: TimedFn, n: number): Promise<void> {
  ring[0] = await fn.runBatch!(n);
}

/** Times one batch of n iterations, in ns; picks fine or edge-aligned timing. */
type BatchTimer = ((n: number) => number | Promise<number>) & {
  /** Edge-aligned timers: wait for a fresh edge after untimed work. */
  realign?(): void;
  /**
   * Edge-aligned timers: run a batch untimed (a lockstep pre-batch) and end
   * on a fresh edge, where the next timed batch starts; unlike a timed batch
   * it spends no tick refreshing the spin rate.
   */
  untimed?(n: number): void | Promise<void>;
};

function makeBatchTimer(fn: TimedFn, isAsync: boolean, clock: Clock, info: ClockInfo): BatchTimer {
  if (typeof fn.timeBatch === 'function') return makeSelfTimer(fn, clock, info);
  const loops = loopCopy();
  const timer = typeof fn.runBatch === 'function' ? makeTimer(fn, isAsync, clock, info, runOwnSync, runOwnAsync) : makeTimer(fn, isAsync, clock, info, loops.sync, loops.async);
  const before = fn.beforeBatch;
  if (typeof before !== 'function') return timer;
  // Untimed preparation of the batch's inputs, then the timed batch. An edge-aligned timer starts a batch on the last
  // edge it saw, so after the preparation it waits for a fresh one: otherwise the preparation would be timed with the batch.
  const { realign, untimed } = timer;
  return objectAssign((n: number) => {
    before(n);
    realign?.();
    return timer(n);
  }, realign && untimed ? { realign, untimed: (n: number) => (before(n), untimed(n)) } : {});
}

function makeTimer(
  fn: TimedFn,
  isAsync: boolean,
  clock: Clock,
  info: ClockInfo,
  runSync: (fn: TimedFn, n: number) => void,
  runAsync: (fn: TimedFn, n: number) => Promise<void>,
  newEdge: () => EdgeTimer = () => new EdgeTimer(clock),
): BatchTimer {
  if (info.edgeAligned) {
    const edge = newEdge();
    const realign = (): void => edge.realign();
    if (isAsync) {
      return objectAssign(async (n: number) => {
        const begin = edge.begin();
        await runAsync(fn, n);
        return edge.end(begin);
      }, { realign, untimed: async (n: number) => (await runAsync(fn, n), realign()) });
    }
    return objectAssign((n: number) => {
      const begin = edge.begin();
      runSync(fn, n);
      return edge.end(begin);
    }, { realign, untimed: (n: number) => (runSync(fn, n), realign()) });
  }
  if (isAsync) {
    return async (n) => {
      const t0 = clock.now();
      await runAsync(fn, n);
      return clock.now() - t0;
    };
  }
  return (n) => {
    const t0 = clock.now();
    runSync(fn, n);
    return clock.now() - t0;
  };
}

/** The stopwatch a self-timed case reads: the clock itself, or an edge-aligned region per start()/stop() on a coarse clock. */
function stopwatchFor(clock: Clock, edgeAligned: boolean): Stopwatch {
  let begin = 0;
  if (edgeAligned) {
    const edge = new EdgeTimer(clock);
    return {
      start() {
        edge.realign();
        begin = edge.begin();
      },
      stop: () => edge.end(begin),
    };
  }
  return {
    start() {
      begin = clock.now();
    },
    stop: () => clock.now() - begin,
  };
}

/**
 * A self-timed batch (TimedFnHooks.timeBatch) read as a batch of n: its
 * regions' time scaled to n operations, so calibration and the per-operation
 * figure work as for any batch even when the case did more or fewer
 * operations than asked (Node core's main() counts its own).
 */
function perRequested(n: number, batch: SelfTimedBatch): number {
  if (!(batch.operations > 0)) throw new Error(`a self-timed batch reported ${String(batch.operations)} operations; it must report more than 0`);
  return (batch.ns * n) / batch.operations;
}

function makeSelfTimer(fn: TimedFn, clock: Clock, info: ClockInfo): BatchTimer {
  const stopwatch = stopwatchFor(clock, info.edgeAligned);
  return (n: number) => {
    const batch = fn.timeBatch!(n, stopwatch);
    return batch instanceof Promise ? batch.then((b) => perRequested(n, b)) : perRequested(n, batch);
  };
}

/** Target sample length: long against the clock's step, short enough for many samples. */
function sampleTargetNs(info: ClockInfo, options: MeasureOptions): number {
  if (options.sampleMs > 0) return options.sampleMs * 1e6;
  // Edge-aligned samples: 2 ticks, long enough that the interpolated part is a
  // small share, short enough to fit between preemptions so the median can
  // reject the ones that do not (runners/workerd/README.md). Fine clocks: 1000
  // steps or 1 ms.
  return info.edgeAligned ? 2 * info.resolutionNs : max(1000 * info.resolutionNs, 1e6);
}

/**
 * The median of three batches of n. Sizing n from one batch let a single
 * preemption or JIT pause (which adds time) set n orders of magnitude too
 * small, and one interpolation glitch of an edge-aligned timer (which can
 * subtract) make it explode; the median of three ignores either.
 */
async function steadyTime(time: BatchTimer, n: number): Promise<number> {
  return medianOfThree(await threeBatches(time, n));
}

async function threeBatches(time: BatchTimer, n: number): Promise<[number, number, number]> {
  const a = await time(n);
  const b = await time(n);
  const c = await time(n);
  return [a, b, c];
}

// By index, not destructuring: case code may have replaced Array's iterator.
function medianOfThree(batches: readonly [number, number, number]): number {
  const a = batches[0];
  const b = batches[1];
  return max(min(a, b), min(max(a, b), batches[2]));
}

/** A larger n towards a batch of ~target ns, at most 10x at a time (a batch below the timer's reach says little). */
function grow(n: number, ns: number, target: number): number {
  if (!(ns > target / 100)) return n * 10;
  return min(n * 10, max(n + 1, round((n * target) / ns)));
}

/**
 * A warmed, calibrated case: takes one sample at a time. The in-process loop
 * (measure) takes its samples back to back; a lockstep job (execute.ts)
 * takes one whenever the host asks, so samples of different processes
 * interleave.
 */
export interface Sampler {
  iterationsPerSample: number;
  warmupIterations: number;
  /** The first warmup as watched, under a steady rule (MeasureOptions.steady). */
  warmup?: WarmupSeries;
  /** How long its samples span the case's periodic costs (MeasureOptions.amortize). */
  span?: SampleSpan;
  /**
   * The expected length of one sample, in ns: the fastest warmup batch of n
   * since n last changed (the last batch when there was none). Not the last
   * batch alone: on a loaded machine it may have been preempted, and the host
   * sizes a set's turns from this (fewer turns for a longer sample).
   */
  batchNs: number;
  /**
   * One sample: ns per iteration, and when it started (ms since the clock's
   * origin, rounded to µs). `preBatch` first runs an untimed run-up (run-up.ts, recorded in the span):
   * after the process sat idle while others sampled, its caches are cold,
   * and that first stretch of work is slower than the rest (measured:
   * docs/lockstep.md).
   */
  sample(preBatch: boolean): Promise<{ ns: number; startMs: number }>;
  /**
   * Warms the case again after other cases ran in this process (a kept case
   * opened again: wire.ts KEEP_COMMAND): batches of the calibrated size
   * for REWARM_MS, at least REWARM_BATCHES. Returns the calls it made.
   */
  rewarm(): Promise<number>;
}

/**
 * A kept case's rewarm: batches of its calibrated size until the fastest has
 * not improved by 2% for REWARM_MS (at least REWARM_BATCHES, at most the
 * warmup's cap). The first visit's full warmup (with its tier-up floor) is
 * not repeated. Measured against the first visit: docs/lockstep.md,
 * "Several sets per process".
 */
const REWARM_MS = 10;
const REWARM_BATCHES = 2;


/**
 * Calls the harness floor's empty case gets before its warmup may end
 * (harnessFloor). V8 moves a function from its mid tier (Maglev) to its top
 * tier (Turbofan) by calls, not by time (docs/measurements/harness-figures.md,
 * "Tier-up by calls"); a case's own horizon is its engine's, in its steady
 * rule (steady-state.ts, MeasureOptions.steady).
 */
export const TIER_UP_CALLS = 30_000;

/**
 * Calibration and warmup, then a Sampler. Calibration doubles as warmup:
 * grow n until a batch fills ~the target. With options.steady (what the
 * timing measurers send: docs/warmup.md) warmup then watches the batches
 * until they are steady (watchedWarmup); without it (a job that names no
 * rule) it runs batches for options.warmupMs. `young` reads the engine's
 * young generation where it can say (MetricsProbe.youngGeneration): read
 * before the warmup and after it, it gives the case's calls per collection
 * cycle, which the span starts from (amortize.ts cycleFloor).
 */
export async function warmUp(fn: TimedFn, isAsync: boolean, clock: Clock, info: ClockInfo, options: MeasureOptions, young?: () => YoungGeneration | undefined): Promise<Sampler> {
  const time = makeBatchTimer(fn, isAsync, clock, info);
  const target = sampleTargetNs(info, options);
  const youngBefore = young?.();
  const cycleCalls = (calls: number): number => cycleCallsOf(youngBefore, young?.(), calls);
  const started = clock.now();
  const warmupEnd = started + options.warmupMs * 1e6;
  let warmupIterations = 0;

  const watch = options.steady ? new WarmupWatch(options.steady) : undefined;
  let n = 1;
  let batchNs = 0;
  // The last calibration step's three batches, when they were of the size the warmup goes on with.
  let carried: { nsPerCall: number[]; callsPerBatch: number } | undefined;
  for (;;) {
    const batches = await threeBatches(time, n);
    const ns = medianOfThree(batches);
    warmupIterations += 3 * n;
    watch?.add(ns / n, warmupIterations, (clock.now() - started) / 1e6);
    if (ns >= target / 2 || n >= 2 ** 30) {
      if (ns > 0) {
        const sized = max(1, round((n * target) / ns));
        if (sized === n) carried = { nsPerCall: [batches[0] / n, batches[1] / n, batches[2] / n], callsPerBatch: n };
        batchNs = (ns * sized) / n;
        n = sized;
      }
      break;
    }
    n = grow(n, ns, target);
  }
  if (watch) {
    // A case of milliseconds a call is calibrated at once, on batches of one call: those three count towards the watch's first window.
    watch.calibrated(warmupIterations, carried);
    return watchedWarmup(time, clock, options, options.steady!, watch, { started, n, batchNs, warmupIterations, target }, fn.betweenSamples, cycleCalls);
  }
  // A fixed warmup: options.warmupMs, and then until the fastest of three batches of the size it samples with fills
  // half the target (a pause only adds time: a process starved while it calibrated, as when a set's processes start
  // together on a loaded machine, read two of three batches long and sized them hundreds of times too small). On a
  // coarse clock, batches too small read 0 (docs/warmup.md). Calibration's last three batches are not run again when
  // they were of that size and the fastest of them filled half the target (a case of a millisecond or more a call).
  let best = Infinity;
  let sized = carried !== undefined && min(carried.nsPerCall[0]!, carried.nsPerCall[1]!, carried.nsPerCall[2]!) * n >= target / 2;
  while (!sized || clock.now() < warmupEnd) {
    const batches = await threeBatches(time, n);
    const ns = medianOfThree(batches);
    const fastest = min(batches[0], batches[1], batches[2]);
    warmupIterations += 3 * n;
    best = min(best, ns);
    batchNs = ns;
    // Re-tune during warmup: the JIT may have made the case much faster.
    sized = !(fastest < target / 2) || n >= 2 ** 30;
    if (!sized) {
      n = grow(n, fastest, target);
      best = Infinity;
    }
  }
  if (best < batchNs) batchNs = best;
  return spannedSampler(time, clock, options, { n, batchNs, warmupIterations, target }, fn.betweenSamples, cycleCalls);
}

/**
 * Warmup under a steady rule: batches of the calibrated size until the
 * watch finds the last two windows one level past the engine's horizons
 * (steady-state.ts), or until the rule's maximum (no steady state: sampled
 * anyway, and the series says so).
 */
async function watchedWarmup(
  time: BatchTimer,
  clock: Clock,
  options: MeasureOptions,
  rule: SteadyRule,
  watch: WarmupWatch,
  from: { started: number; n: number; batchNs: number; warmupIterations: number; target: number },
  between: (() => void) | undefined,
  cycleCalls: (calls: number) => number,
): Promise<Sampler> {
  let { n, batchNs, warmupIterations } = from;
  const { started, target } = from;
  let fastestCallNs = batchNs / n;
  for (;;) {
    const elapsedMs = (clock.now() - started) / 1e6;
    if (elapsedMs >= rule.maxMs) break;
    if (watch.steady(elapsedMs, warmupIterations, fastestCallNs)) {
      batchNs = watch.fastestRecent() * n;
      break;
    }
    const ns = await time(n);
    warmupIterations += n;
    watch.add(ns / n, warmupIterations, (clock.now() - started) / 1e6);
    batchNs = ns;
    if (ns / n < fastestCallNs) fastestCallNs = ns / n;
    // Re-tune: the JIT may have made the case much faster; the test compares batches of one size.
    if (ns < target / 2) {
      n = grow(n, ns, target);
      watch.resized();
    }
  }
  return spannedSampler(time, clock, options, { n, batchNs, warmupIterations, warmup: watch.series(), target, recent: watch.recentBatches() }, between, cycleCalls);
}

/**
 * The sampler once warm, its batch grown to span the case's periodic costs
 * when the job asks (MeasureOptions.amortize; not when it fixed the sample's
 * length): the span's batches count as warmup calls.
 */
async function spannedSampler(
  time: BatchTimer,
  clock: Clock,
  options: MeasureOptions,
  warmed: { n: number; batchNs: number; warmupIterations: number; warmup?: WarmupSeries; target: number; recent?: readonly number[] },
  between: (() => void) | undefined,
  cycleCalls: (calls: number) => number,
): Promise<Sampler> {
  const { target, recent, ...rest } = warmed;
  if (!options.amortize || options.sampleMs > 0 || !(warmed.batchNs > 0)) return samplerOf(time, clock, options, rest, between);
  // The watched warmup's last batches, of the size it ends with, are the span's first window: a case that allocates nothing pays no more.
  const cycle = cycleCalls(warmed.warmupIterations);
  const spanned = await spanPeriodicCosts((size, batches) => spanWindow(time, size, batches), warmed.n, warmed.batchNs, target, recent, cycle);
  // The cycle in whole calls (a short record; under a call still says the case allocates).
  const span: SampleSpan = { ...spanned.span, ...(cycle > 0 ? { cycleCalls: max(1, round(cycle)) } : {}) };
  // Samples raised to the floor (amortize.ts SAMPLE_FLOOR_MS), at the span's rate per call.
  const floorNs = (options.sampleFloorMs ?? 0) * 1e6;
  const n = floorNs > 0 ? flooredCalls(spanned.n, spanned.batchNs, floorNs) : spanned.n;
  const batchNs = (spanned.batchNs * n) / spanned.n;
  if (n > spanned.n) span.flooredBy = n / spanned.n;
  // Each lockstep sample's run-up, decided once (run-up.ts): at least the time asked (--run-up) at the sample's rate.
  const asked = options.runUpMs !== undefined ? { ns: options.runUpMs * 1e6, callNs: batchNs / n } : undefined;
  span.runUpCalls = runUpCalls(n, span, asked);
  // The series says its batches were shorter than the samples: its level is not held against theirs (stats classifyProcess).
  const samplesGrown = n / warmed.n;
  const warmup = rest.warmup && samplesGrown > 1 ? { ...rest.warmup, samplesGrown } : rest.warmup;
  return samplerOf(time, clock, options, { ...rest, ...(warmup ? { warmup } : {}), n, batchNs, warmupIterations: warmed.warmupIterations + spanned.calls, span }, between);
}

/** One window of the span (amortize.ts): `batches` batches of `size` calls, in ns per call. */
async function spanWindow(time: BatchTimer, size: number, batches: number): Promise<number[]> {
  const perCall: number[] = [];
  for (let i = 0; i < batches; i++) perCall[i] = (await time(size)) / size;
  return perCall;
}

/** The sampler of a warmed, calibrated case. */
function samplerOf(
  time: BatchTimer,
  clock: Clock,
  options: MeasureOptions,
  warmed: { n: number; batchNs: number; warmupIterations: number; warmup?: WarmupSeries; span?: SampleSpan },
  between: (() => void) | undefined,
): Sampler {
  const { n, batchNs, warmupIterations } = warmed;
  // Untimed work between samples (TimedFnHooks.betweenSamples); the edge-aligned timer then waits for a fresh edge.
  const preBatchN = lockstepPreBatch(n, batchNs, warmed.span);
  return {
    iterationsPerSample: n,
    warmupIterations,
    ...(warmed.warmup ? { warmup: warmed.warmup } : {}),
    ...(warmed.span ? { span: warmed.span } : {}),
    batchNs,
    async sample(preBatch) {
      if (between) between();
      // An edge-aligned timer ends the pre-batch on a fresh edge and the timed batch starts there (waiting for another
      // edge would cost a whole tick per sample).
      if (preBatch && preBatchN) await (time.untimed ? time.untimed(preBatchN) : time(preBatchN));
      // Without a pre-batch, after sitting idle (lockstep) or untimed work, an edge-aligned timer waits for a fresh
      // edge: otherwise the idle stretch since its last edge would count as part of the batch.
      else if (between || preBatch) time.realign?.();
      // Microseconds are plenty for a time series of ~1 ms samples; rounding keeps the JSON short.
      const startMs = round(clock.now() / 1e3) / 1e3;
      return { ns: (await time(n)) / n, startMs };
    },
    async rewarm() {
      // Until the fastest batch has not improved by 2% for REWARM_MS (an engine may have dropped the case's
      // optimized code while other cases ran, and tiers it up again here), at most the warmup's cap.
      const start = clock.now();
      const cap = start + options.warmupMs * 1e6;
      let calls = 0;
      let fastest = Infinity;
      let improvedAt = start;
      for (let batches = 0; ; batches++) {
        const now = clock.now();
        if (now >= cap || (batches >= REWARM_BATCHES && now - improvedAt >= REWARM_MS * 1e6)) break;
        const ns = await time(n);
        calls += n;
        if (ns < fastest * 0.98) {
          fastest = ns;
          improvedAt = clock.now();
        }
      }
      return calls;
    },
  };
}

/** Batches the floor is read from, once warm: the second fastest of them. */
const FLOOR_BATCHES = 9;
/**
 * The floor is warm once it has made TIER_UP_CALLS calls and its fastest
 * batch has not improved by 2% for FLOOR_QUIET_BATCHES batches and
 * FLOOR_QUIET_MS, or after FLOOR_MAX_WARM_MS.
 */
const FLOOR_QUIET_BATCHES = 4;
const FLOOR_QUIET_MS = 5;
const FLOOR_MAX_WARM_MS = 500;
/** Calls in the floor's first batch: an empty call is cheap even before the JIT (a coarse clock starts nearer a tick's worth). */
const FLOOR_FIRST_BATCH = 1_000;
const FLOOR_FIRST_BATCH_COARSE = 100_000;
/** The most calls in one of its batches: 4 M empty calls take over 1 ms on any runtime (a clock that does not see them, like a test's virtual clock, would grow the batch for ever). */
const FLOOR_MAX_BATCH = 2 ** 22;
/** The most batches its warmup takes, whatever the clock says. */
const FLOOR_MAX_WARM_BATCHES = 200;

/**
 * A case whose fastest sample is slower than this per call takes no floor:
 * the floor is about a ns on every runtime (docs/writing-a-suite.md, "A case
 * without work"), so such a case is far above any small factor of it, and the
 * processes that serve only such cases pay nothing for it.
 */
export const FLOOR_CASES_BELOW_NS = 100;

/**
 * The harness's own cost per call in this process: an empty case timed by a
 * copy of the batch loop every case is timed by, calibrated and warmed as a
 * case is, then the second fastest of FLOOR_BATCHES batches: preemption only
 * adds time, and the second, not the first, so that one misread edge of a
 * coarse clock is not the floor. On a coarse clock the timer goes on from
 * the read rates the case's timers measured (clock.ts EdgeTimer). A case
 * near it did no work the loop could see (docs/writing-a-suite.md, "A case
 * without work").
 */
export async function harnessFloor(clock: Clock, info: ClockInfo): Promise<number> {
  const time = makeTimer(FLOOR_CASE, false, clock, info, FLOOR_LOOP, runAsync, () => new EdgeTimer(clock, 4, 1));
  const target = info.edgeAligned ? 2 * info.resolutionNs : max(200 * info.resolutionNs, 2e5);
  let n = info.edgeAligned ? FLOOR_FIRST_BATCH_COARSE : FLOOR_FIRST_BATCH;
  for (;;) {
    const ns = await steadyTime(time, n);
    // A clock that does not see the largest batch sees no call: its floor is what it read.
    if (n >= FLOOR_MAX_BATCH && !(ns > target / 100)) return ns / n;
    if (ns >= target / 2 || n >= FLOOR_MAX_BATCH) {
      if (ns > 0) n = min(FLOOR_MAX_BATCH, max(1, round((n * target) / ns)));
      break;
    }
    n = min(FLOOR_MAX_BATCH, grow(n, ns, target));
  }
  const warmEnd = clock.now() + FLOOR_MAX_WARM_MS * 1e6;
  let calls = 0;
  let fastest = Infinity;
  let quiet = 0;
  let improvedAt = clock.now();
  for (let batch = 0; batch < FLOOR_MAX_WARM_BATCHES; batch++) {
    const now = clock.now();
    if (now >= warmEnd || (calls >= TIER_UP_CALLS && quiet >= FLOOR_QUIET_BATCHES && now - improvedAt >= FLOOR_QUIET_MS * 1e6)) break;
    const ns = await time(n);
    calls += n;
    // Re-tuned as a case's warmup is: the JIT, or a coarse clock's first readings, left the batch short.
    if (ns < target / 2 && n < FLOOR_MAX_BATCH) {
      n = min(FLOOR_MAX_BATCH, grow(n, ns, target));
      fastest = Infinity;
    }
    if (ns < fastest * 0.98) {
      fastest = ns;
      quiet = 0;
      improvedAt = clock.now();
    } else quiet++;
  }
  // Sorted by insertion with index stores: case code may have replaced Array.prototype's methods.
  const perCall: number[] = [];
  for (let b = 0; b < FLOOR_BATCHES; b++) {
    const x = (await time(n)) / n;
    let j = perCall.length;
    while (j > 0 && perCall[j - 1]! > x) {
      perCall[j] = perCall[j - 1]!;
      j--;
    }
    perCall[j] = x;
  }
  return perCall[1]!;
}

/**
 * Warmup + calibration + sampling back to back in one process. `fn` has
 * already been called once (for the digest), which is how `isAsync` is known.
 */
export async function measure(
  fn: TimedFn,
  isAsync: boolean,
  clock: Clock,
  info: ClockInfo,
  options: MeasureOptions,
  /** Runs between warmup and the first sample (e.g. to read GC counters). */
  beforeSampling?: () => void | Promise<void>,
  young?: () => YoungGeneration | undefined,
): Promise<Measurement> {
  const sampler = await warmUp(fn, isAsync, clock, info, options, young);
  await beforeSampling?.();
  const samples: number[] = [];
  const sampleStartMs: number[] = [];
  const end = clock.now() + options.timeMs * 1e6;
  for (;;) {
    const now = clock.now();
    if (!((now < end || samples.length < options.minSamples) && samples.length < options.maxSamples)) break;
    const { ns, startMs } = await sampler.sample(false);
    // Index stores, not push: a case may have replaced Array.prototype.push.
    sampleStartMs[sampleStartMs.length] = startMs;
    samples[samples.length] = ns;
  }
  return { samples, sampleStartMs, iterationsPerSample: sampler.iterationsPerSample, warmupIterations: sampler.warmupIterations, ...(sampler.warmup ? { warmup: sampler.warmup } : {}), ...(sampler.span ? { span: sampler.span } : {}), async: isAsync };
}

/**
 * Exactly `iterations` calls, timed as one batch (a fixed-iteration job:
 * MeasureOptions.fixedIterations). Nothing here reads the clock in a loop or
 * decides by time, so two processes given the same count do the same work.
 */
export async function measureFixed(fn: TimedFn, isAsync: boolean, clock: Clock, iterations: number): Promise<Measurement> {
  if (typeof fn.timeBatch === 'function') {
    const t0 = clock.now();
    const ns = iterations > 0 ? perRequested(iterations, await fn.timeBatch(iterations, stopwatchFor(clock, false))) / iterations : 0;
    return { samples: [ns], sampleStartMs: [round(t0 / 1e3) / 1e3], iterationsPerSample: max(1, iterations), warmupIterations: 0, async: isAsync };
  }
  const run = typeof fn.runBatch === 'function' ? (isAsync ? runOwnAsync : runOwnSync) : isAsync ? runAsync : runSync;
  // Counted with the calls when the job counts instructions: nothing in a process is outside a count.
  if (iterations > 0 && typeof fn.beforeBatch === 'function') fn.beforeBatch(iterations);
  const t0 = clock.now();
  if (iterations > 0) await run(fn, iterations);
  const ns = clock.now() - t0;
  return { samples: [iterations > 0 ? ns / iterations : 0], sampleStartMs: [round(t0 / 1e3) / 1e3], iterationsPerSample: max(1, iterations), warmupIterations: 0, async: isAsync };
}
