/**
 * rtbench's implementation of the API Node.js core's benchmark files get from
 * `require('../common.js')`: `createBenchmark(main, configs, options)` and
 * `bench.start()` / `bench.end(operations)`. The suite loader's bundler resolves that
 * require here (packages/suite-loader/src/bundle.ts). One case per configuration,
 * named as compare.js names it. A sample is one call of `main(conf)` timed by
 * the file's own start()/end(), with a numeric `conf.n` set to rtbench's
 * batch size, so a sample lasts rtbench's sample time rather than the one
 * second Node's defaults are sized for; without `n`, a batch is that many
 * calls of main.
 */
import type { CaseBody, CaseContext, ParamValue, TimedFn } from '@rtbench/core';
import type { SelfTimedBatch, Stopwatch } from '@rtbench/core/suite';
import { declareCase, note, whenLoaded } from './registry.ts';
import { isThenable, sumRegions, sumRegionsWhile, TimedRegion } from './self-timed.ts';

type ConfigValue = string | number;
type Conf = Record<string, ConfigValue>;

export interface BenchmarkOptions {
  /** Node flags the file needs (compare.js passes them to each child process). */
  flags?: string[];
  /** Configurations to leave out (newer common.js). */
  combinationFilter?: (conf: Conf) => boolean;
  /** Values for `--test` runs; not used by rtbench. */
  test?: Record<string, unknown>;
}

/** What the CLI sets before the file loads: compare.js's `--set key=value`, in order. */
export interface NodeCoreSettings {
  set: readonly string[];
  /** The file as compare.js names it: `<area>/<file>.js`. */
  name: string;
}

let settings: NodeCoreSettings = { set: [], name: '' };

export function configureNodeCore(s: NodeCoreSettings): void {
  settings = s;
}

/** util.inspect's rendering of a configuration value, as compare.js writes it into the configuration's name. */
export function inspectValue(value: ConfigValue): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
  if (!value.includes("'")) return `'${escaped}'`;
  if (!value.includes('"')) return `"${escaped}"`;
  if (!value.includes('`')) return `\`${escaped}\``;
  return `'${escaped.replace(/'/g, "\\'")}'`;
}

/** compare.js's configuration column: `key=value` pairs, in the configuration's own key order. */
export function configurationName(conf: Conf): string {
  return Object.keys(conf)
    .map((key) => `${key}=${inspectValue(conf[key]!)}`)
    .join(' ');
}

/**
 * The configurations in the order Node's common.js runs them: a depth-first
 * walk over the keys in declaration order. As there, each level spreads the
 * previous configuration after its own key, so the keys of a configuration
 * come out last-declared first (and compare.js names them in that order).
 */
/** The most configurations rtbench builds from one file: each is a case, listed and run in processes of its own. */
export const MAX_CONFIGURATIONS = 10_000;

export function configurationQueue(configs: Record<string, readonly ConfigValue[]>): Conf[] {
  const keys = Object.keys(configs);
  if (keys.length === 0) return [{}];
  // Counted before any is built: a grid of 10^10 would never finish building, nor fit in one listing.
  const count = keys.reduce((n, k) => n * configs[k]!.length, 1);
  if (count > MAX_CONFIGURATIONS) {
    const sizes = keys.map((k) => `${configs[k]!.length} ${k}`).join(' × ');
    throw new RangeError(`the file's configurations make ${count.toExponential(2).replace('e+', 'e')} combinations (${sizes}); rtbench runs at most ${MAX_CONFIGURATIONS}: pick values with --set name=value (e.g. --set ${keys[0]}=${String(configs[keys[0]!]![0])})`);
  }
  const queue: Conf[] = [];
  const walk = (index: number, previous: Conf): void => {
    const key = keys[index]!;
    const values = configs[key]!;
    for (const value of values) {
      if (typeof value !== 'number' && typeof value !== 'string') throw new TypeError(`configuration "${key}" had type ${typeof value}`);
      if (typeof value !== typeof values[0]) throw new TypeError(`configuration "${key}" has mixed types`);
      const conf = { [key]: value, ...previous };
      if (index + 1 < keys.length) walk(index + 1, conf);
      else queue.push(conf);
    }
  };
  walk(0, {});
  return queue;
}

