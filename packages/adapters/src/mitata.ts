/**
 * mitata's public surface (v1), as benchmark files use it, declaring rtbench
 * cases instead of measuring. rtbench's bundler resolves `import … from
 * 'mitata'` here. Nothing is measured while the file loads: `run()` resolves
 * at once and rtbench times each case later in its own loop. No code is
 * generated from strings (mitata builds its loop with `new AsyncFunction`,
 * which workerd refuses inside a request).
 */
import type { CaseBody, CaseContext, ParamValue, Params, TimedFn } from '@rtbench/core';
import { exposedCollections } from '@rtbench/core/execute';
import { doNotOptimize } from './keep-alive.ts';
import { declareCase, note, trackPending, whenLoaded } from './registry.ts';

/** A case body in any of mitata's forms; `state` is only passed to the generator and loop forms. */
type AnyFn = (state: State) => unknown;
type GcMode = 'once' | 'inner' | boolean;
type Color = 'red' | 'cyan' | 'white' | 'green' | 'yellow' | 'magenta' | 'blue' | 'black' | 'gray';

/** mitata's `state` argument: `get(name)` and, for the loop form, iteration. */
export interface State {
  get(name: string): any;
  [Symbol.iterator](): Iterator<undefined, void, undefined>;
  [Symbol.asyncIterator](): AsyncIterator<undefined, void, undefined>;
}

export const flags = { compact: 1 << 0, baseline: 1 << 1 } as const;

export function do_not_optimize(value: unknown): void {
  doNotOptimize(value);
}

const GENERATOR_TAGS = new Set(['[object GeneratorFunction]', '[object AsyncGeneratorFunction]']);

/** mitata's three forms: 'yield' (generator setup), 'fn' (no parameters), 'iter' (takes state, owns the loop). */
function formOf(fn: unknown): 'yield' | 'fn' | 'iter' | undefined {
  if (typeof fn !== 'function') return undefined;
  if (GENERATOR_TAGS.has(Object.prototype.toString.call(fn))) return 'yield';
  return fn.length === 0 ? 'fn' : 'iter';
}

// ------------------------------------------------------------ collections

interface Collection {
  name: string | undefined;
}

const collections: Collection[] = [{ name: undefined }];
let currentFlags = 0;
/** Declared and not yet given to run(). */
let unrun: B[] = [];

function current(): Collection {
  return collections[collections.length - 1]!;
}

/** Runs a collection body (sync or async) with `name` as the group of the cases it declares. */
function within(name: string | undefined, f: () => unknown): Promise<void> | void {
  collections.push({ name: name ?? current().name });
  let result: unknown;
  try {
    result = f();
  } catch (error) {
    collections.pop();
    throw error;
  }
  if (!(result instanceof Promise)) {
    collections.pop();
    return;
  }
  const done = result.then(
    () => void collections.pop(),
    (error: unknown) => {
      collections.pop();
      throw error;
    },
  );
  trackPending(done);
  return done;
}

/** mitata 0.1's options form of a group's name: `group({ name, summary }, f)`, still in files written for it. */
interface GroupOptions {
  name?: string;
  summary?: boolean;
}

export function group(name: string | GroupOptions | (() => unknown), f?: () => unknown): any {
  if (typeof name === 'function') return within(undefined, name);
  if (typeof name === 'object' && name !== null) {
    if (name.summary !== undefined) plotNote('summary');
    return within(typeof name.name === 'string' ? name.name : undefined, f ?? (() => {}));
  }
  return within(name, f ?? (() => {}));
}

function plotNote(kind: string): void {
  note(`${kind}() is accepted: its cases run as usual; rtbench prints its own table across runtimes instead of mitata's ${kind === 'summary' ? 'summary between cases' : 'chart'}`);
}

export function summary(f: () => unknown): any {
  plotNote('summary');
  return within(undefined, f);
}
export function barplot(f: () => unknown): any {
  plotNote('barplot');
  return within(undefined, f);
}
export function boxplot(f: () => unknown): any {
  plotNote('boxplot');
  return within(undefined, f);
}
export function lineplot(f: () => unknown): any {
  plotNote('lineplot');
  return within(undefined, f);
}

export function compact(f: () => unknown): any {
  const previous = currentFlags;
  currentFlags |= flags.compact;
  const restore = (): void => {
    currentFlags = previous;
  };
  let result: unknown;
  try {
    result = f();
  } catch (error) {
    restore();
    throw error;
  }
  if (!(result instanceof Promise)) return restore();
  const done = result.then(restore, (error: unknown) => {
    restore();
    throw error;
  });
  trackPending(done);
  return done;
}

