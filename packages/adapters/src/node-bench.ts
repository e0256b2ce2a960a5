/**
 * `node:bench`'s surface (`--experimental-bench`), as benchmark files use it,
 * declaring rtbench cases instead of measuring. The bundler resolves
 * `node:bench` here on every runtime and node version, node's own included,
 * because Node's module samples in its own loop in one process and rtbench
 * must take the samples itself (lockstep, instruction counts, profiles); the
 * run says so in a note. A case is one `bench()`, named as `node --bench`
 * shows it; a sample is a batch of calls, each with a fresh context whose
 * start()/end(ops) (or record()) region is read on rtbench's stopwatch.
 */
import type { CaseBody, CaseContext, ParamValue, Params, TimedFn } from '@rtbench/core';
import type { SelfTimedBatch, Stopwatch } from '@rtbench/core/suite';
import { declareCase, note, trackPending, whenLoaded } from './registry.ts';
import { isThenable, sumRegionsWhile, TimedRegion } from './self-timed.ts';

type Fn = (context: BenchContext) => unknown;
type HookFn = (info?: { name: string; params: Params; signal: AbortSignal }) => unknown;

export interface BenchOptions {
  only?: boolean;
  skip?: boolean | string;
  params?: Record<string, ParamValue>;
  samples?: number;
  warmup?: number;
  timeout?: number;
  tags?: string[];
  signal?: AbortSignal;
}

interface Suite {
  name: string | undefined;
  parent: Suite | undefined;
  only: boolean;
  skip: boolean | string;
  before: HookFn[];
  after: HookFn[];
  beforeEach: HookFn[];
  afterEach: HookFn[];
}

interface Declared {
  suite: Suite;
  name: string;
  options: BenchOptions;
  fn: Fn;
}

const root: Suite = { name: undefined, parent: undefined, only: false, skip: false, before: [], after: [], beforeEach: [], afterEach: [] };
let current = root;
const declared: Declared[] = [];

note("node:bench: rtbench used its own implementation of the module's API (on node 26 too, where Node's is behind --experimental-bench), so that rtbench takes the samples; each sample is a batch of calls of the benchmark function, each call's start()/end() region read on rtbench's clock");

/** node:bench's argument forms: ([name][, options], fn). */
function parseArgs<O>(args: unknown[]): { name: string; options: O; fn: Fn } {
  const fn = args[args.length - 1];
  if (typeof fn !== 'function') throw new TypeError('node:bench: the last argument must be a function');
  let name: string | undefined;
  let options = {} as O;
  for (const a of args.slice(0, -1)) {
    if (typeof a === 'string') name = a;
    else if (typeof a === 'object' && a !== null) options = a as O;
  }
  return { name: name ?? ((fn as { name?: string }).name || '<anonymous>'), options, fn: fn as Fn };
}

function declareBench(args: unknown[], overrides: BenchOptions = {}): Promise<undefined> {
  const { name, options, fn } = parseArgs<BenchOptions>(args);
  for (const [key, value] of Object.entries(options.params ?? {})) {
    if (typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) {
      throw new TypeError(`bench("${name}"): params.${key} must be a string, a finite number or a boolean`);
    }
  }
  if (options.samples !== undefined || options.warmup !== undefined || options.timeout !== undefined) {
    note("bench(name, { samples, warmup, timeout }) is accepted: rtbench's --time, --rounds and --warmup decide how long each benchmark is measured");
  }
  declared.push({ suite: current, name, options: { ...options, ...overrides }, fn });
  return Promise.resolve(undefined);
}

function declareSuite(args: unknown[], overrides: { only?: boolean; skip?: boolean | string } = {}): Promise<undefined> {
  const { name, options, fn } = parseArgs<{ only?: boolean; skip?: boolean | string }>(args);
  const merged = { ...options, ...overrides };
  const suite: Suite = { name, parent: current, only: merged.only === true, skip: merged.skip ?? false, before: [], after: [], beforeEach: [], afterEach: [] };
  const previous = current;
  current = suite;
  let result: unknown;
  try {
    result = (fn as unknown as () => unknown)();
  } finally {
    current = previous;
  }
  if (isThenable(result)) {
    // Awaited before the cases are listed; declarations made after the suite's first await land outside it.
    const done = Promise.resolve(result).then(() => undefined);
    trackPending(done);
    return done;
  }
  return Promise.resolve(undefined);
}

