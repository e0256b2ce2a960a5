/**
 * Samples long enough to hold a case's own periodic costs. A ~1 ms sample of
 * code that allocates usually holds no collection, and the few that do are
 * the slow tail: their median leaves out the collector's share, which a
 * program pays on every call, amortized. After the warmup, windows of batches
 * are timed; while their mean and their median differ by more than
 * SPAN_TOLERANCE in two windows running (one preemption seldom hits both)
 * the batch doubles, up to SPAN_CAP_TARGETS times the sample target. Once it holds, a sample's time is the amortized cost and the median
 * over samples still rejects a neighbour's preemption. Where the cap is hit
 * the span says so (`capped`): the host then reads that process by the mean
 * of its samples (docs/how-a-number-is-made.md, "The collector's share").
 * Runs beside case code: captured built-ins, index stores, plain loops.
 */
import { abs, ceil, max, min } from './primordials.ts';
import type { SampleSpan } from './protocol-schema.ts';
import { medianOf } from './steady-state.ts';

/** The mean of a window may differ from its median by this share and the batch still be taken to span the case's periodic costs. */
const SPAN_TOLERANCE = 0.05;
/** A sample grows to at most this many sample targets (8 ms on a fine clock). */
export const SPAN_CAP_TARGETS = 8;
/** A window spans at least this many sample targets of time (16 ms on a fine clock), and holds SPAN_MIN_BATCHES batches at least. */
const SPAN_WINDOW_TARGETS = 16;
const SPAN_MIN_BATCHES = 7;
/**
 * Where the engine says how many of the case's calls fill its young
 * generation, a sample starts at this many such cycles (when they fit under
 * the cap): a sample of about one cycle holds a collection in about half the
 * samples, and their median then reads the samples with one or those
 * without as the share tips, a fifth apart for a case that allocates fast.
 */
export const SPAN_CYCLES = 2;

/**
 * A sample lasts at least this long (ms; the timing measurers send it as
 * MeasureOptions.sampleFloorMs), whatever the span settled on. A lockstep
 * process pays a toll each time it wakes from its wait, whatever its sample
 * then does (the caches and the allocator's free lists the others' heaps
 * evicted, first writes to fresh backing stores): per call, a share that
 * falls as the sample grows. With ~1 ms samples it made an allocating case
 * read up to 1.5 times its long loop on bun and workerd; every sample takes
 * the floor, not only those the span saw collect, since neither engine says
 * what a case allocates and a span of even windows cannot see a toll paid
 * once per turn (docs/how-a-number-is-made.md, "The sample floor"). Long
 * enough to hold several young-generation cycles of an allocating case.
 */
export const SAMPLE_FLOOR_MS = 20;

/**
 * The calls of a sample raised to the floor: `n` calls whose batch takes
 * `batchNs`, scaled up until the batch lasts `floorNs`; `n` where it
 * already does or the clock did not see it.
 */
export function flooredCalls(n: number, batchNs: number, floorNs: number): number {
  return batchNs > 0 ? max(n, ceil((n * floorNs) / batchNs)) : n;
}

/** What the engine says of its young generation (MetricsProbe.youngGeneration): the bytes the program has allocated so far, and the bytes it allocates from one young collection to the next. */
export interface YoungGeneration {
  allocatedBytes: number;
  cycleBytes: number;
}

/**
 * The case's calls per young-generation cycle, from two readings `calls`
 * calls apart (the warmup's), or 0 where the engine cannot say or the case
 * allocated nothing. What the warmup compiled counts as the case's
 * allocation: the estimate errs short, and a cycle read short only grows a
 * sample less than SPAN_CYCLES cycles would.
 */
export function cycleCallsOf(before: YoungGeneration | undefined, after: YoungGeneration | undefined, calls: number): number {
  if (!before || !after) return 0;
  // No calls: a cost per call of Infinity or NaN, and no cycle.
  const perCall = (after.allocatedBytes - before.allocatedBytes) / calls;
  return perCall > 0 ? after.cycleBytes / perCall : 0;
}

/**
 * The batch a span starts at: `n` doubled until it holds SPAN_CYCLES
 * cycles of `cycleCalls` calls, where those cycles fit under the cap
 * (`capNs`, at `callNs` a call); `n` otherwise. A case whose cycle is
 * longer than a sample can be keeps its calibrated batch and the windows'
 * test alone.
 */
export function cycleFloor(n: number, callNs: number, cycleCalls: number, capNs: number): number {
  const calls = SPAN_CYCLES * cycleCalls;
  if (calls * callNs > capNs) return n;
  let size = n;
  while (size < calls) size *= 2;
  return size > n && size * callNs > capNs ? size / 2 : size;
}

