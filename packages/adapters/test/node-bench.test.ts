/**
 * node:bench's API under rtbench: names and params as `node --bench` shows
 * them, suites as the group, skip/only, hooks around a benchmark, and a
 * sample made of calls whose start()/end(operations) or record() regions are
 * read on a clock that moves only when the case says so.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ofType } from './run-case.ts';

type Adapter = typeof import('../src/node-bench.ts');
type Registry = typeof import('../src/registry.ts');
type RunCase = typeof import('./run-case.ts');

let nb: Adapter;
let registry: Registry;
let harness: RunCase;

beforeEach(async () => {
  vi.resetModules();
  nb = await import('../src/node-bench.ts');
  registry = await import('../src/registry.ts');
  harness = await import('./run-case.ts');
});

const load = (declare: () => unknown) => registry.broughtSuite('t', async () => declare());

describe('declaring', () => {
  it("names are node --bench's (params sorted, JSON values), suites are the group; skip leaves a case out with a note", async () => {
    const suite = await load(() => {
      nb.suite('URL', () => {
        nb.bench('construct', { params: { input: 'short', n: 2 } }, () => {});
        nb.suite('inner', () => nb.bench('parse', () => {}));
        nb.bench.skip('later', () => {});
      });
      nb.bench(function named() {});
      nb.skip('also later', { skip: 'not ready' }, () => {});
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['URL / construct [input="short", n=2]', 'URL > inner / parse', 'named']);
    expect(suite.cases()[0]!.params).toEqual({ input: 'short', n: 2 });
    expect(suite.notes).toContain('skipped: URL > later');
    expect(suite.notes).toContainEqual(expect.stringMatching(/rtbench used its own implementation/));
  });

  it('only: benchmarks without only in their hierarchy are left out', async () => {
    const suite = await load(() => {
      nb.bench('a', () => {});
      nb.suite('s', { only: true }, () => nb.bench('b', () => {}));
      nb.bench.only('c', () => {});
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['s / b', 'c']);
  });
});

describe('running', () => {
  it('before/beforeEach run before the first sample, afterEach/after after the last, outermost first then innermost first', async () => {
    const order: string[] = [];
    const suite = await load(() => {
      nb.before(() => order.push('root before'));
      nb.suite('s', () => {
        nb.before(() => order.push('s before'));
        nb.beforeEach((info) => order.push(`s beforeEach ${info!.name}`));
        nb.afterEach(() => order.push('s afterEach'));
        nb.after(() => order.push('s after'));
        nb.bench('x', (b) => {
          if (order[order.length - 1] !== 'call') order.push('call');
          b.start();
          b.end(1);
        });
      });
      nb.after(() => order.push('root after'));
    });
    ofType(await harness.runCase(suite, 's / x'), 'result');
    expect(order).toEqual(['root before', 's before', 's beforeEach x', 'call', 's afterEach', 's after', 'root after']);
  });

  it('one process serving every case (a warm process): before once before the first, after once after the last, whatever the order', async () => {
    const order: string[] = [];
    let prepared = 0;
    const suite = await load(() => {
      nb.before(() => order.push(`before ${++prepared}`));
      nb.beforeEach((info) => order.push(`beforeEach ${info!.name}`));
      nb.after(() => order.push('after'));
      for (const name of ['a', 'b']) {
        nb.bench(name, (b) => {
          if (prepared !== 1) throw new Error(`before ran ${prepared} times`);
          b.start();
          b.end(1);
        });
      }
    });
    ofType(await harness.runCase(suite, 'b'), 'result');
    ofType(await harness.runCase(suite, 'a'), 'result');
    expect(order).toEqual(['before 1', 'beforeEach b', 'beforeEach a', 'after']);
  });

  it('a batch of n never does fewer than n operations, so its time is never scaled up past what its regions measured', async () => {
    const suite = await load(() => nb.bench('x', (b) => {
      b.start();
      b.end(2000);
    }));
    const body = suite.cases()[0]!.body as unknown as (ctx: unknown) => AsyncGenerator<{ timeBatch(n: number, s: { start(): void; stop(): number }): { ns: number; operations: number } }>;
    const fn = (await body({}).next()).value!;
    const stopwatch = { start() {}, stop: () => 1 };
    for (const n of [1, 1999, 2000, 2999, 3001, 10_000]) expect(fn.timeBatch(n, stopwatch).operations).toBeGreaterThanOrEqual(n);
  });

  it('a sample is calls of the function, each timed between start() and end(operations); record() takes a duration measured elsewhere', async () => {
    const suite = await load(() => {
      nb.bench('region', (b) => {
        harness.virtualTime.ns += 1e5; // outside the region
        b.start();
        harness.virtualTime.ns += 20 * 1000;
        const sample = b.end(1000);
        if (sample.operations !== 1000 || typeof sample.duration_ns !== 'bigint') throw new Error('bad sample');
      });
      nb.bench('record', (b) => {
        harness.virtualTime.ns += 5000; // the work, timed by "another clock"
        b.record({ operations: 10, duration_ns: 700n });
      });
    });
    const region = ofType(await harness.runCaseOnVirtualClock(suite, 'region'), 'result')[0]!;
    for (const sample of region.samples) expect(sample).toBeCloseTo(20, 1);
    const recorded = ofType(await harness.runCaseOnVirtualClock(suite, 'record'), 'result')[0]!;
    for (const sample of recorded.samples) expect(sample).toBeCloseTo(70, 6);
  });

  it('a function that neither ends its region nor records fails the case, saying what it must do', async () => {
    const suite = await load(() => nb.bench('forgot', (b) => b.start()));
    const error = ofType(await harness.runCase(suite, 'forgot'), 'error')[0]!;
    expect(error.message).toMatch(/must call start\(\) and end\(operations\), or record\(sample\), exactly once per call/);
  });
});