// ------------------------------------------------------------ benchmarks

export class B {
  readonly f: AnyFn;
  _name = '';
  /** Keyed by the file's argument names: no prototype, so `.args('__proto__', …)` is a name like any other. */
  _args: Record<string, ParamValue[]> = Object.create(null);
  _gc: GcMode = 'once';
  _group: string | undefined;
  _highlight: Color | false = false;
  flags = currentFlags;

  constructor(name: string, f: AnyFn) {
    if (!formOf(f)) throw new TypeError('expected iterator, generator or one-shot function');
    this.f = f;
    this._name = name;
    this._group = current().name;
  }

  name(name: string, color?: Color | false): this {
    this._name = name;
    return this.highlight(color);
  }

  gc(mode: GcMode = 'once'): this {
    if (![true, false, 'once', 'inner'].includes(mode)) throw new TypeError('invalid gc type');
    this._gc = mode;
    return this;
  }

  highlight(color: Color | false = false): this {
    this._highlight = color || false;
    return this;
  }

  compact(on = true): this {
    this.flags = on ? this.flags | flags.compact : this.flags & ~flags.compact;
    return this;
  }

  baseline(on = true): this {
    if (on) note('.baseline() is accepted: rtbench compares runtimes (and, with --compare, variants), not cases, so no case is marked as the baseline');
    this.flags = on ? this.flags | flags.baseline : this.flags & ~flags.baseline;
    return this;
  }

  /** Powers of `multiplier` from start to end (end included), like mitata. */
  range(name: string, start: number, end: number, multiplier = 8): this {
    const values: number[] = [];
    for (let v = start; v <= end; v *= multiplier) values.push(Math.min(v, end));
    if (!values.includes(end)) values.push(end);
    return this.args(name, values);
  }

  /** start, start + step, … end (end included). */
  dense_range(name: string, start: number, end: number, step = 1): this {
    const values: number[] = [];
    for (let v = start; v <= end; v += step) values.push(v);
    if (!values.includes(end)) values.push(end);
    return this.args(name, values);
  }

  args(values: unknown[] | null): this;
  args(name: string, values: unknown[] | null): this;
  args(map: Record<string, unknown[] | null | undefined>): this;
  args(name: unknown, values?: unknown): this {
    if (name === null) {
      delete this._args.x;
      return this;
    }
    if (Array.isArray(name)) {
      this._args.x = name.map((v) => paramValue(v, 'x'));
      return this;
    }
    if (typeof name === 'string') {
      if (values === null) delete this._args[name];
      else if (Array.isArray(values)) this._args[name] = values.map((v) => paramValue(v, name));
      else throw new TypeError('invalid arguments');
      return this;
    }
    if (typeof name === 'object' && name !== null) {
      for (const [key, v] of Object.entries(name)) {
        if (v == null) delete this._args[key];
        else if (Array.isArray(v)) this._args[key] = v.map((x) => paramValue(x, key));
        else throw new TypeError('invalid arguments map value');
      }
      return this;
    }
    throw new TypeError('invalid arguments');
  }

  /** mitata runs the benchmark here; under rtbench it is declared and timed by the harness, so this resolves to an unmeasured trial. */
  async run(_throw = false): Promise<Trial> {
    commit([this]);
    return trialOf(this);
  }
}

/** rtbench's parameters are strings, numbers and booleans (they go into ids and results files). */
function paramValue(value: unknown, name: string): ParamValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new TypeError(`.args("${name}"): rtbench takes strings, numbers and booleans as argument values (got ${value === null ? 'null' : typeof value}); pass a number or name and build the object in the generator's setup`);
}

export function bench(name: string | AnyFn, f?: AnyFn): B {
  const b = typeof name === 'function' ? new B(name.name || 'anonymous', name) : new B(name, f as AnyFn);
  unrun.push(b);
  return b;
}

// ------------------------------------------------------------ run

/** The statistics mitata would return; under rtbench nothing is measured while the file loads. */
const NOT_MEASURED = Object.freeze({
  debug: 'measured by rtbench in separate processes: see the table rtbench prints',
  kind: 'fn' as const,
  ticks: 0,
  samples: Object.freeze([]) as readonly number[],
  min: NaN,
  max: NaN,
  avg: NaN,
  p25: NaN,
  p50: NaN,
  p75: NaN,
  p99: NaN,
  p999: NaN,
});

