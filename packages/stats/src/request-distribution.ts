/**
 * The distribution of CPU per request over processes: quantiles of the
 * pooled warm requests (each process's requests from where its figure
 * begins: its steady point, or by default after its first), the
 * first request of a fresh process, and the share of warm requests over a
 * CPU limit, each with a percentile-bootstrap interval whose unit is the
 * process. Requests served by one process share its JIT state, heap and
 * neighbours, so they are not independent: a resample draws whole
 * processes with replacement and pools their requests.
 */
import { percentileInterval } from './bootstrap.ts';
import { median, medianInPlace, quantileSorted } from './quantile.ts';
import { createRandom } from './random.ts';

/** The quantiles a distribution reports, by name. */
export const REQUEST_QUANTILES = [
  { name: 'p50', q: 0.5 },
  { name: 'p90', q: 0.9 },
  { name: 'p99', q: 0.99 },
  { name: 'p99.9', q: 0.999 },
  { name: 'max', q: 1 },
] as const;
export type RequestQuantileName = (typeof REQUEST_QUANTILES)[number]['name'];

export interface Estimate {
  value: number;
  /** The percentile-bootstrap interval over processes; absent with fewer than MIN_PROCESSES. */
  ci?: [number, number];
}

export interface RequestDistribution {
  processes: number;
  /** Warm requests pooled (each process's after its first). */
  requests: number;
  quantiles: Record<RequestQuantileName, Estimate>;
  /** The median over processes of each one's first request. */
  first: Estimate;
  /** With a limit: the share of warm requests above it, and how many were. */
  overLimit?: Estimate & { count: number };
  confidence: number;
}

/** Fewer processes than this give no interval (a bootstrap over two processes says nothing). */
export const MIN_PROCESSES = 3;
const RESAMPLES = 2000;

/** The warm requests of `processes` (each one's after its first), pooled and sorted. */
function pooledSorted(processes: readonly Float64Array[]): Float64Array {
  const pooled = new Float64Array(processes.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of processes) {
    pooled.set(p, at);
    at += p.length;
  }
  return pooled.sort();
}

function overShare(processes: readonly Float64Array[], limit: number): { share: number; count: number } {
  let count = 0;
  let total = 0;
  for (const p of processes) {
    total += p.length;
    for (const ms of p) if (ms > limit) count++;
  }
  return { share: total ? count / total : 0, count };
}

/**
 * Every warm request of `processes` in ascending order, each with its
 * process's index: sorted once, so that a resample's pooled order is this
 * order with each request counted as often as its process was drawn.
 */
function ordered(processes: readonly Float64Array[]): { values: Float64Array; owner: Int32Array } {
  const owners = processes.flatMap((p, j) => Array.from(p, () => j));
  const pooled = processes.flatMap((p) => Array.from(p));
  const order = pooled.map((_, i) => i).sort((x, y) => pooled[x]! - pooled[y]!);
  return { values: Float64Array.from(order, (i) => pooled[i]!), owner: Int32Array.from(order, (i) => owners[i]!) };
}

/**
 * The type-7 quantiles `qs` (ascending) into `out`, of the pool in which
 * each request of process j counts `times[j]` times (`total` requests):
 * the values a sort of that pool would hold at the ranks each quantile
 * reads. Walked down from the largest, since the quantiles read are the
 * upper half.
 */
function weightedQuantiles(all: { values: Float64Array; owner: Int32Array }, times: Int32Array, total: number, qs: readonly number[], out: Float64Array): void {
  // Element i of the order covers the pool's ranks [start, start + its count).
  let i = all.values.length;
  let start = total;
  const count = (at: number): number => times[all.owner[at]!]!;
  const valueAt = (rank: number): number => {
    // Stryker disable next-line EqualityOperator: one element too far down, the next loop walks back up to it
    while (start > rank) start -= count(--i);
    while (start + count(i) <= rank) start += count(i++);
    return all.values[i]!;
  };
  // Stryker disable next-line ArithmeticOperator: a k past the end reads no quantile and writes past the typed array, which drops it
  for (let k = qs.length - 1; k >= 0; k--) {
    const h = (total - 1) * qs[k]!;
    const lo = Math.floor(h);
    const frac = h - lo;
    // At q = 1 there is no rank past the last to interpolate towards.
    if (frac === 0) {
      out[k] = valueAt(lo);
      continue;
    }
    const next = valueAt(lo + 1);
    const a = valueAt(lo);
    out[k] = a + frac * (next - a);
  }
}