/** The file's configurations with `--set key=value` applied as common.js applies them (a key set several times takes all its values). */
export function applySettings(configs: Record<string, unknown>, set: readonly string[]): { configs: Record<string, ConfigValue[]>; unknown: string[] } {
  const lists: Record<string, ConfigValue[]> = {};
  for (const [key, value] of Object.entries(configs)) lists[key] = (Array.isArray(value) ? value : [value]) as ConfigValue[];
  const fromCli: Record<string, ConfigValue[]> = {};
  const unknown: string[] = [];
  for (const setting of set) {
    const match = /^(.+?)=([\s\S]*)$/.exec(setting);
    if (!match) throw new Error(`--set ${setting}: expected key=value`);
    const [, key, value] = match as unknown as [string, string, string];
    if (!Object.prototype.hasOwnProperty.call(lists, key)) {
      unknown.push(key);
      continue;
    }
    (fromCli[key] ??= []).push(typeof lists[key]![0] === 'number' ? +value : value);
  }
  return { configs: { ...lists, ...fromCli }, unknown };
}

const HARNESS_ONLY =
  "needs more of Node's benchmark harness than a microbenchmark (an HTTP server and load generator, or its own child processes); rtbench runs the microbenchmarks of benchmark/";

/** The object a Node core benchmark file calls start() and end() on. */
export class Benchmark {
  readonly name: string;
  readonly flags: string[];
  readonly options: Record<string, ConfigValue[]>;
  readonly extra_options: Record<string, string> = {};
  readonly queue: Conf[];
  config: Conf;
  readonly #fn: (conf: Conf) => unknown;
  readonly region = new TimedRegion();
  #onEnd: (() => void) | undefined;
  /** The context of the configuration being run (set as its case is set up): where a wait for bench.end() is said. */
  context: CaseContext | undefined;

  constructor(fn: (conf: never) => unknown, configs: Record<string, unknown>, options: BenchmarkOptions = {}) {
    if (typeof fn !== 'function') throw new TypeError('createBenchmark(main, configs, options): main must be a function');
    // main takes the configuration's own shape ({ n, size }); every configuration is a Conf.
    this.#fn = fn as (conf: Conf) => unknown;
    this.name = settings.name;
    this.flags = [...(options.flags ?? [])];
    const { configs: lists, unknown } = applySettings(configs ?? {}, settings.set);
    if (unknown.length) note(`--set ${unknown.join(', ')}: the file has no such configuration (compare.js passes these on as extra options, which only its HTTP benchmarks read); ignored`);
    this.options = lists;
    const filter = options.combinationFilter;
    this.queue = configurationQueue(lists).filter((conf) => !filter || filter(conf));
    this.config = this.queue[0] ?? {};
    if (this.flags.length) {
      note(`the file asks for the flags ${this.flags.join(' ')} (createBenchmark's flags option), which compare.js gives each process; rtbench gives a process only its variant's flags: name them there to have them, e.g. --compare "node@24 ${this.flags.join(' ')}" "node@26 ${this.flags.join(' ')}"`);
    }
    benchmarks.push(this);
  }

  start(): void {
    this.region.start('bench.start()');
  }

  end(operations: number): void {
    this.region.end(operations, 'bench.end()');
    const resolve = this.#onEnd;
    this.#onEnd = undefined;
    resolve?.();
  }

  http(): never {
    throw new Error(`bench.http(): this file ${HARNESS_ONLY}`);
  }

  report(): never {
    throw new Error('bench.report(): the file reports a rate it measured itself; rtbench times the region between bench.start() and bench.end()');
  }

