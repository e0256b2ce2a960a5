/**
 * vitest's benchmark API (`bench`, `describe`, the suite hooks), as
 * `*.bench.ts` files use it, declaring rtbench cases instead of measuring.
 * rtbench's bundler resolves `import … from 'vitest'` in a brought file here.
 * A case is one `bench()`, its group the names of the `describe` blocks around
 * it (joined with ` > `, as vitest's reporter joins them); tinybench's options
 * vitest passes on are honoured (`setup`, `teardown`) or accepted with a note
 * (`time`, `iterations`, the warmup options: rtbench's own options decide).
 */
import type { CaseBody } from '@rtbench/core';
import { declareCase, note, whenLoaded } from './registry.ts';

type Fn = () => unknown;
type Hook = () => unknown;
type TaskHook = (task?: unknown, mode?: 'run' | 'warmup') => unknown;

export interface BenchOptions {
  time?: number;
  iterations?: number;
  warmupTime?: number;
  warmupIterations?: number;
  setup?: TaskHook;
  teardown?: TaskHook;
  throws?: boolean;
  now?: () => number;
  signal?: AbortSignal;
  [option: string]: unknown;
}

interface Block {
  readonly name: string | undefined;
  readonly parent: Block | undefined;
  readonly mode: Mode;
  readonly hooks: { beforeAll: Hook[]; afterAll: Hook[]; beforeEach: Hook[]; afterEach: Hook[] };
  /** Its benchmarks and blocks, in the order the file declares them; a block's own are collected when it is. */
  readonly items: Item[];
}

type Mode = 'run' | 'skip' | 'only' | 'todo';

interface Declared {
  readonly name: string;
  readonly fn: Fn;
  readonly options: BenchOptions;
  readonly block: Block;
  readonly mode: Mode;
}

type Item = { readonly bench: Declared } | { readonly block: Block; readonly define: () => unknown };

const newBlock = (name: string | undefined, parent: Block | undefined, mode: Mode): Block => ({ name, parent, mode, hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] }, items: [] });

const root = newBlock(undefined, undefined, 'run');
let current = root;

/** The blocks from the outermost to `block`. */
function pathOf(block: Block): Block[] {
  const path: Block[] = [];
  for (let b: Block | undefined = block; b; b = b.parent) path.unshift(b);
  return path;
}

function inMode(block: Block, mode: Mode): boolean {
  return pathOf(block).some((b) => b.mode === mode);
}

function declareBench(mode: Mode, name: string, fn?: Fn, options: BenchOptions = {}): void {
  if (typeof fn !== 'function') {
    if (mode !== 'todo') throw new TypeError(`bench("${name}"): missing bench function`);
    note(`bench.todo("${name}") is a benchmark to write: not run, as in vitest`);
    return;
  }
  const budget = ['time', 'iterations', 'warmupTime', 'warmupIterations'].filter((k) => options[k] !== undefined);
  if (budget.length) note(`bench(name, fn, { ${budget.join(', ')} }) is accepted: rtbench's --time, --rounds and --warmup decide how long each benchmark is measured`);
  current.items.push({ bench: { name, fn, options, block: current, mode } });
}

/** A block is collected once the file has loaded, as vitest collects it: its body runs then, awaited when async. */
function describeBlock(mode: Mode, name: string, define?: () => unknown): void {
  if (typeof define !== 'function') {
    note(`describe.todo("${name}") is a block to write: not run, as in vitest`);
    return;
  }
  current.items.push({ block: newBlock(name, current, mode), define });
}

/** The benchmarks under `block`, in the file's order, each block's body run (and awaited) with the block current. */
async function collect(block: Block, into: Declared[]): Promise<void> {
  for (let i = 0; i < block.items.length; i++) {
    const item = block.items[i]!;
    if ('bench' in item) {
      into.push(item.bench);
      continue;
    }
    const parent = current;
    current = item.block;
    try {
      await item.define();
    } finally {
      current = parent;
    }
    await collect(item.block, into);
  }
}

type BenchCall = (name: string, fn?: Fn, options?: BenchOptions) => void;
const benchIn = (mode: Mode): BenchCall => (name, fn, options) => declareBench(mode, name, fn, options);

/** vitest's `bench(name, fn, options)`, with `.skip`, `.only`, `.todo`, and `.skipIf(c)` / `.runIf(c)` (bench or its skip, by the condition). */
export const bench = Object.assign(benchIn('run'), {
  skip: benchIn('skip'),
  only: benchIn('only'),
  todo: (name: string) => declareBench('todo', name),
  skipIf: (condition: unknown): BenchCall => benchIn(condition ? 'skip' : 'run'),
  runIf: (condition: unknown): BenchCall => benchIn(condition ? 'run' : 'skip'),
});

function blockApi(): ((name: string, define?: () => unknown) => void) & Record<'skip' | 'only', (name: string, define?: () => unknown) => void> & { todo: (name: string) => void } {
  return Object.assign((name: string, define?: () => unknown) => describeBlock('run', name, define), {
    skip: (name: string, define?: () => unknown) => describeBlock('skip', name, define),
    only: (name: string, define?: () => unknown) => describeBlock('only', name, define),
    todo: (name: string) => describeBlock('todo', name),
  });
}

/** vitest's `describe(name, fn)`, with `.skip`, `.only` and `.todo`. */
export const describe = blockApi();
/** vitest's `suite`: another name for describe, as vitest exports it. */
export const suite = blockApi();

function hook(kind: keyof Block['hooks']): (fn: Hook) => void {
  return (fn) => {
    current.hooks[kind].push(fn);
    note("vitest's beforeAll/afterAll/beforeEach/afterEach run around each benchmark in its own process, outside the timing (vitest runs them once around its suite or test)");
  };
}
export const beforeAll = hook('beforeAll');
export const afterAll = hook('afterAll');
export const beforeEach = hook('beforeEach');
export const afterEach = hook('afterEach');

whenLoaded(async () => {
  const declared: Declared[] = [];
  await collect(root, declared);
  const anyOnly = declared.some((d) => d.mode === 'only' || inMode(d.block, 'only'));
  for (const d of declared) {
    const path = pathOf(d.block).flatMap((b) => (b.name === undefined ? [] : [b.name]));
    const label = [...path, d.name].join(' > ');
    if (d.mode === 'skip' || inMode(d.block, 'skip')) {
      note(`skipped: ${label} (.skip), as vitest skips it`);
      continue;
    }
    if (anyOnly && d.mode !== 'only' && !inMode(d.block, 'only')) continue;
    declareCase({ format: 'vitest', group: path.length ? path.join(' > ') : undefined, name: d.name, params: {}, idParams: {}, body: bodyFor(d) });
  }
  if (anyOnly) note('only: benchmarks outside .only are left out, as vitest leaves them out');
});

/** The benchmark's hooks, outermost block first before it and innermost first after it, then its own setup and teardown; none timed. */
function bodyFor(d: Declared): CaseBody {
  const blocks = pathOf(d.block);
  return async function* vitestBench() {
    for (const b of blocks) for (const h of [...b.hooks.beforeAll, ...b.hooks.beforeEach]) await h();
    await d.options.setup?.(undefined, 'run');
    yield () => d.fn();
    await d.options.teardown?.(undefined, 'run');
    for (const b of [...blocks].reverse()) for (const h of [...b.hooks.afterEach, ...b.hooks.afterAll]) await h();
  };
}