export interface Trial {
  alias: string;
  group: string | undefined;
  baseline: boolean;
  args: Record<string, ParamValue[]>;
  kind: 'static' | 'args' | 'multi-args';
  style: { compact: boolean; highlight: Color | false };
  runs: { name: string; args: Params; stats: typeof NOT_MEASURED; error: undefined }[];
}

function trialOf(b: B): Trial {
  const keys = Object.keys(b._args);
  return {
    alias: b._name,
    group: b._group,
    baseline: (b.flags & flags.baseline) !== 0,
    args: b._args,
    kind: keys.length === 0 ? 'static' : keys.length === 1 ? 'args' : 'multi-args',
    style: { compact: (b.flags & flags.compact) !== 0, highlight: b._highlight },
    runs: combinations(b._args).map((params) => ({ name: interpolate(b._name, params).name, args: params, stats: NOT_MEASURED, error: undefined })),
  };
}

export interface RunOptions {
  filter?: RegExp;
  throw?: boolean;
  colors?: boolean;
  format?: unknown;
  print?: (s: string) => unknown;
  observe?: (trial: Trial) => Trial;
}

/**
 * Under rtbench, run() declares what the file has set up so far (honouring
 * `filter`, which mitata tests against the name as written) and resolves at
 * once; it prints nothing. Cases declared but never run() are declared when
 * the file has loaded.
 */
export async function run(opts: RunOptions = {}): Promise<{ context: Record<string, unknown>; benchmarks: Trial[]; layout: { name: string | undefined }[] }> {
  const filter = opts.filter;
  const chosen = unrun.filter((b) => !filter || filter.test(b._name));
  // Like mitata, run() consumes what was declared before it; cases its filter leaves out are not run.
  for (const b of chosen) declareB(b);
  unrun = [];
  if (opts.format !== undefined && opts.format !== 'mitata') note(`run({ format: ${JSON.stringify(opts.format)} }) is accepted: rtbench chooses its own output (--json, rtbench report --format)`);
  const observe = opts.observe ?? ((t: Trial) => t);
  return {
    context: { now: Date.now(), runtime: null, arch: null, cpu: { name: null, freq: NaN }, rtbench: NOT_MEASURED.debug },
    benchmarks: chosen.map((b) => observe(trialOf(b))),
    layout: [...new Set(chosen.map((b) => b._group))].map((name) => ({ name })),
  };
}

const declaredBs = new Set<B>();

function commit(list: B[]): void {
  for (const b of list) declareB(b);
  unrun = unrun.filter((b) => !list.includes(b));
}

// A file that never calls run() (say, one imported by another) still declares its cases.
whenLoaded(() => commit(unrun));

/** mitata's `measure()` is its own timing loop; rtbench cannot time inside a file while it loads. */
export async function measure(): Promise<never> {
  throw new Error("mitata's measure() times code while the file loads; rtbench runs benchmarks declared with bench(), not a loop run by the file. Declare the code with bench() instead");
}

// ------------------------------------------------------------ cases

function combinations(args: Record<string, ParamValue[]>): Params[] {
  let combos: Record<string, ParamValue>[] = [{}];
  for (const [key, values] of Object.entries(args)) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  return combos;
}

/** mitata replaces `$name` in a case name with the value; parameters not named stay visible in rtbench's id. */
function interpolate(name: string, params: Params): { name: string; shown: Set<string> } {
  let out = name;
  const shown = new Set<string>();
  // Longest names first, so `$size` is not eaten by `$s`.
  for (const key of Object.keys(params).sort((a, b) => b.length - a.length)) {
    if (out.includes(`$${key}`)) {
      out = out.split(`$${key}`).join(String(params[key]));
      shown.add(key);
    }
  }
  return { name: out, shown };
}

function declareB(b: B): void {
  if (declaredBs.has(b)) return;
  declaredBs.add(b);
  for (const params of combinations(b._args)) {
    const { name, shown } = interpolate(b._name, params);
    const idParams = Object.fromEntries(Object.entries(params).filter(([k]) => !shown.has(k)));
    declareCase({ format: 'mitata', group: b._group, name, params, idParams, body: bodyFor(b, params) });
  }
}