/**
 * Whether the span saw the case's own periodic costs: it grew the batch, or
 * stopped at the cap with its windows still uneven. Such a case's lockstep
 * sample follows an untimed whole batch rather than a quarter one
 * (run-up.ts runUpCalls): after a wait the engine's helper threads
 * have caught up with what the case left (freeing, sweeping), and the first
 * of its collection cycles costs the main thread less than the ones a long
 * loop runs back to back; one batch that spans a cycle puts the sample where
 * a long loop is (docs/how-a-number-is-made.md, "Against a long loop").
 */
export function spansCollections(span: SampleSpan | undefined): span is SampleSpan {
  return span !== undefined && (span.grownBy > 1 || span.capped === true);
}

/** Times `batches` batches of `size` calls each, in ns per call (measure.ts spanWindow: a warmup frame for profiles). */
export type SpanWindow = (size: number, batches: number) => Promise<readonly number[]>;

/** The latest odd number of values (a copy, by index: case code may have replaced Array's methods). */
function lastOdd(values: readonly number[]): number[] {
  const k = values.length & 1 ? values.length : values.length - 1;
  const out: number[] = [];
  for (let i = 0; i < k; i++) out[i] = values[values.length - k + i]!;
  return out;
}

/** The batch size that spans the case's periodic costs, what one batch of it takes (ns), and the span as the result reports it. */
export interface Spanned {
  n: number;
  batchNs: number;
  span: SampleSpan;
  /** Calls the windows made. */
  calls: number;
}

/** A window's median per call, and whether its mean is off it by more than SPAN_TOLERANCE (a median of 0: the clock did not see it, and it judges nothing). */
function judged(perCall: readonly number[]): { median: number; uneven: boolean } {
  const batches = perCall.length;
  let sum = 0;
  for (let i = 0; i < batches; i++) sum += perCall[i]!;
  const median = medianOf(perCall, 0, batches);
  return { median, uneven: median > 0 && abs(sum / batches - median) > median * SPAN_TOLERANCE };
}

/** The cost between collections so far (-1: none yet) and a window's median: the lower, a median the clock did not see (0) taken only first. */
function quieter(quietCallNs: number, median: number): number {
  return quietCallNs < 0 || (median > 0 && median < quietCallNs) ? median : quietCallNs;
}

/**
 * Windows of batches from the calibrated size `n` (whose batch takes about
 * `batchNs`) until their mean is within SPAN_TOLERANCE of their median or the
 * next size would pass the cap. An uneven window is timed again at the same
 * size, and the batch grows only when the second is uneven too: collections
 * recur in every window that spans their period, while a neighbour's
 * preemption, one stretch of time, seldom hits two windows alike.
 * Where the engine says the case's young-generation cycle (`cycleCalls`,
 * cycleCallsOf), the first size holds SPAN_CYCLES of them (cycleFloor).
 * `quietCallNs` is the lowest median per call of the windows: the cost
 * between collections, against which the collector's share is read. The
 * lowest, not the first: a first window preempted, or timed while the engine
 * still tiered the case up, read above the samples and put the share at 0.
 */
export async function spanPeriodicCosts(window: SpanWindow, n: number, batchNs: number, targetNs: number, warmed: readonly number[] = [], cycleCalls = 0): Promise<Spanned> {
  const capNs = SPAN_CAP_TARGETS * targetNs;
  let callNs = batchNs / n;
  let size = cycleFloor(n, callNs, cycleCalls, capNs);
  let quietCallNs = -1;
  let calls = 0;
  // The warmup's last batches, of size n, stand in for the first window when there are enough of them (an odd count, the latest).
  let carried = warmed.length >= SPAN_MIN_BATCHES ? lastOdd(warmed) : undefined;
  if (size > n && carried) {
    // Started past n: the warmup's batches still say what a call costs between collections.
    quietCallNs = quieter(quietCallNs, judged(carried).median);
    carried = undefined;
  }
  const timed = async (): Promise<readonly number[]> => {
    // Odd: the median is one of the batches, so a window half with a collection and half without cannot read its mean.
    const batches = max(SPAN_MIN_BATCHES, min(64, ceil((SPAN_WINDOW_TARGETS * targetNs) / max(1, callNs * size)))) | 1;
    calls += batches * size;
    return window(size, batches);
  };
  for (;;) {
    let w = judged(carried ?? (await timed()));
    carried = undefined;
    quietCallNs = quieter(quietCallNs, w.median);
    if (w.uneven) {
      w = judged(await timed());
      quietCallNs = quieter(quietCallNs, w.median);
    }
    callNs = w.median;
    const span: SampleSpan = { quietCallNs, grownBy: size / n };
    if (!w.uneven) return { n: size, batchNs: w.median * size, span, calls };
    if (w.median * size * 2 > capNs || size >= 2 ** 30) return { n: size, batchNs: w.median * size, span: { ...span, capped: true }, calls };
    size *= 2;
  }
}
