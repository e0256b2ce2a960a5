/**
 * The files in examples/, written for mitata and tinybench, run unchanged by
 * `rtbench run <file>` on node, deno, bun and workerd with a minimal budget:
 * every case is timed (or reported unsupported with its reason) on every
 * runtime, the runtimes did the same work, and the warnings the files are
 * built to trigger are there, once per case and runtime (mitata-json.mjs,
 * whose checks are its listing's, on node alone). No assertion is on time.
 * The files run side by side: a short run is mostly waiting on its budget.
 *
 * mitata-async.mjs and tinybench-strings.mjs run as a user's `rtbench run`
 * does, each case in processes of its own; mitata-collections.mjs (eleven
 * cases) and tinybench-arrays.ts run each runtime's cases in one warm process
 * (lockstep-shared): what they check is the format's listing, digests and
 * warnings, which are the same in either, and a process a case was most of
 * their CPU (44 and 20 processes against 4).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { runCliAsync, tempFile } from './helpers/cli.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];
const TINY_BUDGET = ['--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--quiet'];
/** One warm process a runtime for all of a file's cases. */
const SHARED = ['--schedule', 'lockstep-shared'];

async function runExample(file: string, rounds = 1, extra: string[] = []): Promise<{ run: RunRecord; status: number | null; stdout: string; stderr: string }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['run', join('examples', file), ...TINY_BUDGET, '--rounds', String(rounds), ...extra, '--save', out]);
  // Read as written, not through parseRun: on this loaded machine a tiny budget can give a 0 ns median
  // on workerd, whose relative CI is then NaN, which the schema rejects (a stats matter, not this test's).
  const run = JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
  return { run, ...r };
}

const warningsOf = (run: RunRecord, caseId: string, variantId: string): string[] =>
  run.results.find((r) => r.caseId === caseId && r.variantId === variantId)!.failures.filter((f) => f.kind === 'warning').map((f) => f.message);

/** Every case ran on every runtime asked, with a digest that all of them share. */
function expectAllTimedAndAgreeing(run: RunRecord, rounds = 1, runtimes = RUNTIMES): void {
  expect(run.variants.map((v) => v.id)).toEqual(runtimes);
  for (const result of run.results) {
    expect({ case: result.caseId, runtime: result.variantId, status: result.status, failures: result.failures.filter((f) => f.kind !== 'warning') }).toEqual({
      case: result.caseId,
      runtime: result.variantId,
      status: 'ok',
      failures: [],
    });
    expect(result.rounds).toHaveLength(rounds);
  }
  expect(run.digestMismatches).toEqual([]);
}

