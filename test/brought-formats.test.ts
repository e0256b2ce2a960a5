/**
 * Node.js core benchmark files, node:bench, Deno.bench, vitest bench() and
 * benchmark.js files, run
 * unchanged by `rtbench run` on node, deno, bun and workerd with a minimal
 * budget: one run per format (the examples/ files written in each format),
 * every case timed on every runtime, names as each format's own plugin shows
 * them. No assertion is on time. What is refused before any runtime is
 * asked: packages/cli/test/refused-inputs.test.ts; a Deno file whose
 * deno.json maps an import to the network, refused as it is bundled:
 * packages/cli/test/usage-probed.test.ts.
 *
 * The formats rtbench runs as it runs a suite's cases, each in processes of
 * its own (node:bench, vitest bench(), benchmark.js), are checked for their
 * listing, names, notes and digests, which are the same whichever process
 * serves a case: their files run each runtime's cases in one warm process
 * (lockstep-shared), a process a case having been most of their CPU. A case in
 * processes of its own on all four runtimes is run by the Node core and
 * Deno.bench files, whose formats require it, and by examples.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { runCliAsync, tempFile } from './helpers/cli.ts';

const RUNTIMES: readonly string[] = ['node', 'deno', 'bun', 'workerd'];
const TINY_BUDGET = ['--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '1', '--quiet'];
/** One warm process a runtime for all of a file's cases. */
const SHARED = ['--schedule', 'lockstep-shared'];

async function runFile(file: string, extra: string[] = [], runtimes = RUNTIMES): Promise<{ run: RunRecord; status: number | null; stderr: string }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['run', file, '--runtime', runtimes.join(','), ...TINY_BUDGET, ...extra, '--save', out]);
  return { run: JSON.parse(readFileSync(out, 'utf8')) as RunRecord, status: r.status, stderr: r.stderr };
}

function expectAllTimed(run: RunRecord, variants = RUNTIMES): void {
  expect(run.variants.map((v) => v.id)).toEqual(variants);
  for (const result of run.results) expect([result.caseId, result.variantId, result.status, result.failures.filter((f) => f.kind !== 'warning')]).toEqual([result.caseId, result.variantId, 'ok', []]);
}

/**
 * The node:bench file on the four runtimes and on node@22, which has no node:bench module, in one run: a run's listing
 * is the first runtime's, each runtime loads the file where it runs.
 */
let urlRun: ReturnType<typeof runFile> | undefined;
const nodeBenchUrl = (): ReturnType<typeof runFile> => (urlRun ??= runFile(join('examples', 'node-bench-url.mjs'), SHARED, [...RUNTIMES, 'node@22']));

