/**
 * The benchmark.js adapter: a Suite's add() forms declare one case each, the
 * suite's name is the group, handlers are not called, code in strings and
 * sampling options are said in one line, a deferred benchmark lasts until it
 * resolves, setup and teardown run around the case outside the timing.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ofType } from './run-case.ts';

let adapter: typeof import('../src/benchmark-js.ts');
let registry: typeof import('../src/registry.ts');
let runCase: typeof import('./run-case.ts').runCase;

beforeEach(async () => {
  vi.resetModules();
  adapter = await import('../src/benchmark-js.ts');
  registry = await import('../src/registry.ts');
  ({ runCase } = await import('./run-case.ts'));
});

const load = (declare: () => unknown) => registry.broughtSuite('t', async () => declare());

describe('declaring', () => {
  it("add()'s forms declare one case each, in order; the suite's name is the group; run() returns the suite at once", async () => {
    let ran: unknown;
    const suite = await load(() => {
      const s = new adapter.Benchmark.Suite('find');
      ran = s
        .add('by name', () => 1)
        .add('with options', () => 2, { minSamples: 5 })
        .add('as options', { fn: () => 3 })
        .add({ name: 'one object', fn: () => 4 })
        .add(function named() {
          return 5;
        })
        .run({ async: true });
      expect(ran).toBe(s);
      expect(s.length).toBe(5);
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['find / by name', 'find / with options', 'find / as options', 'find / one object', 'find / named']);
    expect(suite.notes).toContain("benchmark.js's { minSamples } is accepted: rtbench's --time, --rounds and --warmup decide how long each benchmark is measured");
  });

  it('handlers are kept, never called, with a note; what complete would read holds no figure', async () => {
    const handler = vi.fn();
    let fastest: unknown;
    const suite = await load(() => {
      const s = new adapter.Suite('x').add('a', () => 1).on('cycle', handler).on('complete', handler).run();
      fastest = s.filter('fastest');
    });
    expect(handler).not.toHaveBeenCalled();
    expect(fastest).toEqual([]);
    expect(suite.notes).toContain("benchmark.js's on('cycle' | 'complete' | …) handlers are not called: rtbench times the benchmarks after the file has loaded and prints its own table");
  });

  it('a benchmark whose code is a string is not run, in one line; the others are', async () => {
    const suite = await load(() => new adapter.Suite('s').add('compiled', '/o/.test("Hello")').add('function', () => 1).add('set up', { fn: () => 1, setup: 'var a = 1' }));
    expect(suite.cases().map((c) => c.id)).toEqual(['s / function']);
    expect(suite.notes).toContain('not run: s / compiled: its fn is code in a string, which benchmark.js compiles into its loop; rtbench runs functions (pass a function)');
    expect(suite.notes).toContain('not run: s / set up: its setup is code in a string, which benchmark.js compiles into its loop; rtbench runs functions (pass a function)');
  });

  it('a lone Benchmark is declared when the file runs it', async () => {
    const suite = await load(() => new adapter.Benchmark('alone', () => 1).run());
    expect(suite.cases().map((c) => c.id)).toEqual(['alone']);
  });
});

describe('running', () => {
  it('a deferred benchmark is timed until it calls deferred.resolve()', async () => {
    let resolved = 0;
    const suite = await load(() =>
      new adapter.Suite().add('later', {
        defer: true,
        fn(deferred?: { resolve(): void }) {
          setTimeout(() => {
            resolved++;
            deferred!.resolve();
          }, 0);
        },
      }),
    );
    const [result] = ofType(await runCase(suite, 'later'), 'result');
    expect(result!.async).toBe(true);
    expect(resolved).toBeGreaterThan(1);
  });

  it('setup and teardown run once around the case, outside the timing, with a note', async () => {
    const order: string[] = [];
    const suite = await load(() => new adapter.Suite().add('x', { fn: () => order.push('fn'), setup: () => void order.push('setup'), teardown: () => void order.push('teardown') }));
    await runCase(suite, 'x');
    expect(order[0]).toBe('setup');
    expect(order.at(-1)).toBe('teardown');
    expect(order.filter((o) => o === 'setup')).toHaveLength(1);
    expect(suite.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^benchmark\.js's setup and teardown run once around each benchmark in its process/)]));
  });
});