/** node:bench's `([name][, options], fn)`. */
interface Declare<F> {
  (fn: F): Promise<undefined>;
  (name: string, fn: F): Promise<undefined>;
  (options: BenchOptions, fn: F): Promise<undefined>;
  (name: string, options: BenchOptions, fn: F): Promise<undefined>;
}

type Declarer<F> = Declare<F> & { skip: Declare<F>; only: Declare<F> };

function withModifiers<F>(f: (args: unknown[], overrides?: BenchOptions) => Promise<undefined>): Declarer<F> {
  return Object.assign((...args: unknown[]) => f(args), {
    skip: (...args: unknown[]) => f(args, { skip: true }),
    only: (...args: unknown[]) => f(args, { only: true }),
  }) as Declarer<F>;
}

export const bench = withModifiers<Fn>(declareBench);
export const suite = withModifiers<() => unknown>(declareSuite);
/** node:bench's other name for suite. @alias */
export const describe = suite;
export const skip = bench.skip;
export const only = bench.only;

export function before(fn: HookFn): void {
  current.before.push(fn);
}
export function after(fn: HookFn): void {
  current.after.push(fn);
}
export function beforeEach(fn: HookFn): void {
  current.beforeEach.push(fn);
}
export function afterEach(fn: HookFn): void {
  current.afterEach.push(fn);
}

interface EmptyStream extends AsyncIterable<never> {
  on(): EmptyStream;
  once(): EmptyStream;
  resume(): EmptyStream;
  compose(): EmptyStream;
  pipe(destination: unknown): unknown;
}

/** An empty, readable-like stream: under rtbench nothing runs in the file's process while it loads. */
function emptyStream(): EmptyStream {
  const stream: EmptyStream = {
    async *[Symbol.asyncIterator]() {},
    on: () => stream,
    once: () => stream,
    resume: () => stream,
    compose: () => stream,
    pipe: (destination: unknown) => destination,
  };
  return stream;
}

export function run(options: { namePattern?: string | RegExp } = {}): EmptyStream {
  if (options.namePattern !== undefined) namePattern = typeof options.namePattern === 'string' ? new RegExp(options.namePattern) : options.namePattern;
  note("run() from node:bench returns an empty stream under rtbench: the benchmarks are measured by rtbench after the file has loaded, and its table and saved run hold the figures");
  return emptyStream();
}

export function createRunner(): Record<string, unknown> {
  note('createRunner(): its benchmarks are declared like the module-level ones');
  return { bench, suite, describe, before, after, beforeEach, afterEach, run };
}

export function runFile(): never {
  throw new Error('node:bench runFile() runs another file in this process; name that file to rtbench run instead');
}

let namePattern: RegExp | undefined;

function chain(suite: Suite): Suite[] {
  const out: Suite[] = [];
  for (let s: Suite | undefined = suite; s; s = s.parent) out.unshift(s);
  return out;
}

/** `node --bench`'s name for a benchmark: its name, then its params as `[key="value"]`. */
export function displayName(name: string, params: Params): string {
  const keys = Object.keys(params).sort();
  if (keys.length === 0) return name;
  return `${name} [${keys.map((k) => `${k}=${JSON.stringify(params[k])}`).join(', ')}]`;
}

/**
 * A suite's before() hooks run once before its first benchmark and its
 * after() hooks once after its last, as node --bench runs them, also when one
 * warm process serves every case: per suite, the selected benchmarks still to
 * finish in this process since its before() hooks ran.
 */
const members = new Map<Suite, Declared[]>();
const open = new Map<Suite, Set<Declared>>();

