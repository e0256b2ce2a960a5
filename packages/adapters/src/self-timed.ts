/**
 * The timed region of a file that times itself: Node core's
 * `bench.start()`/`bench.end(operations)`, node:bench's `b.start()`/
 * `b.end(operations)` and `b.record()`, Deno's `b.start()`/`b.end()`. The
 * region is read on the harness's stopwatch (TimedFnHooks.timeBatch), so a
 * coarse clock is edge-aligned here too; a batch sums its regions.
 */
import type { SelfTimedBatch, Stopwatch } from '@rtbench/core/suite';

/** The stopwatch of a call the harness makes outside a batch (the digest's first call): its time is not used. */
const untimed: Stopwatch = {
  start() {},
  stop: () => 0,
};

export class TimedRegion {
  #stopwatch: Stopwatch = untimed;
  #started = false;
  #ended = false;
  ns = 0;
  operations = 0;

  /** Before each call of the file's function: a fresh region read on `stopwatch`. */
  reset(stopwatch: Stopwatch = untimed): void {
    this.#stopwatch = stopwatch;
    this.#started = false;
    this.#ended = false;
    this.ns = 0;
    this.operations = 0;
  }

  get started(): boolean {
    return this.#started;
  }

  get ended(): boolean {
    return this.#ended;
  }

  start(what = 'start()'): void {
    if (this.#started) throw new Error(`${what} was called more than once in one call of the benchmark function`);
    this.#started = true;
    this.#stopwatch.start();
  }

  /** Ends the region (the time is read first, as the harnesses it stands for do) with its operation count. */
  end(operations: number, what = 'end()'): void {
    const ns = this.#stopwatch.stop();
    if (!this.#started) throw new Error(`${what} was called without start()`);
    if (this.#ended) throw new Error(`${what} was called more than once in one call of the benchmark function`);
    if (typeof operations !== 'number' || !(operations > 0) || !Number.isFinite(operations)) throw new Error(`${what} needs a positive operation count (got ${String(operations)})`);
    this.#ended = true;
    this.ns = ns;
    this.operations = operations;
  }

  /** node:bench's record(): a duration measured elsewhere. */
  record(ns: number, operations: number): void {
    if (this.#started || this.#ended) throw new Error('record() cannot be combined with start()/end() or called twice in one call');
    if (!(ns > 0) || !(operations > 0)) throw new Error(`record() needs a positive duration_ns and operation count (got ${String(ns)}, ${String(operations)})`);
    this.#started = this.#ended = true;
    this.ns = ns;
    this.operations = operations;
  }
}

/** Adds one call's region to a batch's totals. */
function addRegion(total: SelfTimedBatch, region: TimedRegion): void {
  total.ns += region.ns;
  total.operations += region.operations;
}

export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * A batch of `calls` calls of a self-timed function, each call's region
 * added to the batch: synchronously while the calls are synchronous, and
 * awaited from the first call that returns a promise on. `call` resets
 * `region` for its call (node:bench's and Deno.bench's adapters share this).
 */
export function sumRegions(calls: number, call: (stopwatch: Stopwatch) => unknown, region: TimedRegion, stopwatch: Stopwatch): SelfTimedBatch | Promise<SelfTimedBatch> {
  return sumRegionsWhile((_sum, done) => done < calls, call, region, stopwatch);
}

/** As sumRegions, calling while `more` (the totals so far, the calls made) says so. */
export function sumRegionsWhile(more: (sum: SelfTimedBatch, calls: number) => boolean, call: (stopwatch: Stopwatch) => unknown, region: TimedRegion, stopwatch: Stopwatch): SelfTimedBatch | Promise<SelfTimedBatch> {
  const sum: SelfTimedBatch = { ns: 0, operations: 0 };
  for (let i = 0; more(sum, i); i++) {
    const pending = call(stopwatch);
    if (isThenable(pending)) {
      return (async () => {
        await pending;
        addRegion(sum, region);
        for (let j = i + 1; more(sum, j); j++) {
          await call(stopwatch);
          addRegion(sum, region);
        }
        return sum;
      })();
    }
    addRegion(sum, region);
  }
  return sum;
}