// Side by side: each test is a run of its own (most of a run is its processes starting and warming up).
describe.concurrent('brought formats on all four runtimes', () => {
  it('a Node core benchmark/ file: configurations named as compare.js names them, --set applied, the no-result note', async () => {
    const file = join('examples', 'node-core', 'benchmark', 'buffers', 'buffer-read-write.js');
    const { run, status, stderr } = await runFile(file, ['--set', 'size=64', '--set', 'method=readUInt32LE', '--set', 'method=writeUInt32LE']);
    expect(status, stderr).toBe(0);
    expectAllTimed(run);
    expect(run.cases.map((c) => c.id)).toEqual(["n=1000000 size=64 method='readUInt32LE'", "n=1000000 size=64 method='writeUInt32LE'"]);
    expect(stderr).toContain('note: main() returns nothing');
    // Returning nothing is how Node core's files are written: not a case without work.
    expect(run.results.map((r) => [r.rounds[0]?.digest.summary, r.withoutWork?.returnsUndefined ?? false])).toEqual(run.results.map(() => ["undefined (Node core's main() times a region and returns nothing)", false]));
    // Each configuration in processes of its own, as Node's harness runs it.
    expect(run.options.measurerFields).toMatchObject({ processes: 'per-case' });
    expect(stderr).toContain('note: a Node core file: each configuration runs in processes of its own');
  });

  it('a node:bench file as its documentation writes one: names and params as node --bench shows them, skip noted, rtbench says whose module ran', async () => {
    const { run, status, stderr } = await nodeBenchUrl();
    expect(status, stderr).toBe(0);
    expectAllTimed(run, [...RUNTIMES, 'node@22']);
    expect(run.cases.map((c) => c.id)).toEqual(['URL / construct [input="short"]', 'URL / searchParams [pairs=8]', 'record']);
    expect(stderr).toContain('note: node:bench: rtbench used its own implementation');
    expect(stderr).toContain('note: skipped: URL > not yet');
  });

  it('node-bench-json.mjs: params from a loop, names as node --bench shows them under their suite', async () => {
    // On node alone: the names are the listing's, and the format runs on the four runtimes in the test above.
    const { run, status, stderr } = await runFile(join('examples', 'node-bench-json.mjs'), SHARED, ['node']);
    expect(status, stderr).toBe(0);
    expect(run.variants.map((v) => v.id)).toEqual(['node']);
    for (const result of run.results) expect([result.caseId, result.status]).toEqual([result.caseId, 'ok']);
    expect(run.cases.map((c) => c.id)).toEqual(['JSON / parse [rows=10]', 'JSON / stringify [rows=10]', 'JSON / parse [rows=100]', 'JSON / stringify [rows=100]', 'sort 1000 numbers']);
  });

  it('a Deno.bench file: groups, manual timing, ignore', async () => {
    const { run, status, stderr } = await runFile(join('examples', 'deno-text.bench.ts'));
    expect(status, stderr).toBe(0);
    expectAllTimed(run);
    expect(run.cases.map((c) => c.id)).toEqual(['text / encode', 'text / decode', 'text / encodeInto', 'sort 1000 numbers (manual timing)']);
    expect(run.digestMismatches).toEqual([]);
    expect(stderr).toContain('note: ignored: ignored (ignore: true)');
    // Each benchmark in processes of its own: in shared ones a benchmark reads the heap the others left.
    expect(run.options.measurerFields).toMatchObject({ processes: 'per-case' });
    expect(stderr).toContain('note: a Deno.bench file: each benchmark runs in processes of its own');
  });
});

