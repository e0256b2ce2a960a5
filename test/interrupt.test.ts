/**
 * Signals in the middle of a run. Ctrl-C (and SIGTERM, SIGHUP) to the CLI: the
 * measured part is saved, nothing is left running. SIGSTOP from a case to its own
 * runtime process: said as that cause, not as a slow case to raise --timeout for
 * (its run waits out its --timeout, idle, beside the signalled runs). No assertion
 * is on time. Each signalled test benches its own copy of the sleeps fixture (a case that sleeps, so the
 * seconds of sampling a signal lands in cost no CPU) under a suite name of its own,
 * so "no process left that mentions its bundles" is about its run alone: the tests
 * run side by side, and beside other files (most of a test is waiting on the run).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { spawn } from 'node:child_process';
import { fixture, repoRoot, runCliAsync, spawnCli, tempFile } from './helpers/cli.ts';

/** PIDs of processes whose command line mentions `needle` (Linux /proc). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(join('/proc', entry, 'cmdline'), 'utf8');
      if (cmdline.includes(needle)) pids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

/**
 * A copy of test/fixtures/sleeps named `name`, inside the repository where
 * `@rtbench/core` resolves. Its bundles go to a folder named after its path
 * (.rtbench-cache/bundles/…/test-interrupt/<name>/index.ts/), which only the
 * command lines of its runtime processes hold (the CLI's names the file).
 */
function sleepsNamed(name: string): { suite: string; bundles: string } {
  const dir = join(repoRoot, '.rtbench-cache', 'test-interrupt', name);
  mkdirSync(dir, { recursive: true });
  const source = readFileSync(fixture('sleeps'), 'utf8').replace("suite('sleeps',", `suite('${name}',`);
  if (!source.includes(`suite('${name}',`)) throw new Error('test/fixtures/sleeps no longer declares suite(\'sleeps\', …)');
  writeFileSync(join(dir, 'index.ts'), source);
  return { suite: join(dir, 'index.ts'), bundles: `/test-interrupt/${name}/index.ts/` };
}

/**
 * Waits until the run saved its first round to `out` and a runtime process of
 * its suite (`bundles`) is running: the next round's, which the lockstep
 * measurer starts before it saves the one before (its warmup is off the
 * clock). The signal lands there, with a measured round on disk and a
 * runtime to end.
 */
async function pastFirstRound(out: string, bundles: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(existsSync(out) && processesMentioning(bundles).length > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  expect(existsSync(out)).toBe(true);
  expect(processesMentioning(bundles)).not.toEqual([]);
}

/**
 * The run each test signals: twenty rounds of 200 ms, so its first is saved
 * soon and the rest sleep for four seconds more, far longer than a loaded
 * machine takes to deliver the signal. A watched warmup: a smoke run
 * (--fixed-warmup) takes three samples a round whatever --time.
 */
const longRun = (suite: string, out: string): string[] => ['bench', suite, '--runtime', 'node@24', '--time', '4s', '--rounds', '20', '--warmup', '10ms', '--save', out, '--quiet'];

describe.concurrent('interrupting a run', () => {
  it.each([
    ['SIGINT', 130, 'interrupted'],
    ['SIGTERM', 143, 'terminated (SIGTERM)'],
    ['SIGHUP', 129, 'hung up (SIGHUP)'],
  ] as const)('%s: saves what was measured with status "interrupted", exits %i and leaves no runtime process', async (signal, exitCode, said) => {
    const out = tempFile('run.json');
    const copy = sleepsNamed(`interrupt-${signal.toLowerCase()}`);
    const child = spawnCli(longRun(copy.suite, out));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await pastFirstRound(out, copy.bundles);
    child.kill(signal);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code, stderr).toBe(exitCode);
    expect(stderr).toContain(said);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.status).toBe('interrupted');
    const measured = run.results.filter((r) => r.rounds.length > 0);
    expect(measured.length).toBeGreaterThanOrEqual(1);
    expect(measured[0]!.stats).toBeDefined();
    expect(processesMentioning(copy.bundles)).toEqual([]);
  });

  // The timer starts before the process says hello, so --timeout covers node's start-up on a loaded machine too.
  it('a runtime process that stops itself: reported as stopped and killed, not as a timeout to raise', async () => {
    const out = tempFile('run.json');
    const r = await runCliAsync(['bench', fixture('stops-itself'), '--runtime', 'node', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--timeout', '3s', '--save', out, '--quiet']);
    expect(r.status).toBe(1);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    const failure = run.results[0]!.failures[0]!;
    expect(failure.message).toBe('no result within 3000 ms: the node process was stopped (SIGSTOP or SIGTSTP) and never resumed, and was killed (a case must not stop its own process)');
  });

  it('SIGTERM to pnpm alone: the CLI it started sees it end, saves what was measured and leaves no runtime process', async () => {
    const out = tempFile('run.json');
    const copy = sleepsNamed('interrupt-pnpm');
    // pnpm runs the root script `bench` (tsx → the CLI) and does not pass SIGTERM on to it.
    const pnpm = spawn(join(repoRoot, 'node_modules', '.bin', 'pnpm'), ['--silent', ...longRun(copy.suite, out)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    pnpm.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      await pastFirstRound(out, copy.bundles);
      pnpm.kill('SIGTERM');
      // The pipes close when their last writer, the CLI, has exited.
      await new Promise<void>((resolve) => pnpm.stderr.on('close', () => resolve()));
      expect(stderr).toMatch(/\(pid \d+\), which started rtbench, has ended: stopping/);
      const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
      expect(run.status).toBe('interrupted');
      expect(run.results.some((r) => r.rounds.length > 0)).toBe(true);
      expect(processesMentioning(out)).toEqual([]);
      expect(processesMentioning(copy.bundles)).toEqual([]);
    } finally {
      for (const pid of processesMentioning(out)) process.kill(pid, 'SIGKILL');
    }
  });
});
