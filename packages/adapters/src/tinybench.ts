/**
 * tinybench's public surface (v2 to v6), as benchmark files use it, declaring
 * rtbench cases instead of measuring. rtbench's bundler resolves `import …
 * from 'tinybench'` here. `await bench.run()` resolves at once and rtbench
 * times every task later in its own loop, so what the file reads back after
 * run() holds no timings (see NOT_MEASURED).
 */
import type { CaseBody, CaseContext, TimedFn } from '@rtbench/core';
import { declareCase, note, whenLoaded } from './registry.ts';

export type Fn = () => unknown;
export type HookMode = 'run' | 'warmup';
export type FnHook = (this: Task, mode?: HookMode) => unknown;
export type Hook = (task?: Task, mode?: HookMode) => unknown;

export interface FnOptions {
  beforeAll?: FnHook;
  beforeEach?: FnHook;
  afterEach?: FnHook;
  afterAll?: FnHook;
  async?: boolean;
  retainSamples?: boolean;
  signal?: AbortSignal;
}

export interface BenchOptions {
  name?: string;
  time?: number;
  iterations?: number;
  warmup?: boolean;
  warmupTime?: number;
  warmupIterations?: number;
  now?: () => number;
  setup?: Hook;
  teardown?: Hook;
  throws?: boolean;
  signal?: AbortSignal;
  concurrency?: 'bench' | 'task' | null;
  threshold?: number;
  retainSamples?: boolean;
  [option: string]: unknown;
}

const NOT_MEASURED_NOTE = 'measured by rtbench in separate processes: see the table rtbench prints';

const notMeasuredStatistics = Object.freeze({
  aad: NaN, critical: NaN, df: NaN, mad: NaN, max: NaN, mean: NaN, min: NaN, moe: NaN,
  p50: NaN, p75: NaN, p99: NaN, p995: NaN, p999: NaN, rme: NaN, sd: NaN, sem: NaN, variance: NaN,
  samples: Object.freeze([]) as readonly number[],
  samplesCount: 0,
});

/**
 * `task.result` under rtbench: tinybench v6's shape (latency / throughput
 * statistics) and v2's flat fields (hz, mean, p99, …), every figure NaN and
 * every sample list empty, with `state: 'not-started'`: the file's own code
 * never sees a timing, because rtbench measures after the file has loaded.
 */
export const NOT_MEASURED = Object.freeze({
  state: 'not-started' as const,
  rtbench: NOT_MEASURED_NOTE,
  latency: notMeasuredStatistics,
  throughput: notMeasuredStatistics,
  period: NaN,
  totalTime: 0,
  runtime: 'unknown',
  runtimeVersion: 'unknown',
  hz: NaN,
  ...notMeasuredStatistics,
  error: undefined,
});

export type TaskResult = typeof NOT_MEASURED;

const ASYNC_TAGS = new Set(['[object AsyncFunction]', '[object AsyncGeneratorFunction]']);
const isAsyncFunction = (fn: unknown): boolean => typeof fn === 'function' && ASYNC_TAGS.has(Object.prototype.toString.call(fn));

export class Task extends EventTarget {
  readonly bench: Bench;
  readonly name: string;
  readonly fn: Fn;
  readonly opts: FnOptions;
  readonly fnOpts: FnOptions;
  runs = 0;

  constructor(bench: Bench, name: string, fn: Fn, opts: FnOptions = {}) {
    super();
    this.bench = bench;
    this.name = name;
    this.fn = fn;
    this.opts = opts;
    this.fnOpts = opts;
  }

  get result(): TaskResult {
    return NOT_MEASURED;
  }

  async run(): Promise<this> {
    return this;
  }

  runSync(): this {
    return this;
  }

  async warmup(): Promise<void> {}

  warmupSync(): void {}

  reset(): void {}
}

/** Every Bench the file made, in order; their tasks are declared once the file has loaded. */
const benches: Bench[] = [];
/** Benches in the order the file ran them (run() fixes which tasks are declared). */
const ran: Bench[] = [];

whenLoaded(() => {
  const order = [...ran, ...benches.filter((b) => !ran.includes(b))];
  for (const bench of order) bench.declareTasks(benches.length > 1 ? `bench ${benches.indexOf(bench) + 1}` : undefined);
});

export class Bench extends EventTarget {
  readonly name: string | undefined;
  readonly opts: BenchOptions;
  readonly time: number;
  readonly iterations: number;
  readonly warmupTime: number;
  readonly warmupIterations: number;
  readonly throws: boolean;
  readonly concurrency: 'bench' | 'task' | null;
  readonly threshold: number;
  readonly setup: Hook;
  readonly teardown: Hook;
  readonly signal: AbortSignal | undefined;
  readonly now: () => number;
  readonly runtime = 'unknown';
  readonly runtimeVersion = 'unknown';
  readonly #tasks = new Map<string, Task>();
  readonly #todos = new Map<string, Task>();
  /** The tasks as they were at the first run(); all of them if the file never ran this Bench. */
  #ranTasks: Task[] | undefined;

