/**
 * The mitata adapter: what a file declares becomes rtbench cases with the
 * names and parameters mitata would give them (checked against the real
 * mitata where it computes something: .range, .dense_range, $name), and
 * each form of case runs through core's executeJob as mitata means it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as realMitata from 'mitata';
import { ofType } from './run-case.ts';

type Adapter = typeof import('../src/mitata.ts');
type Registry = typeof import('../src/registry.ts');

let mitata: Adapter;
let registry: Registry;
let runCase: typeof import('./run-case.ts').runCase;

beforeEach(async () => {
  // A fresh registry per test: each runtime process loads one file.
  vi.resetModules();
  mitata = await import('../src/mitata.ts');
  registry = await import('../src/registry.ts');
  // The same module instances as the registry's (core's UnsupportedError is checked with instanceof).
  ({ runCase } = await import('./run-case.ts'));
});

afterEach(() => {
  delete (globalThis as { gc?: unknown }).gc;
});

const load = (declare: () => unknown) => registry.broughtSuite('t', async () => declare());
const ids = async (declare: () => unknown) => (await load(declare)).cases().map((c) => c.id);

describe('declaring', () => {
  it('.range and .dense_range give the values real mitata gives', () => {
    const calls: [string, number, number, number?][] = [
      ['size', 1, 1024],
      ['size', 8, 512, 64],
      ['n', 3, 1000, 10],
    ];
    for (const [name, s, e, m] of calls) {
      const ours = new mitata.B('x', () => 1).range(name, s, e, m)._args[name];
      const theirs = (new realMitata.B('x', () => 1).range(name, s, e, m) as unknown as { _args: Record<string, unknown[]> })._args[name];
      expect(ours).toEqual(theirs);
      const oursDense = new mitata.B('x', () => 1).dense_range(name, s, Math.min(e, 40), m)._args[name];
      const theirsDense = (new realMitata.B('x', () => 1).dense_range(name, s, Math.min(e, 40), m) as unknown as { _args: Record<string, unknown[]> })._args[name];
      expect(oursDense).toEqual(theirsDense);
    }
  });

  it('.args in every form: array ($x), name + values, a table (cross product), chained', async () => {
    expect(
      await ids(() => {
        mitata.bench('sum $x', () => 1).args([1, 2]);
        mitata.bench('fill', () => 1).args('size', [10]).args('kind', ['a', 'b']);
        mitata.bench('$op of $n', () => 1).args({ op: ['add'], n: [1, 2] });
      }),
    ).toEqual(['sum 1', 'sum 2', 'fill [size=10, kind=a]', 'fill [size=10, kind=b]', 'add of 1', 'add of 2']);
  });

  it('$name is replaced the way mitata replaces it, longer names first', async () => {
    // A case that throws: mitata names the run all the same, without timing anything.
    const trial = await new realMitata.B('$size-$s', () => {
      throw new Error('not timed');
    })
      .args({ size: [8], s: ['x'] })
      .run();
    const ours = await ids(() => mitata.bench('$size-$s', () => 1).args({ size: [8], s: ['x'] }));
    expect(ours).toEqual([trial.runs[0]!.name]);
  });

  it('groups name their cases; summary/barplot inside a group keep its name; unnamed groups add none', async () => {
    expect(
      await ids(() => {
        mitata.bench('top', () => 1);
        mitata.group('parse', () => {
          mitata.summary(() => mitata.bench('a', () => 1));
          mitata.barplot(() => mitata.compact(() => mitata.bench('b', () => 1)));
        });
        mitata.group(() => mitata.bench('c', () => 1));
        mitata.boxplot(() => mitata.lineplot(() => mitata.bench('d', () => 1)));
      }),
    ).toEqual(['top', 'parse / a', 'parse / b', 'c', 'd']);
  });

  it("takes a group's name from mitata 0.1's options form, group({ name, summary }, f)", async () => {
    expect(
      await ids(() => {
        mitata.group({ summary: true, name: 'short (26 chars)' }, () => mitata.bench('escape', () => 1));
        mitata.group({ summary: false }, () => mitata.bench('unnamed', () => 1));
      }),
    ).toEqual(['short (26 chars) / escape', 'unnamed']);
  });

  it('async group bodies finish declaring before the suite is listed', async () => {
    expect(
      await ids(async () => {
        await mitata.group('later', async () => {
          await new Promise((r) => setTimeout(r, 5));
          mitata.bench('x', () => 1);
        });
        await mitata.run();
      }),
    ).toEqual(['later / x']);
  });

  it('run({ filter }) keeps the cases whose name matches; run() resolves with unmeasured trials', async () => {
    let result: Awaited<ReturnType<Adapter['run']>> | undefined;
    expect(
      await ids(async () => {
        mitata.bench('keep me', () => 1);
        mitata.bench('drop me', () => 1);
        result = await mitata.run({ filter: /keep/ });
      }),
    ).toEqual(['keep me']);
    expect(result!.benchmarks.map((b) => b.alias)).toEqual(['keep me']);
    expect(Number.isNaN(result!.benchmarks[0]!.runs[0]!.stats.avg)).toBe(true);
  });

  it('cases never given to run() are declared once the file has loaded; duplicates get distinct ids', async () => {
    expect(
      await ids(() => {
        mitata.bench('same', () => 1);
        mitata.bench('same', () => 2);
      }),
    ).toEqual(['same', 'same #2']);
  });

  it('says once that repeated names got numbered ids', async () => {
    const suite = await load(() => {
      mitata.bench('twice', () => 1);
      mitata.bench('twice', () => 2);
      mitata.bench('twice', () => 3);
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['twice', 'twice #2', 'twice #3']);
    // Said, once: the ids are not the names the file wrote.
    expect(suite.notes.filter((n) => n.includes('"twice"'))).toEqual(['two cases are named "twice": the second is "twice #2" (and so on), in the order the file declares them']);
  });

  it('keeps a name or a load error that holds a line break on its one line, reason and all', async () => {
    const twice = await load(() => {
      mitata.bench('a\nb', () => 1);
      mitata.bench('a\nb', () => 2);
    });
    expect(twice.notes.filter((n) => n.startsWith('two cases'))).toEqual(['two cases are named "a\\nb": the second is "a\\nb #2" (and so on), in the order the file declares them']);
    const broken = await load(() => {
      throw new Error('no data file\nlooked in ./data');
    });
    expect(broken.loadError).toBe('the file failed to load here (Error: no data file\\nlooked in ./data)');
  });

  it('argument values must be strings, numbers or booleans', () => {
    expect(() => mitata.bench('x', () => 1).args('o', [{}])).toThrow(/strings, numbers and booleans/);
  });

  it('measure() says what to do instead', async () => {
    await expect(mitata.measure()).rejects.toThrow(/Declare the code with bench\(\)/);
  });
});

describe('running the cases', () => {
  it('generator setup: state.get, setup once, the yielded function timed, teardown after', async () => {
    const log: string[] = [];
    const suite = await load(() =>
      mitata
        .bench('g $n', function* (state) {
          log.push(`setup ${state.get('n')}`);
          const n = state.get('n') as number;
          yield () => n * 2;
          log.push('teardown');
        })
        .args('n', [21]),
    );
    const messages = await runCase(suite, 'g 21');
    const [result] = ofType(messages, 'result');
    expect(result!.digest.summary).toBe('number 42');
    expect(log).toEqual(['setup 21', 'teardown']);
    expect(ofType(messages, 'warning')).toEqual([]);
  });

  it('the manual loop form: each batch is one call whose state iterates exactly the batch size', async () => {
    let setups = 0;
    let iterations = 0;
    const suite = await load(() =>
      mitata.bench('loop', function (state: Iterable<unknown>) {
        setups++;
        for (const _ of state) iterations++;
        mitata.do_not_optimize(iterations);
      }),
    );
    const [result] = ofType(await runCase(suite, 'loop'), 'result');
    expect(result).toBeDefined();
    // One call for the digest, then whole batches: sampled iterations = samples × batch size, and one setup per batch.
    const sampled = result!.samples.length * result!.iterationsPerSample;
    expect(iterations).toBe(1 + result!.warmupIterations + sampled);
    expect(setups).toBeLessThan(iterations);
    expect(result!.digest.summary).toBe('number 1');
  });

  it('a case that returns nothing is timed, and warned about once with the mitata fix', async () => {
    const suite = await load(() => mitata.bench('silent', () => void JSON.parse('[1]')));
    const messages = await runCase(suite, 'silent');
    expect(ofType(messages, 'result')).toHaveLength(1);
    const warnings = ofType(messages, 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/^returns nothing \(undefined\): the check that every runtime did the same work compares what can be proven without a value.*do_not_optimize\(\)/);
  });

  it('do_not_optimize makes the value digested: no warning', async () => {
    const suite = await load(() => mitata.bench('kept', () => mitata.do_not_optimize(JSON.parse('[1,2]'))));
    const messages = await runCase(suite, 'kept');
    expect(ofType(messages, 'result')[0]!.digest.summary).toBe('Array(2)');
    expect(ofType(messages, 'warning')).toEqual([]);
  });

  it('a manual loop that returns nothing digests as a case that returned nothing, whatever another case kept before it in the process', async () => {
    const suite = await load(() => {
      mitata.bench('kept', () => mitata.do_not_optimize(JSON.parse('[1,2]')));
      mitata.bench('manual loop', async (state: Iterable<unknown>) => {
        for (const _ of state) await Promise.resolve();
      });
    });
    expect(ofType(await runCase(suite, 'kept'), 'result')[0]!.digest.summary).toBe('Array(2)');
    // Served next by the same process: its own value (none), not the one 'kept' left behind.
    expect(ofType(await runCase(suite, 'manual loop'), 'result')[0]!.digest.summary).toBe('ReturnedNothing{3 keys}');
  });

  it(".gc('inner') forces a collection between samples where gc() exists", async () => {
    const gc = vi.fn();
    (globalThis as { gc?: unknown }).gc = gc;
    const suite = await load(() => mitata.bench('alloc', () => new Array(64).fill(1)).gc('inner'));
    const messages = await runCase(suite, 'alloc');
    const [result] = ofType(messages, 'result');
    expect(gc).toHaveBeenCalledTimes(result!.samples.length);
    expect(ofType(messages, 'warning')).toEqual([]);
  });

  it(".gc('inner') without gc() is said as a warning and the case still runs", async () => {
    const suite = await load(() => mitata.bench('alloc', () => new Array(64).fill(1)).gc('inner'));
    const messages = await runCase(suite, 'alloc');
    expect(ofType(messages, 'result')).toHaveLength(1);
    expect(ofType(messages, 'warning')[0]!.message).toMatch(/exposes no gc\(\).*--expose-gc/);
  });

  it('async cases are awaited every iteration', async () => {
    const suite = await load(() => mitata.bench('async', async () => (await Promise.resolve(5)) + 1));
    const [result] = ofType(await runCase(suite, 'async'), 'result');
    expect(result!.async).toBe(true);
    expect(result!.digest.summary).toBe('number 6');
  });

  it('computed arguments (yield { [0]() {}, bench(p) {} }): fresh for every call, made before each batch, not while it is timed', async () => {
    const events: string[] = [];
    const seen = new Set<unknown>();
    let reused = 0;
    const suite = await load(() =>
      mitata.bench('params', function* () {
        yield {
          [0]: () => (events.push('make'), [3, 1, 2]),
          [1]: () => 10,
          bench(a: number[], k: number) {
            events.push('call');
            if (seen.has(a)) reused++;
            seen.add(a);
            return a.sort().length * k;
          },
        };
      }),
    );
    const [result] = ofType(await runCase(suite, 'params'), 'result');
    expect(result!.digest.summary).toBe('number 30');
    expect(reused).toBe(0);
    const calls = events.filter((e) => e === 'call').length;
    expect(events.filter((e) => e === 'make').length).toBe(calls);
    // Batches: a run of makes, then as many calls; never a make between the calls of one batch.
    const runs = events.join(' ').match(/(make ?)+|(call ?)+/g)!.map((r) => [r.trim().split(' ')[0], r.trim().split(' ').length] as const);
    expect(runs.length).toBeGreaterThan(4);
    const batches = runs.flatMap((r, k) => (r[0] === 'make' ? [[r, runs[k + 1]] as const] : []));
    expect(batches.length).toBe(runs.length / 2);
    for (const [make, call] of batches) expect(call).toEqual(['call', make[1]]);
    expect(Math.max(...batches.map(([make]) => make[1]))).toBeGreaterThan(1);
  });

  it('a file that throws while loading gives unsupported cases with the reason, not a dead process', async () => {
    const suite = await registry.broughtSuite('t', async () => {
      mitata.bench('x', () => 1);
      throw Object.assign(new Error("ENOENT: no such file or directory, open 'data.json'"), { name: 'Error' });
    });
    expect(suite.loadError).toMatch(/reads files while loading/);
    const [unsupported] = ofType(await runCase(suite, 'x'), 'unsupported');
    expect(unsupported!.reason).toBe(suite.loadError);
  });
});
