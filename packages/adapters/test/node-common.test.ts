/**
 * Node.js core's createBenchmark API: configurations named and ordered as
 * compare.js names them, --set as common.js applies it, and a sample timed
 * by the file's own bench.start()/bench.end(n), read on a clock that moves
 * only when the case says so (so the expected figures are exact).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ofType } from './run-case.ts';

type Adapter = typeof import('../src/node-common.ts');
type Registry = typeof import('../src/registry.ts');
type RunCase = typeof import('./run-case.ts');

let common: Adapter;
let registry: Registry;
let harness: RunCase;

beforeEach(async () => {
  vi.resetModules();
  common = await import('../src/node-common.ts');
  registry = await import('../src/registry.ts');
  harness = await import('./run-case.ts');
});

const load = (declare: () => unknown) => registry.broughtSuite('t', async () => declare());

describe('configurations', () => {
  it("are walked depth-first, each naming its keys last-declared first, as compare.js's configuration column does", () => {
    const queue = common.configurationQueue({ n: [1000], size: [16, 512], type: ['asc', "it's"] });
    expect(queue.map(common.configurationName)).toEqual([
      "type='asc' size=16 n=1000",
      `type="it's" size=16 n=1000`,
      "type='asc' size=512 n=1000",
      `type="it's" size=512 n=1000`,
    ]);
  });

  it('--set replaces a configuration with the values given (typed as the file types it); unknown keys are reported', () => {
    const { configs, unknown } = common.applySettings({ n: [1e6], size: [16, 512, 4096], enc: 'utf8' }, ['size=512', 'size=4096', 'enc=latin1', 'other=1']);
    expect(configs).toEqual({ n: [1e6], size: [512, 4096], enc: ['latin1'] });
    expect(unknown).toEqual(['other']);
  });

  it('mixed types are refused as common.js refuses them', () => {
    expect(() => common.configurationQueue({ a: [1, 'x'] })).toThrow('configuration "a" has mixed types');
    // Counted before one is built: 10^10 combinations are refused at once, with the way to narrow them.
    const many = Array.from({ length: 100_000 }, (_, i) => i);
    expect(() => common.configurationQueue({ n: [1], a: many, b: many })).toThrow(
      "the file's configurations make 1.00e10 combinations (1 n × 100000 a × 100000 b); rtbench runs at most 10000: pick values with --set name=value (e.g. --set n=1)",
    );
    expect(common.configurationQueue({ a: many.slice(0, 100), b: many.slice(0, 100) })).toHaveLength(10_000);
  });

  it("a file's createBenchmark declares one case per configuration, with its values as params; combinationFilter and --set apply", async () => {
    common.configureNodeCore({ set: ['size=16', 'size=64'], name: 'buffers/x.js' });
    const suite = await load(() => {
      const bench = common.createBenchmark(() => {}, { n: [10], size: [1, 16, 64], kind: ['a', 'b'] }, { combinationFilter: (c) => !(c.kind === 'b' && c.size === 64) });
      expect(bench.name).toBe('buffers/x.js');
    });
    expect(suite.cases().map((c) => c.id)).toEqual(["kind='a' size=16 n=10", "kind='b' size=16 n=10", "kind='a' size=64 n=10"]);
    expect(suite.cases()[0]!.params).toEqual({ kind: 'a', size: 16, n: 10 });
    expect(suite.notes).toContainEqual(expect.stringMatching(/no result can be cross-checked/));
  });
});

describe('timing', () => {
  it("a sample is one call of main with n scaled, timed between bench.start() and bench.end(n): setup outside the region is not counted", async () => {
    const ns: number[] = [];
    const suite = await load(() => {
      const bench = common.createBenchmark(
        ({ n }: Record<string, number>) => {
          ns.push(n!);
          harness.virtualTime.ns += 5e6; // setup: not timed
          bench.start();
          harness.virtualTime.ns += 100 * n!;
          bench.end(n!);
        },
        { n: [1e9] },
      );
    });
    const result = ofType(await harness.runCaseOnVirtualClock(suite, 'n=1000000000'), 'result')[0]!;
    // 100 ns per operation, plus the region's one clock read spread over the operations.
    for (const sample of result.samples) expect(sample).toBeCloseTo(100, 0);
    // The file's own n (1e9) is never run: rtbench sizes each call.
    expect(Math.max(...ns)).toBeLessThan(1e9);
    expect(result.iterationsPerSample).toBeGreaterThan(1);
  });

  it('an asynchronous main ends its region later; the operations come from end(), not from n', async () => {
    const suite = await load(() => {
      const bench = common.createBenchmark(
        async ({ n }: Record<string, number>) => {
          await null;
          bench.start();
          harness.virtualTime.ns += 50 * 2 * n!;
          await null;
          bench.end(2 * n!);
        },
        { n: [100], mode: ['x'] },
      );
    });
    const messages = await harness.runCaseOnVirtualClock(suite, "mode='x' n=100");
    const result = ofType(messages, 'result')[0]!;
    expect(result.async).toBe(true);
    // 100 ns per call of the loop, which end() counts as two operations: 50 ns per operation.
    for (const sample of result.samples) expect(sample).toBeCloseTo(50, 0);
    // The wait for bench.end() is said once, so that a process that never gets there can name it.
    expect(ofType(messages, 'waiting')).toEqual([{ type: 'waiting', caseId: "mode='x' n=100", on: 'main() to call bench.end() (main returned without calling it)' }]);
  });

  it('a main that reports fewer operations than conf.n is called again until the batch holds n: its time is never scaled up', async () => {
    const asked: number[] = [];
    const suite = await load(() => {
      const bench = common.createBenchmark(
        ({ n }: Record<string, number>) => {
          asked.push(n!);
          bench.start();
          harness.virtualTime.ns += 100 * n!;
          bench.end(Math.ceil(n! / 4)); // four loop turns per operation
        },
        { n: [1e6] },
      );
    });
    // The body is a set-up that hands the benchmark its case's context, then yields the timed function.
    const setUp = suite.cases()[0]!.body as (ctx: unknown) => Generator<import('@rtbench/core').TimedFn>;
    const body = setUp({ waitingFor() {} }).next().value as import('@rtbench/core').TimedFn;
    let begin = 0;
    const stopwatch = { start: () => void (begin = harness.virtualTime.ns), stop: () => harness.virtualTime.ns - begin };
    const before = harness.virtualTime.ns;
    const batch = (await body.timeBatch!(1000, stopwatch)) as import('@rtbench/core/suite').SelfTimedBatch;
    expect(batch.operations).toBeGreaterThanOrEqual(1000);
    // Four calls of conf.n=1000 (250 operations each), or fewer if later calls ask for more: never more than n per call.
    expect(Math.max(...asked)).toBeLessThanOrEqual(1000);
    expect(batch.ns).toBe(harness.virtualTime.ns - before);
    // Read as a batch of 1000 (core's scaling), the time is at most what the regions took.
    expect((batch.ns * 1000) / batch.operations).toBeLessThanOrEqual(harness.virtualTime.ns - before);
    const result = ofType(await harness.runCaseOnVirtualClock(suite, 'n=1000000'), 'result')[0]!;
    for (const sample of result.samples) expect(sample).toBeCloseTo(400, 0);
  });

  it('without an n configuration a batch is whole calls of main, their regions summed', async () => {
    const suite = await load(() => {
      const bench = common.createBenchmark(() => {
        harness.virtualTime.ns += 1e6;
        bench.start();
        harness.virtualTime.ns += 4000;
        bench.end(4);
      }, {});
    });
    const result = ofType(await harness.runCaseOnVirtualClock(suite, ''), 'result')[0]!;
    for (const sample of result.samples) expect(sample).toBeCloseTo(1000, -1);
  });

  it('bench.http() and a second start() fail the case with the reason', async () => {
    const suite = await load(() => {
      const bench = common.createBenchmark(({ how }: Record<string, string>) => {
        if (how === 'http') bench.http();
        bench.start();
        bench.start();
      }, { how: ['http', 'twice'] });
    });
    const http = ofType(await harness.runCase(suite, "how='http'"), 'error')[0]!;
    expect(http.message).toMatch(/bench\.http\(\): this file needs more of Node's benchmark harness than a microbenchmark/);
    const twice = ofType(await harness.runCase(suite, "how='twice'"), 'error')[0]!;
    expect(twice.message).toMatch(/bench\.start\(\) was called more than once/);
  });
});

describe("common.js's other exports", () => {
  it('has every name Node core benchmark files take from common.js', () => {
    for (const name of ['Benchmark', 'PORT', 'bakeUrlData', 'binding', 'buildType', 'createBenchmark', 'sendResult', 'searchParams', 'urlDataTypes', 'urls']) expect(common, name).toHaveProperty(name);
  });

  it('gives the query strings and URLs files select by name, and bakes URL data from them', () => {
    expect(new URLSearchParams(common.searchParams.multivalue).getAll('arm')).toEqual(['node', 'deno', 'bun']);
    expect(Object.keys(common.searchParams)).toHaveLength(10);
    expect(common.urlDataTypes).toEqual([...Object.keys(common.urls), 'wpt']);
    expect(common.bakeUrlData('short', 1)).toEqual(new Array(400).fill(common.urls.short));
    const withBase = common.bakeUrlData('dot', 0, true, true);
    expect(withBase).toHaveLength(200);
    expect((withBase[0] as URL).href).toBe('https://bench.example/y/z');
    expect(() => common.bakeUrlData('nope')).toThrow('Unknown url data type nope');
    expect(() => common.bakeUrlData('wpt')).toThrow(/^common\.bakeUrlData\('wpt'\) .* is part of Node's own benchmark harness/);
  });
});
