/**
 * The suite API: how a benchmark is declared. It follows mitata's shape
 * (`bench`, `group`, `.args`, generator setup) so a mitata file ports with a
 * changed import and a `suite()` wrapper, and adds what a multi-runtime harness
 * needs: a stable case id, a declared "unsupported" outcome, and a value that
 * every case returns so its digest can prove the same work was done.
 */

export type ParamValue = string | number | boolean;
export type Params = Readonly<Record<string, ParamValue>>;

/** A runtime's name, as its plug-in declares it (the runtime registry lists them). */
export type RuntimeKind = string;
/** What a runtime's name may be: it starts specs (`node@24`) and is recorded in saved runs. */
export const RUNTIME_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** What a case's setup can see. */
export interface CaseContext {
  /** Parameter values of this case (from `.args`). */
  readonly params: Params;
  /** One parameter value; throws for a name that `.args` did not declare. */
  get<T extends ParamValue = ParamValue>(name: string): T;
  /** The runtime this case is running on, for cases that must branch (rarely right). */
  readonly runtime: RuntimeKind;
  /** Declare that this runtime lacks what the case needs. Reported, never timed. */
  unsupported(reason: string): never;
  /** A note about this case for the run's report: a warning, not a failure (the case is still timed). */
  warn(message: string): void;
  /**
   * Say what the case waits for when its call returns before its work ends (a
   * callback, an event): if the process then ends or times out without the
   * case's answer, the failure names it. Said once per text and process.
   */
  waitingFor(what: string): void;
  /** A full collection the runtime can force, as its entry offers it (absent where it offers none: V8 without --expose-gc). */
  readonly collect?: () => void;
}

/**
 * Optional hooks a timed function may carry (used by @rtbench/adapters for
 * files written for other harnesses); a plain function has none.
 */
interface TimedFnHooks {
  /**
   * Runs n iterations itself and returns the last value, for a case that owns
   * its loop (mitata's `for (const _ of state)`); the batch is timed as a whole.
   */
  runBatch?(n: number): unknown;
  /** Runs between samples, outside the timing (e.g. a forced GC). */
  betweenSamples?(): void;
  /**
   * Runs before every batch of n calls, outside the timing: prepares what the
   * next n calls take (mitata's computed arguments, made fresh for each call).
   */
  beforeBatch?(n: number): void;
  /**
   * A case that times itself (Node core's `bench.start()`/`bench.end(n)`,
   * node:bench's `b.start()`/`b.end(n)`, Deno's `b.start()`/`b.end()`): runs
   * a batch of about n operations, timing only its own regions with
   * `stopwatch`, and says how long they took and how many operations they
   * held. The harness's clock reads the regions, so edge-aligned timing holds
   * for them too. Takes precedence over runBatch.
   */
  timeBatch?(n: number, stopwatch: Stopwatch): SelfTimedBatch | Promise<SelfTimedBatch>;
}

/** The harness's clock as a self-timed case uses it: `stop()` gives the ns since the last `start()`. */
export interface Stopwatch {
  start(): void;
  stop(): number;
}

/** What a self-timed batch measured: the summed ns of its timed regions and the operations in them (> 0). */
export interface SelfTimedBatch {
  ns: number;
  operations: number;
}

/** The timed function. Its return value is digested once and kept alive. */
export type TimedFn = (() => unknown) & TimedFnHooks;

/**
 * A case body is either the timed function itself (mitata's plain form), or a
 * generator / async generator that does its setup, then yields the timed
 * function; code after the yield is teardown.
 */
export type CaseBody =
  | TimedFn
  | ((ctx: CaseContext) => Generator<TimedFn, void, undefined>)
  | ((ctx: CaseContext) => AsyncGenerator<TimedFn, void, undefined>);

/** One runnable case: a definition with one combination of parameter values. */
export interface CaseSpec {
  /** Stable id used on the command line, in results and across runtimes. */
  readonly id: string;
  readonly name: string;
  readonly group: string | undefined;
  readonly params: Params;
  readonly body: CaseBody;
  /**
   * What to digest when the timed function returned `returned` (default: that
   * value). Adapters use it to digest what a case handed to do_not_optimize().
   */
  readonly digestValue?: (returned: unknown) => unknown;
  /**
   * Called just before the call whose value is digested: an adapter forgets
   * what an earlier case (or this one's setup) handed to do_not_optimize(), so
   * the digest holds only this call's work.
   */
  readonly beforeDigestCall?: () => void;
  /**
   * Set for cases brought over from other harnesses: a case whose value is
   * undefined is then warned about, with this appended (how to fix it there).
   */
  readonly emptyResultAdvice?: string;
  /**
   * Set for cases of a harness whose timed function returns nothing by
   * design (it times a region, not a value: Node core's main()): why, in a
   * few words. Its digest's summary says so, and an undefined value is then
   * not taken for a case without work.
   */
  readonly returnsNothing?: string;
}

