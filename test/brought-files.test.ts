/**
 * A brought file's cases are listed where they will run (a process of the
 * first selected runtime, with the environment measuring processes get), not
 * in the CLI's own Node: a file that calls process.exit(0) at the end, or
 * names a case after a variable of the CLI's shell, runs on all four
 * runtimes as it would under its own harness. No assertion is on time. A
 * file that lists no case on any runtime named is refused in the test's own
 * process: packages/cli/test/usage-probed.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { runCliAsync as runCli, tempFile } from './helpers/cli.ts';

const SHELL_ONLY = 'value-from-the-cli-shell-9f3a';

// Side by side: each test is a run of its own, mostly its processes starting.
describe.concurrent('brought files listed where they run', () => {
  it('a file ending in process.exit(0) that reads the shell and builds a Request with a body at its top level, with a case on deno only: listed with the scrubbed environment on each runtime, run and saved on four runtimes', async () => {
    const out = tempFile('run.json');
    const r = await runCli(['run', join('test', 'fixtures', 'brought', 'exit-after-run.mjs'), '--runtime', 'node,deno,bun,workerd', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '1', '--quiet', '--save', out], { RTBENCH_TEST_SHELL_ONLY: SHELL_ONLY });
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    const run = JSON.parse(text) as RunRecord;
    expect(run.cases.map((c) => c.id)).toEqual(['sees: nothing', 'deno only']);
    expect(run.results.map((x) => [x.caseId, x.variantId, x.status])).toEqual([
      ['sees: nothing', 'node', 'ok'], ['sees: nothing', 'deno', 'ok'], ['sees: nothing', 'bun', 'ok'], ['sees: nothing', 'workerd', 'ok'],
      ['deno only', 'node', 'unsupported'], ['deno only', 'deno', 'ok'], ['deno only', 'bun', 'unsupported'], ['deno only', 'workerd', 'unsupported'],
    ]);
    expect(run.results.find((x) => x.caseId === 'deno only' && x.variantId === 'bun')!.failures[0]!.message).toBe('the file does not define this case on bun');
    expect(r.stderr).toContain('note: cases defined on some runtimes only (unsupported elsewhere): "deno only" on deno only\n');
    expect(text).not.toContain(SHELL_ONLY);
    expect(r.stderr).toContain('note: process.exit(0) in the file is ignored');
  });

  it('a Node core file whose main() never calls bench.end(): the failure says so on node, deno and bun (no unsettled await, no advice to raise --timeout)', async () => {
    const out = tempFile('run.json');
    // bun never ends a stalled await by itself: its failure comes at the case's timeout, kept short here.
    const r = await runCli(['run', join('test', 'fixtures', 'brought', 'benchmark', 'misc', 'no-end.js'), '--runtime', 'node,deno,bun', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '1', '--timeout', '5s', '--quiet', '--save', out]);
    expect(r.status).toBe(1);
    const run = JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
    const message = (variant: string): string => run.results.find((x) => x.variantId === variant)!.failures[0]!.message;
    // The bundle does not await its start at the top level: on every runtime the event loop runs empty and the adapter's own check says why.
    for (const variant of ['node', 'deno', 'bun']) expect(message(variant)).toMatch(/main\(\) returned without calling bench\.end\(\), and nothing it started is still running to call it/);
    expect(message('bun')).not.toContain('raise --timeout');
    expect(r.stderr).not.toContain('unsettled top-level await');
  });

  it('a case that throws: the message names the line of the file and the identifiers as written, not as bundled, on four runtimes', async () => {
    const out = tempFile('run.json');
    const r = await runCli(['run', join('test', 'fixtures', 'brought', 'throws-renamed.mjs'), '--runtime', 'node,deno,bun,workerd', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '1', '--quiet', '--save', out]);
    expect(r.status).toBe(1);
    const run = JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
    for (const result of run.results) {
      const failure = result.failures.find((f) => f.kind === 'error')!;
      expect(failure.message, result.variantId).toMatch(/\bbench\.nothere is not a function/);
      expect(failure.message, result.variantId).not.toMatch(/bench\d/);
      expect(failure.message, result.variantId).toContain(`(at ${join('test', 'fixtures', 'brought', 'throws-renamed.mjs')}:9:16)`);
      expect(failure.stack, result.variantId).toContain('throws-renamed.mjs:9:16');
    }
  });

  it('a tinybench file taken through a runner module, with a native addon built beside it: run where it loads, one line where it cannot, each warning once a case', async () => {
    // The fixture's copy with its addon built by the C compiler (a Node-API module needs no headers of its own).
    const dir = join(tempFile('native-addon'), 'project');
    cpSync(join('test', 'fixtures', 'brought', 'native-addon'), dir, { recursive: true });
    mkdirSync(join(dir, 'build'));
    execFileSync('cc', ['-shared', '-fPIC', '-o', join(dir, 'build', 'addon.node'), join(dir, 'addon.c')]);
    const out = tempFile('run.json');
    const r = await runCli(['run', join(dir, 'bench.mjs'), '--runtime', 'node,bun,workerd', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '2', '--no-color', '--save', out]);
    expect(r.status, r.stderr).toBe(0);
    const run = JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
    const read = (variant: string) => run.results.find((x) => x.caseId === 'read the answer' && x.variantId === variant)!;
    for (const variant of ['node', 'bun']) expect(read(variant).rounds.length, variant).toBe(2);
    expect(read('workerd').failures).toEqual([expect.objectContaining({ kind: 'unsupported', message: expect.stringContaining(`it loads a native addon (${join(dir, 'build', 'addon.node')}), which only a runtime with Node.js's module loader can load`) })]);
    // The case that returns nothing: what was proven without its value said once, naming both runtimes, not once per cell.
    expect(r.stdout.split('\n').filter((l) => l.startsWith('! touch the answer'))).toEqual([expect.stringMatching(/^! touch the answer \(node, bun\): returns nothing \(undefined\): the check that every runtime did the/)]);
  });
});
