/**
 * `Deno.bench(...)`, as `deno bench` files use it, declaring rtbench cases
 * instead of measuring. The bundler rewrites `Deno.bench` in such a file to
 * this module's `bench` (packages/suite-loader/src/bundle.ts), so the file runs on every
 * runtime (other `Deno.*` APIs it uses stay Deno's). A case is one
 * `Deno.bench`, named as `deno bench` names it; a function that never calls
 * `b.start()` is timed whole, one that does is timed between `b.start()` and
 * `b.end()`, one operation per call.
 */
import type { CaseBody, CaseContext, TimedFn } from '@rtbench/core';
import type { SelfTimedBatch, Stopwatch } from '@rtbench/core/suite';
import { declareCase, note, whenLoaded } from './registry.ts';
import { isThenable, sumRegions, TimedRegion } from './self-timed.ts';

type BenchFn = (b: BenchContext) => unknown;

export interface BenchDefinition {
  name?: string;
  fn?: BenchFn;
  group?: string;
  baseline?: boolean;
  ignore?: boolean;
  only?: boolean;
  permissions?: unknown;
  sanitizeExit?: boolean;
  n?: number;
  warmup?: number;
}

interface Declared extends BenchDefinition {
  name: string;
  fn: BenchFn;
}

const declared: Declared[] = [];

/** Deno.bench's forms: (name, fn), (name, options, fn), (fn), (definition), (options, fn). */
export function bench(fn: BenchFn): void;
export function bench(name: string, fn: BenchFn): void;
export function bench(name: string, options: Omit<BenchDefinition, 'name' | 'fn'>, fn: BenchFn): void;
export function bench(definition: BenchDefinition): void;
export function bench(options: Omit<BenchDefinition, 'fn'>, fn: BenchFn): void;
export function bench(...args: unknown[]): void {
  let definition: BenchDefinition = {};
  let fn: unknown;
  const [a, b, c] = args;
  if (typeof a === 'string') {
    definition = { name: a };
    if (typeof b === 'function') fn = b;
    else {
      definition = { ...(b as BenchDefinition), name: a };
      fn = c;
    }
  } else if (typeof a === 'function') {
    fn = a;
    definition = { name: (a as { name?: string }).name };
  } else if (typeof a === 'object' && a !== null) {
    definition = { ...(a as BenchDefinition) };
    fn = typeof b === 'function' ? b : definition.fn;
    if (typeof b === 'function' && !definition.name) definition.name = (b as { name?: string }).name;
  }
  if (typeof fn !== 'function') throw new TypeError('Deno.bench: missing bench function');
  if (!definition.name) throw new TypeError('Deno.bench: the bench function must have a name');
  if (definition.n !== undefined || definition.warmup !== undefined) note("Deno.bench({ n, warmup }) is accepted: rtbench's --time, --rounds and --warmup decide how long each benchmark is measured");
  if (definition.permissions !== undefined) note('Deno.bench({ permissions }) is accepted: rtbench runs deno with no permissions but env, and the other runtimes as they are');
  declared.push({ ...definition, name: definition.name, fn: fn as BenchFn });
}

whenLoaded(() => {
  const anyOnly = declared.some((d) => d.only);
  for (const d of declared) {
    if (d.ignore) {
      note(`ignored: ${d.group ? `${d.group} / ` : ''}${d.name} (ignore: true), as deno bench ignores it`);
      continue;
    }
    if (anyOnly && !d.only) continue;
    declareCase({ format: 'deno-bench', group: d.group, name: d.name, params: {}, idParams: {}, body: bodyFor(d) });
  }
  if (anyOnly) note('only: benchmarks without only: true are left out, as deno bench leaves them out (deno bench then fails the run; rtbench does not)');
  const baselines = declared.filter((d) => d.baseline && !d.ignore);
  if (baselines.length) note(`baseline: ${baselines.map((d) => d.name).join(', ')} marked as the baseline of its group; rtbench compares runtimes (and, with --compare, variants), so its table has no per-group baseline column`);
});

/** Deno's BenchContext: name, origin, and start()/end() for manual timing. */
export class BenchContext {
  readonly name: string;
  readonly origin: string;
  readonly #region: TimedRegion;

  constructor(name: string, region: TimedRegion) {
    this.name = name;
    this.origin = 'rtbench';
    this.#region = region;
  }

  start(): void {
    this.#region.start('b.start()');
  }

  end(): void {
    this.#region.end(1, 'b.end()');
  }
}

function bodyFor(d: Declared): CaseBody {
  return async function* denoBench(_ctx: CaseContext) {
    const region = new TimedRegion();
    const context = new BenchContext(d.name, region);
    // One call decides the form: a function that calls b.start() times itself.
    region.reset();
    const probe = d.fn(context);
    if (isThenable(probe)) await probe;
    if (!region.started) {
      yield () => d.fn(context);
      return;
    }
    yield manualTiming(d, context, region);
  };
}

function manualTiming(d: Declared, context: BenchContext, region: TimedRegion): TimedFn {
  const call = (stopwatch?: Stopwatch): unknown => {
    region.reset(stopwatch);
    const returned = d.fn(context);
    const check = (): void => {
      if (!region.ended) throw new Error(`Deno.bench("${d.name}"): b.start() was called, so b.end() must be called too`);
    };
    if (isThenable(returned)) return Promise.resolve(returned).then(check);
    check();
    return undefined;
  };
  const timeBatch = (n: number, stopwatch: Stopwatch): SelfTimedBatch | Promise<SelfTimedBatch> => sumRegions(n, call, region, stopwatch);
  return Object.assign(() => call(), { timeBatch });
}