/**
 * `processes`: per process, its requests' CPU in order (the first is the
 * process's first request). `limit`: the CPU limit, same unit. `seed`
 * makes the bootstrap repeatable. `from`: per process, where the pooled
 * requests begin (absent: after the first).
 */
export function requestDistribution(processes: readonly (readonly number[])[], options: { limit?: number; confidence?: number; seed?: number; from?: readonly number[] } = {}): RequestDistribution {
  const confidence = options.confidence ?? 0.95;
  // `from`: per process, the index its pooled requests begin at (at least 1: the first request is its own figure).
  const starts = processes.map((_, i) => Math.max(1, options.from?.[i] ?? 1));
  const served = processes.flatMap((p, i) => (p.length > starts[i]! ? [{ p, from: starts[i]! }] : []));
  if (served.length === 0) throw new RangeError('requestDistribution: no process served more than one request');
  const used = served.map(({ p, from }) => ({ first: p[0]!, warm: Float64Array.from(p.slice(from)) }));
  const sorted = pooledSorted(used.map((p) => p.warm));
  const firsts = used.map((p) => p.first);
  const limit = options.limit;
  const point = {
    quantiles: REQUEST_QUANTILES.map((x) => quantileSorted(sorted, x.q)),
    first: median(firsts),
    over: limit === undefined ? undefined : overShare(used.map((p) => p.warm), limit),
  };
  const withCi = used.length >= MIN_PROCESSES;
  const draws = { quantiles: REQUEST_QUANTILES.map(() => new Float64Array(RESAMPLES)), first: new Float64Array(RESAMPLES), over: new Float64Array(RESAMPLES) };
  if (withCi) {
    const random = createRandom(options.seed ?? 1);
    const pick = (n: number): number => Math.min(n - 1, Math.floor(random() * n));
    // A resample is how often each process was drawn: its pool is walked in the order sorted once, not sorted again.
    const all = ordered(used.map((p) => p.warm));
    // Without a limit nothing is over it: the share is counted all the same, and not reported.
    const over = used.map((p) => overShare([p.warm], limit ?? Infinity).count);
    const qs = REQUEST_QUANTILES.map((x) => x.q);
    const times = new Int32Array(used.length);
    const drawnFirsts = new Float64Array(used.length);
    const figures = new Float64Array(qs.length);
    // Stryker disable next-line EqualityOperator: one more resample is written past the end of the typed arrays, which drops it
    for (let b = 0; b < RESAMPLES; b++) {
      times.fill(0);
      for (let i = 0; i < used.length; i++) {
        const j = pick(used.length);
        times[j]!++;
        drawnFirsts[i] = used[j]!.first;
      }
      let total = 0;
      let overCount = 0;
      for (let j = 0; j < used.length; j++) {
        total += times[j]! * used[j]!.warm.length;
        overCount += times[j]! * over[j]!;
      }
      weightedQuantiles(all, times, total, qs, figures);
      figures.forEach((v, i) => (draws.quantiles[i]![b] = v));
      draws.first[b] = medianInPlace(drawnFirsts, drawnFirsts.length);
      draws.over[b] = overCount / total;
    }
  }
  const estimate = (value: number, values: Float64Array): Estimate => (withCi ? { value, ci: percentileInterval(values, confidence) } : { value });
  const quantiles = Object.fromEntries(REQUEST_QUANTILES.map((x, i) => [x.name, estimate(point.quantiles[i]!, draws.quantiles[i]!)])) as Record<RequestQuantileName, Estimate>;
  return {
    processes: used.length,
    requests: sorted.length,
    quantiles,
    first: estimate(point.first, draws.first),
    ...(point.over ? { overLimit: { ...estimate(point.over.share, draws.over), count: point.over.count } } : {}),
    confidence,
  };
}