describe.concurrent('vitest bench() and benchmark.js files, Deno.bench taken out by destructuring, on all four runtimes', () => {
  it('a vitest bench file: describe blocks as groups, skip and options noted, cases that return nothing compared by what can be proven', async () => {
    const { run, status, stderr } = await runFile(join('examples', 'vitest-strings.bench.ts'), SHARED);
    expect(status, stderr).toBe(0);
    expectAllTimed(run);
    expect(run.cases.map((c) => c.id)).toEqual(['join 200 parts / Array.prototype.join', 'join 200 parts / += in a loop', 'sort / numbers']);
    expect(stderr).toContain('note: skipped: join 200 parts > not yet (.skip), as vitest skips it');
    expect(stderr).toContain("note: bench(name, fn, { time }) is accepted: rtbench's --time");
    // Every benchmark returns nothing: the runtimes agree on what can be proven, so the cells are not marked as without work.
    expect(run.digestMismatches).toEqual([]);
    for (const r of run.results) {
      expect([r.caseId, r.rounds[0]!.digest.summary, r.withoutWork?.returnsUndefined ?? false]).toEqual([r.caseId, 'ReturnedNothing{3 keys}', false]);
      expect(r.failures.filter((f) => f.kind === 'warning').map((f) => f.message)).toEqual([expect.stringMatching(/^returns nothing \(undefined\): the check that every runtime did the same work compares what can be proven without a value — the same source \(sha256 [0-9a-f]{16} /)]);
    }
  });

  it('a benchmark.js suite: required as CommonJS, its add() chain, a deferred benchmark, handlers not called', async () => {
    const { run, status, stderr } = await runFile(join('examples', 'benchmark-js-find.cjs'), SHARED);
    expect(status, stderr).toBe(0);
    expectAllTimed(run);
    expect(run.cases.map((c) => c.id)).toEqual(['find o / RegExp#test', 'find o / String#indexOf', 'find o / deferred']);
    expect(run.digestMismatches).toEqual([]);
    expect(run.results.find((r) => r.caseId === 'find o / String#indexOf')!.rounds[0]!.digest.summary).toBe('boolean true');
    expect(stderr).toContain("note: benchmark.js's on('cycle' | 'complete' | …) handlers are not called");
    expect(stderr).toContain("note: benchmark.js's { minSamples } is accepted");
  });

  // On node (no such global: the rewrite stands alone) and deno (the rewrite over deno's own global); the format runs on the four runtimes above.
  it('a Deno.bench file that takes bench out of Deno by destructuring', async () => {
    const { run, status, stderr } = await runFile(join('test', 'fixtures', 'brought', 'deno-destructured.bench.mjs'), [], ['node', 'deno']);
    expect(status, stderr).toBe(0);
    expectAllTimed(run, ['node', 'deno']);
    expect(run.cases.map((c) => c.id)).toEqual(['encode', 'loops / sum to 1000']);
    expect(run.digestMismatches).toEqual([]);
    expect(run.results.find((r) => r.caseId === 'loops / sum to 1000')!.rounds[0]!.digest.summary).toBe('number 499500');
  });
});

describe.concurrent('values a file declares random or per-runtime', () => {
  it('random (--random) and per-runtime (a comment) cases agree by their shape on two runtimes; the others by their values, a planted difference caught', async () => {
    const { run, status, stderr } = await runFile(join('test', 'fixtures', 'brought', 'random-values.mjs'), ['--random', 'ids / random*'], ['node', 'workerd']);
    expect(status, stderr).toBe(1);
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['ids / planted']);
    const summary = (caseId: string) => run.results.find((r) => r.caseId === caseId)!.rounds[0]!.digest.summary;
    expect([summary('ids / randomUUID'), summary("ids / runtime's own"), summary('ids / counter')]).toEqual(['ValueShape{2 keys}', 'ValueShape{2 keys}', 'Array(3)']);
    const warnings = run.results.find((r) => r.caseId === 'ids / randomUUID' && r.variantId === 'workerd')!.failures.filter((f) => f.kind === 'warning');
    expect(warnings.map((f) => f.message)).toEqual([expect.stringContaining('its value is declared random (--random or')]);
  });

  it("a file that draws its input with Math.random at its top level: the same input on the four runtimes, a timed Math.random() still each runtime's own", async () => {
    const { run, status, stderr } = await runFile(join('test', 'fixtures', 'brought', 'drawn-at-load.mjs'));
    expect(status, stderr).toBe(1);
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['draw']);
    const hashes = run.results.filter((r) => r.caseId === 'char codes').map((r) => r.rounds[0]!.digest.hash);
    expect(hashes).toHaveLength(4);
    expect(new Set(hashes).size).toBe(1);
  });
});

describe.concurrent('where the files come from', () => {
  it("a Deno.bench file in a Deno workspace: its imports resolve through deno.json (members by name and export, import maps) on all four runtimes", async () => {
    const { run, status, stderr } = await runFile(join('test', 'fixtures', 'brought', 'deno-workspace', 'bench', 'pad_bench.ts'));
    expect(status, stderr).toBe(0);
    expectAllTimed(run);
    // The name carries the member's exported VERSION: the import resolved to the workspace's own file.
    expect(run.cases.map((c) => c.id)).toEqual(['pad / padLeft 0.0.0', 'pad / aliased']);
  });

  it("a node:bench file on node@22, which has no node:bench module: rtbench's own runs it", async () => {
    const { run, status, stderr } = await nodeBenchUrl();
    expect(status, stderr).toBe(0);
    expect(run.variants.find((v) => v.id === 'node@22')?.version).toMatch(/^22\./);
    expect(run.results.filter((x) => x.variantId === 'node@22').map((x) => [x.caseId, x.status])).toEqual([
      ['URL / construct [input="short"]', 'ok'],
      ['URL / searchParams [pairs=8]', 'ok'],
      ['record', 'ok'],
    ]);
  });
});