function stateFor(params: Params, loop?: { remaining: number }): State {
  const step = { value: undefined, done: false } as const;
  const end = { value: undefined, done: true } as const;
  const iterator = {
    next: (): IteratorResult<undefined, void> => (loop && loop.remaining-- > 0 ? step : end),
  };
  return {
    get: (name: string) => (Object.hasOwn(params, name) ? params[name] : undefined),
    [Symbol.iterator]: () => iterator,
    [Symbol.asyncIterator]: () => ({ next: async () => iterator.next() }),
  };
}

/** `.gc('inner')`: a forced collection between samples, outside the timing, where the runtime exposes one. */
function withGc(fn: TimedFn, b: B, ctx: CaseContext): TimedFn {
  if (b._gc !== 'inner') return fn;
  // The entry's own collection, else gc() where the runtime exposes it (taken now: case code may replace it later).
  const gc = ctx.collect ?? exposedCollections().collect;
  if (!gc) {
    ctx.warn(`.gc('inner') asks for a collection between samples, and ${ctx.runtime} exposes no gc() here: the case ran without it. Give the runtime --expose-gc (e.g. --runtime "${ctx.runtime} --expose-gc")`);
    return fn;
  }
  return Object.assign(() => fn(), { ...(fn.runBatch ? { runBatch: fn.runBatch } : {}), betweenSamples: gc });
}

function bodyFor(b: B, params: Params): CaseBody {
  const f = b.f;
  const form = formOf(f);
  if (form === 'fn') {
    if (b._gc !== 'inner') return f as TimedFn;
    return function* plain(ctx: CaseContext) {
      yield withGc(f as TimedFn, b, ctx);
    };
  }
  if (form === 'iter') {
    // The file's function owns the loop: a batch of n is one call whose state iterates n times.
    return function* loop(ctx: CaseContext) {
      const counter = { remaining: 0 };
      const state = stateFor(params, counter);
      const runBatch = (n: number): unknown => {
        counter.remaining = n;
        return (f as (s: State) => unknown)(state);
      };
      yield withGc(Object.assign(() => runBatch(1), { runBatch }), b, ctx);
    };
  }
  // Generator setup: everything before the yield is setup, the yielded function is timed, the rest is teardown.
  return async function* generator(ctx: CaseContext) {
    const gen = (f as (s: State) => Generator<unknown> | AsyncGenerator<unknown>)(stateFor(params));
    const first = await gen.next();
    yield withGc(timedFromYield(first.done ? undefined : first.value, ctx), b, ctx);
    await gen.next();
  };
}

/**
 * mitata's computed arguments: `yield { [0]() {…}, [1]() {…}, bench(a, b) {…} }`
 * calls each `[i]()` afresh for every call of `bench`, outside the timing.
 * rtbench times batches, so before each batch of n (TimedFnHooks.beforeBatch)
 * the n calls' arguments are made, untimed; each call takes the next set. A
 * call outside a batch (the digest's) makes its own.
 */
function withComputedArguments(benchFn: (...args: unknown[]) => unknown, y: Record<number, unknown>): TimedFn {
  const makers: (() => unknown)[] = [];
  for (let i = 0; typeof y[i] === 'function'; i++) makers.push(y[i] as () => unknown);
  let prepared: unknown[][] = [];
  let next = 0;
  const fresh = (): unknown[] => makers.map((make) => make());
  // Called as mitata calls it: a method of the yielded object.
  const timed = (() => benchFn.apply(y, next < prepared.length ? prepared[next++]! : fresh())) as TimedFn;
  timed.beforeBatch = (n: number) => {
    prepared = Array.from({ length: n }, fresh);
    next = 0;
  };
  return timed;
}

/** What a mitata generator may yield: the function, or `{ bench }`, with computed arguments `[0]()`, `[1]()`, … */
function timedFromYield(value: unknown, ctx: CaseContext): TimedFn {
  if (typeof value === 'function') return value as TimedFn;
  if (typeof value === 'object' && value !== null) {
    const y = value as { bench?: unknown; manual?: unknown } & Record<number, unknown>;
    if (y.manual !== undefined) ctx.unsupported('yield { manual } (the case times itself) is not supported: rtbench times batches of calls with its own clock');
    if (typeof y.bench === 'function') return typeof y[0] === 'function' ? withComputedArguments(y.bench as (...args: unknown[]) => unknown, y) : (y.bench as TimedFn);
  }
  throw new TypeError('expected benchmarkable yield from generator');
}