/** A handler's CPU per request net of the server's own: its quantiles less the empty handler's median, each with an interval over processes. */
export interface NetDistribution {
  processes: number;
  p50: Estimate;
  p99: Estimate;
  /** The empty handler's median: the server's own cost per request, taken off. */
  server: Estimate;
  confidence: number;
}

/**
 * `handler[i]` and `empty[i]`: the requests one process served to the
 * handler and to the empty handler beside it (the same process, so a
 * resample draws them together). Each request of the handler is read as
 * its CPU less the server's typical own cost (the empty handler's pooled
 * median): a shift, so the net quantiles are the handler's less that median.
 * `from`: per process, where the handler's pooled requests begin (absent:
 * after the first); the empty handler's are pooled after its first.
 */
export function netDistribution(handler: readonly (readonly number[])[], empty: readonly (readonly number[])[], options: { confidence?: number; seed?: number; from?: readonly number[] } = {}): NetDistribution {
  if (handler.length !== empty.length) throw new RangeError(`netDistribution: ${handler.length} handler processes but ${empty.length} with the empty handler`);
  const confidence = options.confidence ?? 0.95;
  const used = handler.flatMap((p, i) => {
    const from = Math.max(1, options.from?.[i] ?? 1);
    return p.length > from && empty[i]!.length > 1 ? [{ handler: Float64Array.from(p.slice(from)), empty: Float64Array.from(empty[i]!.slice(1)) }] : [];
  });
  if (used.length === 0) throw new RangeError('netDistribution: no process served more than one request to both handlers');
  const handlerPool = pooledSorted(used.map((p) => p.handler));
  const server = quantileSorted(pooledSorted(used.map((p) => p.empty)), 0.5);
  const point = { p50: quantileSorted(handlerPool, 0.5) - server, p99: quantileSorted(handlerPool, 0.99) - server, server };
  if (used.length < MIN_PROCESSES) return { processes: used.length, p50: { value: point.p50 }, p99: { value: point.p99 }, server: { value: server }, confidence };
  const random = createRandom(options.seed ?? 1);
  const pick = (n: number): number => Math.min(n - 1, Math.floor(random() * n));
  const handlerOrder = ordered(used.map((p) => p.handler));
  const emptyOrder = ordered(used.map((p) => p.empty));
  const times = new Int32Array(used.length);
  const quantiles = new Float64Array(2);
  const serverMedian = new Float64Array(1);
  const draws = { p50: new Float64Array(RESAMPLES), p99: new Float64Array(RESAMPLES), server: new Float64Array(RESAMPLES) };
  for (let b = 0; b < RESAMPLES; b++) {
    times.fill(0);
    for (let i = 0; i < used.length; i++) times[pick(used.length)]!++;
    let handlerTotal = 0;
    let emptyTotal = 0;
    for (let j = 0; j < used.length; j++) {
      handlerTotal += times[j]! * used[j]!.handler.length;
      emptyTotal += times[j]! * used[j]!.empty.length;
    }
    weightedQuantiles(handlerOrder, times, handlerTotal, [0.5, 0.99], quantiles);
    weightedQuantiles(emptyOrder, times, emptyTotal, [0.5], serverMedian);
    draws.p50[b] = quantiles[0]! - serverMedian[0]!;
    draws.p99[b] = quantiles[1]! - serverMedian[0]!;
    draws.server[b] = serverMedian[0]!;
  }
  const estimate = (value: number, values: Float64Array): Estimate => ({ value, ci: percentileInterval(values, confidence) });
  return { processes: used.length, p50: estimate(point.p50, draws.p50), p99: estimate(point.p99, draws.p99), server: estimate(server, draws.server), confidence };
}