export interface SuiteDefinition {
  readonly kind: 'rtbench.suite';
  readonly name: string;
  /** Runs the suite's declaration once and returns every case. */
  cases(): CaseSpec[];
  /** How its runs are measured unless the command line says otherwise (SuiteOptions). */
  readonly options?: SuiteOptions;
}

/** The lockstep measurers' option a suite's `runUp` is the default of (the CLI's plan/suite-defaults.ts maps one to the other). */
export const RUN_UP_OPTION = 'run-up';

/** What a suite asks of its runs by default; an option on the command line overrides it. */
export interface SuiteOptions {
  /**
   * Before each lockstep sample, run the case untimed for at least this long
   * ("150ms"; `--run-up`): for cases whose engine paces its full collections
   * by the allocation rate, which a process waiting its turn lowers
   * (docs/lockstep.md, "A longer run-up").
   */
  readonly runUp?: string;
}

export class UnsupportedError extends Error {
  override readonly name = 'UnsupportedError';
}

/** Fluent handle returned by `bench()` (mirrors mitata's `.args`). */
export interface BenchHandle {
  /** One parameter with several values: `.args('size', [10, 500])`. */
  args(name: string, values: readonly ParamValue[]): BenchHandle;
  /** Several parameters; cases are their cross product. */
  args(table: Record<string, readonly ParamValue[]>): BenchHandle;
}

interface Collector {
  group: string | undefined;
  defs: { name: string; group: string | undefined; body: CaseBody; args: Record<string, readonly ParamValue[]> }[];
}

let collector: Collector | undefined;

function activeCollector(fn: string): Collector {
  if (!collector) throw new Error(`${fn}() must be called inside suite(name, () => { ... })`);
  return collector;
}

/**
 * A user's name inside an error message, as a JSON string: a newline or a
 * control character in it is written as an escape, so the message stays one
 * line and its reason is never cut off by whoever shows its first line.
 */
const quoted = (name: string): string => JSON.stringify(name);

/** Declare a suite. `define` runs lazily, each time the cases are listed; `options`: what its runs ask by default. */
export function suite(name: string, define: () => void, options?: SuiteOptions): SuiteDefinition {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`suite name ${quoted(name)} must be kebab-case`);
  return {
    kind: 'rtbench.suite',
    name,
    ...(options ? { options } : {}),
    cases() {
      const previous = collector;
      const own: Collector = { group: undefined, defs: [] };
      collector = own;
      try {
        define();
      } finally {
        collector = previous;
      }
      const specs = own.defs.flatMap(expandCases);
      const seen = new Set<string>();
      for (const spec of specs) {
        if (seen.has(spec.id)) throw new Error(`suite "${name}" declares the case ${quoted(spec.id)} twice`);
        seen.add(spec.id);
      }
      return specs;
    },
  };
}

/** Group related cases; the group name prefixes their ids ("parse 10kb / no reviver"). */
export function group(name: string, define: () => void): void {
  const c = activeCollector('group');
  if (c.group !== undefined) throw new Error(`group ${quoted(name)} is nested in ${quoted(c.group)}; groups do not nest`);
  c.group = name;
  try {
    define();
  } finally {
    c.group = undefined;
  }
}

export function bench(name: string, body: CaseBody): BenchHandle {
  const c = activeCollector('bench');
  if (name.includes('/') || name.includes('[')) throw new Error(`case name ${quoted(name)} may not contain "/" or "["`);
  const def = { name, group: c.group, body, args: Object.create(null) as Record<string, readonly ParamValue[]> };
  c.defs.push(def);
  const handle: BenchHandle = {
    args(nameOrTable: string | Record<string, readonly ParamValue[]>, values?: readonly ParamValue[]) {
      const table = typeof nameOrTable === 'string' ? { [nameOrTable]: values ?? [] } : nameOrTable;
      for (const [key, vals] of Object.entries(table)) {
        if (vals.length === 0) throw new Error(`bench ${quoted(name)}: .args(${quoted(key)}) needs at least one value`);
        def.args[key] = [...vals];
      }
      return handle;
    },
  };
  return handle;
}

function expandCases(def: Collector['defs'][number]): CaseSpec[] {
  let combos: Record<string, ParamValue>[] = [{}];
  for (const [key, values] of Object.entries(def.args)) {
    combos = combos.flatMap((combo) => values.map((v) => ({ ...combo, [key]: v })));
  }
  return combos.map((params) => ({
    id: caseId(def.group, def.name, params),
    name: def.name,
    group: def.group,
    params: Object.freeze(params),
    body: def.body,
  }));
}

export function caseId(groupName: string | undefined, name: string, params: Params): string {
  const keys = Object.keys(params);
  const suffix = keys.length ? ` [${keys.map((k) => `${k}=${String(params[k])}`).join(', ')}]` : '';
  return `${groupName ? `${groupName} / ` : ''}${name}${suffix}`;
}

export function isSuiteDefinition(value: unknown): value is SuiteDefinition {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'rtbench.suite';
}
