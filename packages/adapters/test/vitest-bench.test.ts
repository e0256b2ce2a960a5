/**
 * The vitest bench() adapter: describe blocks are the group, .skip/.only/.todo
 * as vitest reads them, hooks and setup/teardown around each benchmark
 * outside the timing, budget options accepted with a note.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ofType } from './run-case.ts';

let adapter: typeof import('../src/vitest-bench-expect.ts');
let registry: typeof import('../src/registry.ts');
let runCase: typeof import('./run-case.ts').runCase;

beforeEach(async () => {
  vi.resetModules();
  adapter = await import('../src/vitest-bench-expect.ts');
  registry = await import('../src/registry.ts');
  ({ runCase } = await import('./run-case.ts'));
});

const load = (declare: () => unknown) => registry.broughtSuite('t', async () => declare());

describe('declaring', () => {
  it('one case per bench(), grouped by the describe blocks around it, joined as vitest joins them', async () => {
    const suite = await load(() => {
      adapter.bench('top', () => 1);
      adapter.describe('outer', () => {
        adapter.bench('a', () => 1);
        adapter.suite('inner', () => adapter.bench('b', () => 2));
      });
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['top', 'outer / a', 'outer > inner / b']);
  });

  it('.skip and describe.skip leave benchmarks out with a note; .todo is noted, never run', async () => {
    const suite = await load(() => {
      adapter.bench('kept', () => 1);
      adapter.bench.skip('skipped', () => 1);
      adapter.describe.skip('block', () => adapter.bench('inside', () => 1));
      adapter.bench.todo('later');
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['kept']);
    expect(suite.notes).toEqual(expect.arrayContaining(['skipped: skipped (.skip), as vitest skips it', 'skipped: block > inside (.skip), as vitest skips it', 'bench.todo("later") is a benchmark to write: not run, as in vitest']));
  });

  it('.skipIf and .runIf skip by their condition', async () => {
    const suite = await load(() => {
      adapter.bench.skipIf(true)('skipped', () => 1);
      adapter.bench.skipIf(false)('kept', () => 1);
      adapter.bench.runIf(false)('not run', () => 1);
      adapter.bench.runIf(true)('run', () => 1);
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['kept', 'run']);
    expect(suite.notes).toEqual(expect.arrayContaining(['skipped: skipped (.skip), as vitest skips it', 'skipped: not run (.skip), as vitest skips it']));
  });

  it('.only, on a bench or a block, leaves the others out', async () => {
    const suite = await load(() => {
      adapter.bench('other', () => 1);
      adapter.bench.only('chosen', () => 1);
      adapter.describe.only('block', () => adapter.bench('inside', () => 1));
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['chosen', 'block / inside']);
  });

  it("an async describe block's benchmarks are collected before the suite is made", async () => {
    const suite = await load(() =>
      adapter.describe('later', async () => {
        await Promise.resolve();
        adapter.bench('x', () => 1);
      }),
    );
    expect(suite.cases().map((c) => c.id)).toEqual(['later / x']);
  });

  it("budget options are accepted with a note naming rtbench's own", async () => {
    const suite = await load(() => adapter.bench('x', () => 1, { time: 500, iterations: 10 }));
    expect(suite.notes).toContain("bench(name, fn, { time, iterations }) is accepted: rtbench's --time, --rounds and --warmup decide how long each benchmark is measured");
  });

  it('a bench without a function throws as vitest does', () => {
    expect(() => adapter.bench('x')).toThrow('bench("x"): missing bench function');
  });
});

describe('running', () => {
  it('hooks (outer block first before, inner first after) and setup/teardown run around the benchmark, outside the timing', async () => {
    const order: string[] = [];
    let calls = 0;
    const suite = await load(() => {
      adapter.beforeAll(() => void order.push('file beforeAll'));
      adapter.afterAll(() => void order.push('file afterAll'));
      adapter.describe('block', () => {
        adapter.beforeEach(() => void order.push('block beforeEach'));
        adapter.afterEach(() => void order.push('block afterEach'));
        adapter.bench('x', () => calls++, { setup: () => void order.push('setup'), teardown: () => void order.push('teardown') });
      });
    });
    const [result] = ofType(await runCase(suite, 'block / x'), 'result');
    expect(result!.digest.summary).toBe('number 0');
    expect(calls).toBeGreaterThan(1);
    expect(order).toEqual(['file beforeAll', 'block beforeEach', 'setup', 'teardown', 'block afterEach', 'file afterAll']);
    expect(suite.notes).toContain("vitest's beforeAll/afterAll/beforeEach/afterEach run around each benchmark in its own process, outside the timing (vitest runs them once around its suite or test)");
  });
});

describe("vitest's expect in the timed function", () => {
  it("passes as vitest's matchers pass, and a failed assertion fails the case with vitest's message", async () => {
    const greet = (name: string): string => `Hello ${name}`;
    const suite = await load(() => {
      adapter.bench('passes', () => {
        adapter.expect(greet('Ada')).toBe('Hello Ada');
        adapter.expect({ a: [1, 2], b: 'x' }).toMatchObject({ a: [1, 2], b: adapter.expect.any(String) });
        return greet('Ada');
      });
      adapter.bench('fails', () => adapter.expect(greet('Ada')).toBe('Hello Bob'));
    });
    const [passed] = ofType(await runCase(suite, 'passes'), 'result');
    expect(passed!.digest.summary).toBe('string(9)');
    const [failed] = ofType(await runCase(suite, 'fails'), 'error');
    expect(failed!.message).toContain("expected 'Hello Ada' to be 'Hello Bob'");
  });
});