describe.concurrent('examples/ on all four runtimes', () => {
  it('mitata-json.mjs: $name interpolation, .args, .range, groups, do_not_optimize digested', async () => {
    // On node alone: a run's listing (the names) is its first runtime's process's, and do_not_optimize's digest is
    // read on node; the mitata format runs on the four runtimes in the collections and async files below.
    const { run, status, stderr } = await runExample('mitata-json.mjs', 1, ['--runtime', 'node']);
    expect(status, stderr).toBe(0);
    expectAllTimedAndAgreeing(run, 1, ['node']);
    expect(run.cases.map((c) => c.id)).toEqual([
      'parse / JSON.parse 10 rows',
      'parse / JSON.parse 1000 rows',
      'parse / JSON.parse with reviver 10 rows',
      'parse / JSON.parse with reviver 1000 rows',
      'stringify / JSON.stringify 10 rows',
      'stringify / JSON.stringify 100 rows',
      'stringify / JSON.stringify 1000 rows',
    ]);
    // The reviver case returns nothing but hands its value to do_not_optimize: digested, no warning.
    const reviver = run.results.find((r) => r.caseId === 'parse / JSON.parse with reviver 10 rows' && r.variantId === 'node')!;
    expect(reviver.rounds[0]!.digest.summary).toMatch(/^Object/);
    expect(run.results.flatMap((r) => r.failures)).toEqual([]);
    expect(stderr).toContain('note: summary() is accepted');
  });

  it('mitata-collections.mjs: args tables, the manual loop form, .gc(\'inner\') where gc() exists', async () => {
    const { run, status, stderr } = await runExample('mitata-collections.mjs', 1, SHARED);
    expect(status, stderr).toBe(0);
    expectAllTimedAndAgreeing(run);
    expect(run.cases.map((c) => c.id)).toContain('lookup / Map.get (1024 keys, hit=false)');
    expect(run.cases.map((c) => c.id)).toContain('build / Array.from({ length: 512 })');
    const loop = run.results.find((r) => r.caseId === 'build / Array.from({ length: 512 })' && r.variantId === 'deno')!;
    expect(loop.rounds[0]!.digest.summary).toBe('Array(512)');
    // Bun always has Bun.gc; a lockstep process of the others runs under --expose-gc (the harness's own collections).
    const gcCase = 'build / new Array(4096).fill(0)';
    for (const runtime of ['node', 'deno', 'bun', 'workerd']) expect(warningsOf(run, gcCase, runtime)).toEqual([]);
  });

  it('mitata-async.mjs: async cases and async generator setup', async () => {
    const { run, status, stderr } = await runExample('mitata-async.mjs');
    expect(status, stderr).toBe(0);
    expectAllTimedAndAgreeing(run);
    expect(run.results.every((r) => r.rounds[0]!.async)).toBe(true);
    expect(run.cases.map((c) => c.id)).toEqual([
      'promises / await 1 chained thens',
      'promises / await 5 chained thens',
      'promises / await 9 chained thens',
      'promises / Promise.all of 16 resolved',
      'Response / new Response(text).json()',
      'Response / new Response(bytes).arrayBuffer()',
    ]);
  });

  // That a warning repeated by every round is kept once is the run loop's (packages/run/test/loop.test.ts).
  it('tinybench-strings.mjs: a task that returns nothing is timed and warned about once per runtime', async () => {
    const { run, status, stdout: out, stderr } = await runExample('tinybench-strings.mjs');
    expect(status, stderr).toBe(0);
    expectAllTimedAndAgreeing(run);
    const silent = 'build 500 parts / String.prototype.concat (result unused)';
    for (const runtime of RUNTIMES) {
      expect(warningsOf(run, silent, runtime)).toEqual([expect.stringMatching(/^returns nothing \(undefined\): the check that every runtime did the same work compares what can be proven without a value/)]);
      expect(warningsOf(run, 'build 500 parts / Array.prototype.join', runtime)).toEqual([]);
    }
    expect(out.replace(/\n {2,}/g, ' ').split('\n').filter((line) => line.includes('returns nothing'))).toEqual([expect.stringMatching(new RegExp(`^! ${silent.replace(/[()]/g, '\\$&')} \\(node, deno, bun, workerd\\): returns nothing`))]);
    // beforeAll ran in the task's own process before its first call.
    const reversed = run.results.find((r) => r.caseId === 'build 500 parts / += in a loop, reversed input' && r.variantId === 'workerd')!;
    expect(reversed.rounds[0]!.digest.summary).toBe('string(4390)');
  });

  it('tinybench-arrays.ts: hooks, an async task, and reading results back after run()', async () => {
    const { run, status, stderr, stdout: out } = await runExample('tinybench-arrays.ts', 1, SHARED);
    expect(status, stderr).toBe(0);
    expectAllTimedAndAgreeing(run);
    for (const runtime of RUNTIMES) expect(warningsOf(run, 'shift a queue of 64', runtime)).toEqual([expect.stringMatching(/^beforeEach\/afterEach run around every call/)]);
    expect(run.results.find((r) => r.caseId === 'structuredClone (async)' && r.variantId === 'bun')!.rounds[0]!.async).toBe(true);
    // The file's own reads after run() did not crash (status 0), and what it prints at load stays in the
    // process that listed its cases: the table on stdout is rtbench's alone.
    expect(out).not.toContain('NaN ms');
    expect(out).toContain('shift a queue of 64');
  });

  it('mitata-reads-file.mjs: unsupported, with the reason and advice that works, where the file cannot load', async () => {
    // node stands for the runtimes that read the file where it runs (bun reads it the same way: its fs is node's API).
    const { run, status, stderr } = await runExample('mitata-reads-file.mjs', 1, ['--runtime', 'node,deno,deno --allow-read,workerd']);
    expect(status, stderr).toBe(0);
    const byRuntime = Object.fromEntries(run.results.map((r) => [r.variantId, r]));
    expect(byRuntime.node!.status).toBe('ok');
    expect(byRuntime.deno!.status).toBe('unsupported');
    expect(byRuntime.deno!.failures[0]!.message).toMatch(/deno refused read access while the file loaded \(rtbench gives deno no permission but env\): grant it in the variant, e\.g\. --runtime "deno --allow-read"/);
    // The advice, followed: deno's own permission flag on the variant.
    expect(byRuntime['deno --allow-read']!.status, JSON.stringify(byRuntime['deno --allow-read']!.failures)).toBe('ok');
    expect(byRuntime.workerd!.status).toBe('unsupported');
    expect(byRuntime.workerd!.failures[0]!.message).toMatch(/reads files while loading, and this runtime cannot see them/);
  });
});
