/**
 * The tinybench adapter: Bench/add/run declare rtbench cases, the hooks run
 * in tinybench's order with `this` = the task, and what a file reads back
 * after `await bench.run()` is there and holds no timings.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as realTinybench from 'tinybench';
import { ofType } from './run-case.ts';

type Adapter = typeof import('../src/tinybench.ts');
type Registry = typeof import('../src/registry.ts');

let tinybench: Adapter;
let registry: Registry;
let runCase: typeof import('./run-case.ts').runCase;

beforeEach(async () => {
  vi.resetModules();
  tinybench = await import('../src/tinybench.ts');
  registry = await import('../src/registry.ts');
  ({ runCase } = await import('./run-case.ts'));
});

const load = (declare: () => unknown) => registry.broughtSuite('t', async () => declare());

describe('declaring', () => {
  it('the .add chain declares one case per task, named as in the file; the Bench name is the group', async () => {
    const suite = await load(async () => {
      const bench = new tinybench.Bench({ name: 'strings', time: 100 });
      bench.add('a', () => 1).add('b', () => 2).add('c', () => 3).remove('c');
      await bench.run();
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['strings / a', 'strings / b']);
    expect(suite.notes).toEqual([expect.stringMatching(/new Bench\(\{ time \}\) is accepted: rtbench's --time/)]);
  });

  it('v2 todo(): listed in bench.todos, never a case, with a note', async () => {
    let todos: string[] = [];
    const suite = await load(async () => {
      const bench = new tinybench.Bench({ name: 'later' });
      bench.add('now', () => 1).todo('some day').todo('with a body', () => 2);
      await bench.run();
      todos = bench.todos.map((t) => t.name);
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['later / now']);
    expect(todos).toEqual(['some day', 'with a body']);
    expect(suite.notes).toContain('bench.todo("some day") is a task to do: not run, as in tinybench');
  });

  it('two unnamed Bench objects keep their tasks apart', async () => {
    const suite = await load(async () => {
      await new tinybench.Bench().add('x', () => 1).run();
      await new tinybench.Bench().add('x', () => 2).run();
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['bench 1 / x', 'bench 2 / x']);
  });

  it('a duplicate task name throws as in tinybench', () => {
    const ours = new tinybench.Bench().add('x', () => 1);
    const theirs = new realTinybench.Bench().add('x', () => 1);
    expect(() => ours.add('x', () => 2)).toThrow('Task "x" already exists');
    expect(() => theirs.add('x', () => 2)).toThrow('Task "x" already exists');
  });

  it('after run(): tasks, results, task.result and table() are there and hold no timings', async () => {
    const bench = new tinybench.Bench();
    bench.add('parse', () => JSON.parse('[1]'));
    const tasks = await bench.run();
    expect(tasks.map((t) => t.name)).toEqual(['parse']);
    expect(bench.tasks).toEqual(tasks);
    const result = tasks[0]!.result;
    expect(result.state).toBe('not-started');
    expect(Number.isNaN(result.latency.mean)).toBe(true);
    expect(Number.isNaN(result.throughput.mean)).toBe(true);
    expect(Number.isNaN(result.hz)).toBe(true);
    expect(result.latency.samples).toEqual([]);
    expect(bench.results).toEqual([result]);
    expect(bench.table()).toEqual([{ 'Task name': 'parse', rtbench: expect.stringMatching(/measured by rtbench/) }]);
    // A converter that reads figures gets NaN; one that throws falls back to rtbench's row.
    expect(bench.table((t) => ({ name: t.name, mean: t.result.latency.mean }))).toEqual([{ name: 'parse', mean: NaN }]);
    expect(bench.table(() => { throw new Error('x'); })).toEqual([{ 'Task name': 'parse', rtbench: expect.any(String) }]);
    await bench.warmup();
    expect(bench.runSync()).toEqual(tasks);
  });
});

describe('running the tasks', () => {
  it('hooks run in tinybench order with this = the task; beforeEach/afterEach around every call, with a warning', async () => {
    const log: string[] = [];
    let calls = 0;
    let self: unknown;
    let bench!: InstanceType<Adapter['Bench']>;
    const suite = await load(() => {
      bench = new tinybench.Bench({
        setup: (task) => void log.push(`setup ${task?.name}`),
        teardown: (task) => void log.push(`teardown ${task?.name}`),
      });
      bench.add(
        'hooked',
        function (this: unknown) {
          self = this;
          calls++;
          return calls;
        },
        {
          beforeAll() {
            log.push(`beforeAll ${this.name}`);
          },
          beforeEach() {
            log.push('beforeEach');
          },
          afterEach() {
            log.push('afterEach');
          },
          afterAll() {
            log.push('afterAll');
          },
        },
      );
    });
    const messages = await runCase(suite, 'hooked');
    expect(ofType(messages, 'result')).toHaveLength(1);
    expect(self).toBe(bench.getTask('hooked'));
    const eaches = log.filter((l) => l === 'beforeEach');
    expect(eaches).toHaveLength(calls);
    expect(log.filter((l) => l === 'afterEach')).toHaveLength(calls);
    expect(log.slice(0, 3)).toEqual(['setup hooked', 'beforeAll hooked', 'beforeEach']);
    expect(log.slice(-2)).toEqual(['afterAll', 'teardown hooked']);
    expect(ofType(messages, 'warning').map((w) => w.message)).toEqual([expect.stringMatching(/^beforeEach\/afterEach run around every call inside the timed batch/)]);
  });

  it('async tasks are awaited, with async hooks', async () => {
    const suite = await load(() =>
      new tinybench.Bench().add('async', async () => (await Promise.resolve(20)) + 1, {
        async beforeEach() {
          await Promise.resolve();
        },
      }),
    );
    const [result] = ofType(await runCase(suite, 'async'), 'result');
    expect(result!.async).toBe(true);
    expect(result!.digest.summary).toBe('number 21');
  });

  it('a task that returns nothing is timed and warned about with the tinybench fix', async () => {
    const suite = await load(() => new tinybench.Bench().add('silent', () => void JSON.parse('[1]')));
    const messages = await runCase(suite, 'silent');
    expect(ofType(messages, 'result')).toHaveLength(1);
    expect(ofType(messages, 'warning').map((w) => w.message)).toEqual([expect.stringMatching(/returns nothing.*bench\.add\('parse', \(\) => JSON\.parse\(text\)\)/)]);
  });
});
