/**
 * benchmark.js's surface (`new Benchmark.Suite(name).add(…).on(…).run()`, a
 * lone `new Benchmark(name, fn).run()`), as its files use it, declaring
 * rtbench cases instead of measuring. rtbench's bundler resolves `benchmark`
 * (required or imported) to a CommonJS module whose export is this module's
 * `Benchmark`, the constructor with `Suite` on it, as the package exports it.
 * Nothing is timed while the file loads: `run()` returns at once, and the
 * file's event handlers are never called (rtbench prints its own table).
 */
import type { CaseBody } from '@rtbench/core';
import { declareCase, note, whenLoaded } from './registry.ts';

type Fn = (deferred?: Deferred) => unknown;

interface Deferred {
  resolve(): void;
}

export interface BenchmarkOptions {
  name?: string;
  fn?: Fn | string;
  setup?: (() => unknown) | string;
  teardown?: (() => unknown) | string;
  defer?: boolean;
  async?: boolean;
  [option: string]: unknown;
}

/** Options that shape benchmark.js's own sampling; rtbench's options decide instead. */
const SAMPLING = ['minSamples', 'maxTime', 'minTime', 'initCount', 'delay'];
const NOT_MEASURED = 'measured by rtbench in separate processes: see the table rtbench prints';

const notMeasuredStats = Object.freeze({ deviation: NaN, mean: NaN, moe: NaN, rme: NaN, sem: NaN, variance: NaN, sample: Object.freeze([]) as readonly number[] });

/** benchmark.js's events and controls, which do nothing here: nothing runs while the file loads. */
class Inert {
  on(_event?: unknown, _handler?: unknown): this {
    return this;
  }

  off(_event?: unknown, _handler?: unknown): this {
    return this;
  }

  emit(_event?: unknown): this {
    return this;
  }

  abort(): this {
    return this;
  }

  reset(): this {
    return this;
  }

  toString(): string {
    return NOT_MEASURED;
  }
}

/** One benchmark: its name, its function and options, and figures that say where the real ones are. */
export class Benchmark extends Inert {
  static Suite: typeof Suite;
  static options: Record<string, unknown> = {};
  static version = 'rtbench';
  readonly name: string;
  readonly fn: Fn | string | undefined;
  readonly options: BenchmarkOptions;
  readonly stats = notMeasuredStats;
  readonly hz = NaN;
  readonly count = 0;
  readonly cycles = 0;
  readonly aborted = false;
  readonly error = undefined;

  constructor(name?: string | Fn | BenchmarkOptions, fn?: Fn | string | BenchmarkOptions, options: BenchmarkOptions = {}) {
    super();
    let opts: BenchmarkOptions;
    if (typeof name === 'object') opts = { ...name };
    else if (typeof name === 'function') opts = { ...(typeof fn === 'object' ? fn : {}), fn: name };
    else if (typeof fn === 'object') opts = { ...fn, name };
    else opts = { ...options, name, fn };
    this.name = opts.name ?? (typeof opts.fn === 'function' && opts.fn.name ? opts.fn.name : `<Test #${lone.length + inSuites + 1}>`);
    this.fn = opts.fn;
    this.options = opts;
  }

  /** Declares this benchmark (a lone one; one added to a suite is declared with it) and returns at once. */
  run(_options?: unknown): this {
    if (!lone.includes(this)) lone.push(this);
    return this;
  }

  override toString(): string {
    return `${this.name}: ${NOT_MEASURED}`;
  }
}

/** Every benchmark a suite holds, as benchmark.js's array-like Suite. */
export class Suite extends Inert {
  readonly name: string | undefined;
  readonly benchmarks: Benchmark[] = [];
  readonly aborted = false;
  readonly running = false;

  constructor(name?: string | Record<string, unknown>, options?: Record<string, unknown>) {
    super();
    this.name = typeof name === 'string' ? name : ((name?.['name'] as string | undefined) ?? (options?.['name'] as string | undefined));
    suites.push(this);
  }

  get length(): number {
    return this.benchmarks.length;
  }

  add(name: string | Fn | BenchmarkOptions, fn?: Fn | string | BenchmarkOptions, options?: BenchmarkOptions): this {
    inSuites++;
    this.benchmarks.push(new Benchmark(name, fn, options));
    return this;
  }

  /** Handlers are kept from running: what they read (`this.filter('fastest')`, `String(event.target)`) holds no figure. */
  override on(_event?: unknown, _handler?: unknown): this {
    note("benchmark.js's on('cycle' | 'complete' | …) handlers are not called: rtbench times the benchmarks after the file has loaded and prints its own table");
    return this;
  }

  run(_options?: unknown): this {
    return this;
  }

  forEach(fn: (b: Benchmark, i: number) => void): this {
    this.benchmarks.forEach(fn);
    return this;
  }

  map<T>(fn: ((b: Benchmark, i: number) => T) | string): T[] {
    return typeof fn === 'string' ? this.benchmarks.map((b) => (b as unknown as Record<string, T>)[fn]!) : this.benchmarks.map(fn);
  }

  /** No benchmark has a figure, so none is the fastest or the slowest. */
  filter(_how: unknown): Benchmark[] {
    return [];
  }
}
Benchmark.Suite = Suite;

const suites: Suite[] = [];
const lone: Benchmark[] = [];
let inSuites = 0;

whenLoaded(() => {
  for (const [i, s] of suites.entries()) {
    const group = s.name ?? (suites.length > 1 ? `suite ${i + 1}` : undefined);
    for (const b of s.benchmarks) declareBenchmark(group, b);
  }
  for (const b of lone) declareBenchmark(undefined, b);
});

function declareBenchmark(group: string | undefined, b: Benchmark): void {
  const where = `${group ? `${group} / ` : ''}${b.name}`;
  const strings = (['fn', 'setup', 'teardown'] as const).filter((k) => typeof b.options[k] === 'string');
  if (strings.length) {
    note(`not run: ${where}: its ${strings.join(' and ')} ${strings.length > 1 ? 'are' : 'is'} code in a string, which benchmark.js compiles into its loop; rtbench runs functions (pass a function)`);
    return;
  }
  if (typeof b.fn !== 'function') {
    note(`not run: ${where}: it has no function to time`);
    return;
  }
  const sampling = SAMPLING.filter((k) => b.options[k] !== undefined);
  if (sampling.length) note(`benchmark.js's { ${sampling.join(', ')} } is accepted: rtbench's --time, --rounds and --warmup decide how long each benchmark is measured`);
  if (b.options.setup || b.options.teardown) {
    note("benchmark.js's setup and teardown run once around each benchmark in its process, as functions: benchmark.js compiles their text into its timed loop (so its variables are the function's), rtbench calls them, so a variable setup declares is not the timed function's");
  }
  declareCase({ format: 'benchmark-js', group, name: b.name, params: {}, idParams: {}, body: bodyFor(b.fn, b.options) });
}

/** The timed function; a deferred benchmark's call lasts until it calls `deferred.resolve()`. */
function bodyFor(fn: Fn, options: BenchmarkOptions): CaseBody {
  const setup = options.setup as (() => unknown) | undefined;
  const teardown = options.teardown as (() => unknown) | undefined;
  const timed = options.defer ? () => new Promise<void>((resolve) => fn({ resolve })) : () => fn();
  return async function* benchmarkJs() {
    await setup?.();
    yield timed;
    await teardown?.();
  };
}