  /** One call of main(conf) with its region read on `stopwatch`; a promise when main ends its region later. */
  invoke(conf: Conf, stopwatch?: Stopwatch): unknown {
    this.region.reset(stopwatch);
    this.config = conf;
    const returned = this.#fn(conf);
    if (this.region.ended) return returned;
    // Said once: if the process then ends or times out, its failure names this wait (bun never ends a stalled await by itself).
    this.context?.waitingFor('main() to call bench.end() (main returned without calling it)');
    return new Promise<void>((resolve, reject) => {
      // main may end its region later, from a callback. When the runtime has nothing left to run (node's
      // process 'beforeExit', deno's 'beforeunload' event) no callback can: say so, rather than leave an
      // unsettled top-level await. Elsewhere the case's timeout ends the wait.
      const events = (globalThis as { process?: { once?(e: string, f: () => void): void; off?(e: string, f: () => void): void } }).process;
      const page = globalThis as { addEventListener?(e: string, f: () => void): void; removeEventListener?(e: string, f: () => void): void };
      const neverEnds = (): void => reject(new Error('main() returned without calling bench.end(), and nothing it started is still running to call it: a Node core benchmark ends its timed region with bench.end(operations)'));
      events?.once?.('beforeExit', neverEnds);
      page.addEventListener?.('beforeunload', neverEnds);
      this.#onEnd = () => {
        events?.off?.('beforeExit', neverEnds);
        page.removeEventListener?.('beforeunload', neverEnds);
        resolve();
      };
      if (isThenable(returned)) returned.then(undefined, reject);
    });
  }

  declare(): void {
    // A numeric n is the operation count by convention: scaling it sizes the sample.
    const scalable = this.options.n !== undefined && this.options.n.every((v) => typeof v === 'number');
    for (const conf of this.queue) {
      declareCase({
        format: 'node-core',
        group: undefined,
        name: configurationName(conf),
        params: conf as Record<string, ParamValue>,
        idParams: {},
        body: withContext(this, scalable ? scaledBody(this, conf) : repeatedBody(this, conf)),
      });
    }
  }
}

const benchmarks: Benchmark[] = [];

whenLoaded(() => {
  if (benchmarks.length === 0) return;
  if (benchmarks.length > 1) note('the file calls createBenchmark more than once; Node runs only the first, and so does rtbench');
  note(
    "main() returns nothing in Node core's benchmark files, so no result can be cross-checked between runtimes or variants: each configuration runs as written, timed between bench.start() and bench.end()",
  );
  benchmarks[0]!.declare();
});

/**
 * A batch of n operations is one call of main with conf.n = n, and more calls
 * while the operations main reported (bench.end's count) add up to fewer
 * than n: core scales the regions' time to n, and scaling up would claim
 * time for operations no region ran. A later call asks for the operations
 * still missing at the count-per-conf.n the last call showed, never for more
 * than n (a main whose count does not grow with conf.n stays linear).
 */
function scaledBody(b: Benchmark, conf: Conf): TimedFn {
  const withN = (n: number): Conf => ({ ...conf, n: Math.max(1, Math.round(n)) });
  const timeBatch = (n: number, stopwatch: Stopwatch): SelfTimedBatch | Promise<SelfTimedBatch> => {
    let asked = 0;
    const more = (sum: SelfTimedBatch, calls: number): boolean => {
      if (sum.operations >= n) return false;
      asked = calls === 0 ? n : Math.min(n, Math.ceil(((n - sum.operations) * asked) / b.region.operations));
      return true;
    };
    return sumRegionsWhile(more, (sw) => b.invoke(withN(asked), sw), b.region, stopwatch);
  };
  // The harness's first call (it proves the case runs) is one operation's worth.
  return Object.assign(() => b.invoke(withN(1)), { timeBatch }) as TimedFn;
}

/** The case's body as a set-up that hands the benchmark the case's context, then yields the timed function. */
function withContext(b: Benchmark, fn: TimedFn): CaseBody {
  return function* (ctx: CaseContext) {
    b.context = ctx;
    yield fn;
  };
}

/** A batch of n is n calls of main(conf), their regions summed. */
function repeatedBody(b: Benchmark, conf: Conf): TimedFn {
  const timeBatch = (n: number, stopwatch: Stopwatch): SelfTimedBatch | Promise<SelfTimedBatch> => sumRegions(n, (sw) => b.invoke(conf, sw), b.region, stopwatch);
  return Object.assign(() => b.invoke(conf), { timeBatch }) as TimedFn;
}

export function createBenchmark<C extends Conf>(fn: (conf: C) => unknown, configs: Record<string, unknown>, options?: BenchmarkOptions): Benchmark {
  return new Benchmark(fn, configs, options);
}