whenLoaded(() => {
  const anyOnly = declared.some((d) => d.options.only || chain(d.suite).some((s) => s.only));
  for (const d of declared) {
    const suites = chain(d.suite);
    const skipped = d.options.skip || suites.find((s) => s.skip)?.skip;
    const namePath = [...suites.map((s) => s.name).filter((n): n is string => n !== undefined), d.name];
    if (skipped) {
      note(`skipped: ${namePath.join(' > ')}${typeof skipped === 'string' ? ` (${skipped})` : ''}`);
      continue;
    }
    if (anyOnly && !(d.options.only || suites.some((s) => s.only))) continue;
    if (namePattern && !namePattern.test(namePath.join(' '))) continue;
    for (const s of suites) members.set(s, [...(members.get(s) ?? []), d]);
    const params = { ...(d.options.params ?? {}) };
    const group = namePath.length > 1 ? namePath.slice(0, -1).join(' > ') : undefined;
    declareCase({ format: 'node-bench', group, name: displayName(d.name, params), params, idParams: {}, body: bodyFor(d, suites, params) });
  }
  if (anyOnly) note('only: benchmarks without only in their hierarchy are left out, as node:bench leaves them out');
});

/** The context each call of a benchmark function gets. */
export class BenchContext {
  readonly name: string;
  readonly params: Params;
  readonly phase = 'measurement';
  readonly signal: AbortSignal;
  index = 0;
  readonly #region: TimedRegion;

  constructor(name: string, params: Params, region: TimedRegion, signal: AbortSignal) {
    this.name = name;
    this.params = params;
    this.#region = region;
    this.signal = signal;
  }

  start(): void {
    this.#region.start('context.start()');
  }

  end(operations: number, _options?: { detail?: unknown }): { operations: number; duration_ns: bigint; rate: number } {
    this.#region.end(operations, 'context.end()');
    return sampleOf(this.#region);
  }

  record(sample: { operations: number; duration_ns: bigint | number }): { operations: number; duration_ns: bigint; rate: number } {
    this.#region.record(Number(sample.duration_ns), sample.operations);
    return sampleOf(this.#region);
  }

  /** Under rtbench, --time and the rounds decide when sampling ends; done() is accepted. */
  done(): void {}
}

function sampleOf(region: TimedRegion): { operations: number; duration_ns: bigint; rate: number } {
  return { operations: region.operations, duration_ns: BigInt(Math.max(1, Math.round(region.ns))), rate: (region.operations * 1e9) / region.ns };
}

function bodyFor(d: Declared, suites: Suite[], params: Params): CaseBody {
  return async function* nodeBench(_ctx: CaseContext) {
    const controller = new AbortController();
    const info = { name: d.name, params, signal: controller.signal };
    for (const s of suites) {
      if (open.has(s)) continue;
      open.set(s, new Set(members.get(s) ?? [d]));
      for (const hook of s.before) await hook();
    }
    for (const s of suites) for (const hook of s.beforeEach) await hook(info);
    yield timedFor(d, params, controller.signal);
    controller.abort();
    for (const s of [...suites].reverse()) for (const hook of s.afterEach) await hook(info);
    for (const s of [...suites].reverse()) {
      const left = open.get(s);
      if (!left) continue;
      left.delete(d);
      if (left.size > 0) continue;
      open.delete(s);
      for (const hook of s.after) await hook();
    }
  };
}

/**
 * A batch of n operations: calls until they add up to at least n. Never
 * fewer: rtbench scales the regions' time to n, and scaling up (fewer
 * operations done than asked) would claim time that no region measured,
 * more than the process spent on the batch.
 */
function timedFor(d: Declared, params: Params, signal: AbortSignal): TimedFn {
  const region = new TimedRegion();
  let index = 0;
  const call = (stopwatch?: Stopwatch): unknown => {
    region.reset(stopwatch);
    const context = new BenchContext(d.name, params, region, signal);
    context.index = index++;
    const returned = d.fn(context);
    const check = (): void => {
      if (!region.ended) throw new Error(`bench("${d.name}"): the function must call start() and end(operations), or record(sample), exactly once per call`);
    };
    if (isThenable(returned)) return Promise.resolve(returned).then(check);
    check();
    return undefined;
  };
  const timeBatch = (n: number, stopwatch: Stopwatch): SelfTimedBatch | Promise<SelfTimedBatch> => sumRegionsWhile((sum) => sum.operations < n, call, region, stopwatch);
  return Object.assign(() => call(), { timeBatch });
}