  constructor(options: BenchOptions = {}) {
    super();
    this.opts = options;
    this.name = options.name;
    this.time = options.time ?? 1000;
    this.iterations = options.iterations ?? 64;
    this.warmupTime = options.warmupTime ?? 250;
    this.warmupIterations = options.warmupIterations ?? 16;
    this.throws = options.throws ?? false;
    this.concurrency = options.concurrency ?? null;
    this.threshold = options.threshold ?? Infinity;
    this.setup = options.setup ?? (() => {});
    this.teardown = options.teardown ?? (() => {});
    this.signal = options.signal;
    this.now = options.now ?? (() => performance.now());
    const budget = ['time', 'iterations', 'warmupTime', 'warmupIterations'].filter((k) => options[k] !== undefined);
    if (budget.length) note(`new Bench({ ${budget.join(', ')} }) is accepted: rtbench's --time, --rounds and --warmup decide how long each task is measured`);
    if (options.concurrency) note("new Bench({ concurrency }) is accepted: rtbench calls a task one call at a time");
    benches.push(this);
  }

  get tasks(): Task[] {
    return [...this.#tasks.values()];
  }

  get results(): TaskResult[] {
    return this.tasks.map((t) => t.result);
  }

  /** v2: tasks marked to do with todo(); listed here, never run (as in tinybench). */
  get todos(): Task[] {
    return [...this.#todos.values()];
  }

  /** v2: a task to write later. Not a case: tinybench does not run it either. */
  todo(name: string, fn: Fn = () => {}, opts: FnOptions = {}): this {
    this.#todos.set(name, new Task(this, name, fn, opts));
    note(`bench.todo("${name}") is a task to do: not run, as in tinybench`);
    return this;
  }

  add(name: string, fn: Fn, opts: FnOptions = {}): this {
    if (this.#tasks.has(name)) throw new Error(`Task "${name}" already exists`);
    const task = new Task(this, name, fn, opts);
    this.#tasks.set(name, task);
    this.dispatchEvent(new Event('add'));
    return this;
  }

  getTask(name: string): Task | undefined {
    return this.#tasks.get(name);
  }

  remove(name: string): this {
    if (this.#tasks.delete(name)) this.dispatchEvent(new Event('remove'));
    return this;
  }

  reset(): void {
    this.dispatchEvent(new Event('reset'));
  }

  /** Declares the tasks for rtbench and resolves at once with them (their results hold no timings). */
  async run(): Promise<Task[]> {
    return this.runSync();
  }

  runSync(): Task[] {
    if (!this.#ranTasks) {
      this.#ranTasks = this.tasks;
      ran.push(this);
    }
    this.dispatchEvent(new Event('start'));
    this.dispatchEvent(new Event('complete'));
    return this.tasks;
  }

  /**
   * v2: `await bench.warmup()` before run(); rtbench warms up in every
   * process, so this does nothing. (v6 has a boolean `warmup` field instead;
   * a function reads as true.)
   */
  async warmup(): Promise<void> {}

  /**
   * One row per task, as console.table expects. A converter the file passes
   * is called with the task (whose result holds NaN); if it throws, the row
   * says where the figures are.
   */
  table(convert?: (task: Task) => Record<string, unknown> | null): (Record<string, unknown> | null)[] {
    return this.tasks.map((task) => {
      if (convert) {
        try {
          return convert(task);
        } catch {
          // fall through to rtbench's row
        }
      }
      return { 'Task name': task.name, rtbench: NOT_MEASURED_NOTE };
    });
  }

  /** Called once the file has loaded; `fallbackGroup` keeps the tasks of several unnamed Bench objects apart. */
  declareTasks(fallbackGroup: string | undefined): void {
    const group = this.name ?? fallbackGroup;
    for (const task of this.#ranTasks ?? this.tasks) {
      declareCase({ format: 'tinybench', group, name: task.name, params: {}, idParams: {}, body: bodyFor(this, task) });
    }
  }
}

function bodyFor(bench: Bench, task: Task): CaseBody {
  return async function* tinybenchTask(ctx: CaseContext) {
    const { beforeAll, beforeEach, afterEach, afterAll } = task.opts;
    await bench.setup(task, 'run');
    await beforeAll?.call(task, 'run');
    yield timedFor(task, ctx);
    await afterAll?.call(task, 'run');
    await bench.teardown(task, 'run');
  };
}

/** The task's function, called with `this` = the task; beforeEach / afterEach around every call. */
function timedFor(task: Task, ctx: CaseContext): TimedFn {
  const { fn } = task;
  const { beforeEach, afterEach } = task.opts;
  if (!beforeEach && !afterEach) return () => fn.call(task);
  ctx.warn(
    'beforeEach/afterEach run around every call inside the timed batch, so their cost is part of the time (tinybench times each call alone, between the hooks; rtbench times batches of ~1 ms because one fast call is below any clock\'s resolution). Keep them cheap, or do the preparation in beforeAll',
  );
  const isAsync = task.opts.async === true || [fn, beforeEach, afterEach].some(isAsyncFunction);
  if (isAsync) {
    return async () => {
      await beforeEach?.call(task, 'run');
      try {
        return await fn.call(task);
      } finally {
        await afterEach?.call(task, 'run');
      }
    };
  }
  return () => {
    beforeEach?.call(task, 'run');
    try {
      return fn.call(task);
    } finally {
      afterEach?.call(task, 'run');
    }
  };
}

/** tinybench's clock helpers, for files that import them. */
export const now = (): number => performance.now();
export const hrtimeNow = (): number => performance.now();
export const nToMs = (ns: number): number => ns / 1e6;
export const mToNs = (ms: number): number => ms * 1e6;