/** Node's own helpers that a microbenchmark does not need: each says why it is missing when used. */
function missing(what: string): never {
  throw new Error(`common.${what} is part of Node's own benchmark harness, which rtbench does not carry`);
}

export const PORT = 12346;
export const buildType = 'Release';
export function sendResult(): never {
  return missing('sendResult()');
}
export function binding(): never {
  return missing('binding() (internal bindings)');
}

/**
 * The inputs Node's URL and query-string benchmarks select from common.js by
 * name. The names are the interface; the strings are rtbench's own, each of
 * the shape its name promises (a long URL with a query and a hash, an
 * internationalised host, credentials, percent-escapes, dot segments; a query
 * string with repeated separators, escapes, repeated keys, blank pairs), so a
 * file measures the kind of input it names on every runtime, not Node's exact
 * bytes: a figure compared with Node's own harness says so.
 */
export const urls: Readonly<Record<string, string>> = {
  long: 'http://bench.example:8081/reports/2026/runtime/json/parse/reviver/4410273/ab3c9/' + '/77e1/c4d20/index.html#row?warm=true&cold=false&rounds=6' + '&pairs=15&addr=10.20.030.405&stamp=1764201600123&seed=40213&7731&' + 'sig=0a9b8c7d6e5f40312233445566778899',
  short: 'https://bench.example/runs/',
  idn: 'http://例え例え.テスト',
  auth: 'https://bench:secret@bench.example/table?case=2',
  file: 'file:///home/bench/results/run.json',
  ws: 'ws://127.0.0.1:9230/3b1e5c70-92d4-4f0a-b6c8-1d2e3f405162',
  javascript: 'javascript:void(console.log("rtbench"));',
  percent: 'https://%E4%BE%8B/runs',
  dot: 'https://bench.example/./x/../y/./z',
};

/** The query strings Node's querystring and URLSearchParams benchmarks select from common.js by name (rtbench's own, shaped as named). */
export const searchParams: Readonly<Record<string, string>> = {
  noencode: 'case=parse&runtime=node&rounds=six',
  multicharsep: 'case=parse&&&&&&&&&&runtime=node&&&&&&&&&&rounds=six',
  encodefake: 'case=%©arse&runtime=%A©ode&rounds=%©ix',
  encodemany: '%63%61%73%65=parse&%72%75%6E=node&rounds=%73i%78',
  encodelast: 'case=parse&runtime=node&rounds=si%78',
  multivalue: 'arm=node&arm=deno&arm=bun&set=one',
  multivaluemany: 'arm=node&arm=deno&arm=bun&set=one&arm=workerd&arm=node24&' + 'arm=node22&arm=node20&arm=deno2&arm=bun1&arm=canary&arm=patched',
  manypairs: 'a&b&c&d&e&f&g&h&i&j&k&l&m&n&o&p&q&r&s&t&u&v&w&x&y&z',
  manyblankpairs: '&&&&&&&&&&&&&&&&&&&&&&&&',
  altspaces: 'case+name=json+parse&run+time=node+deno&key=with+space',
};

/** The data kinds bakeUrlData takes: each of urls, and Node's web-platform URL tests ('wpt'). */
export const urlDataTypes: readonly string[] = [...Object.keys(urls), 'wpt'];

/**
 * bakeUrlData(type, e, withBase, asUrl): 200 copies of urls[type] (with
 * 'about:blank' as the base when withBase), doubled e times, as URL objects
 * when asUrl. 'wpt' reads Node's own test fixtures, which a file brought
 * alone does not have.
 */
export function bakeUrlData(type: string, e: unknown = 0, withBase = false, asUrl = false): (string | string[] | URL)[] {
  if (type === 'wpt') return missing("bakeUrlData('wpt') (it reads the URL tests in Node's own test/fixtures)");
  const input = urls[type];
  if (input === undefined) throw new Error(`Unknown url data type ${type}`);
  if (typeof e !== 'number') throw new Error(`e must be a number, received ${String(e)}`);
  let data: (string | string[])[] = new Array<string | string[]>(200).fill(withBase ? [input, 'about:blank'] : input);
  for (let i = 0; i < e; i++) data = data.concat(data);
  if (!asUrl) return data;
  return data.map((item) => (Array.isArray(item) ? new URL(item[0]!, item[1]) : new URL(item)));
}
