/**
 * Containment (packages/process/src/containment.ts): a case that starts a
 * detached `sleep` and one that holds the runtime's stdout, on the four
 * runtimes. One real run serves the first assertions; then the CLI is
 * SIGKILLed while such a case hangs, with the strongest containment this
 * machine allows and with none (RTBENCH_CONTAINMENT=none: the environment
 * marker and the warden). Linux only (reads /proc).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { fixture, runCli, spawnCli, tempFile, type CliResult } from '../helpers/cli.ts';

const SLEEPS = /^sleep 297[12] $/;

/** PIDs of the fixture's sleeps still running (zombies are gone already). */
function sleeps(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return SLEEPS.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(what: string, f: () => boolean, ms = 60_000): Promise<void> {
  for (const deadline = Date.now() + ms; !f(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('a case that starts processes meant to outlive its runtime, on the four runtimes', () => {
  let result: CliResult;
  let run: RunRecord;
  beforeAll(() => {
    const save = tempFile('contained.json');
    // A --timeout far below the sleeps' 2971 s: a job that waited for the held pipe would time out.
    result = runCli(['bench', fixture('spawns-detached'), '--filter', '/sleep$/', '--runtime', 'node,deno,bun,workerd', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--timeout', '20s', '--save', save, '--quiet']);
    run = parseRun(JSON.parse(readFileSync(save, 'utf8')), save);
  }, 180_000);

  it('takes each answer when the runtime exits, though a child of the case still holds its stdout', () => {
    expect(result.status, result.stderr).toBe(0);
    expect(run.results.map((r) => [r.variantId, r.status])).toEqual([
      ['node', 'ok'],
      ['deno', 'ok'],
      ['bun', 'ok'],
      ['workerd', 'ok'],
    ]);
  });

  it('ends every process the case started, says so with their PIDs, and records the containment used', () => {
    expect(sleeps()).toEqual([]);
    // deno (without --allow-run) and workerd cannot start processes; node and bun started two each.
    const left = run.results.map((r) => r.failures.filter((f) => f.kind === 'warning').map((f) => f.message));
    for (const [i, runtime] of ['node', 'deno', 'bun', 'workerd'].entries()) {
      if (runtime === 'node' || runtime === 'bun') expect(left[i]).toEqual([expect.stringMatching(new RegExp(`^the case left 2 processes running when the ${runtime} process exited \\(PID \\d+, \\d+\\); rtbench ended them$`))]);
      else expect(left[i]).toEqual([]);
    }
    expect(run.host.containment).toMatch(/^(cgroup v2 \(|none: )/);
  });
});

describe.each([
  ['the strongest containment available', {}],
  ['no containment but the environment marker', { RTBENCH_CONTAINMENT: 'none' }],
])('the CLI SIGKILLed while a case that started processes hangs, with %s', (_, env: Record<string, string>) => {
  it('leaves none of them running', async () => {
    const before = new Set(sleeps());
    const cli = spawnCli(['bench', fixture('spawns-detached'), '--filter', '/hangs$/', '--runtime', 'node', '--rounds', '1', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--timeout', '10m', '--save', tempFile('killed.json'), '--quiet'], env);
    const exited = new Promise<void>((resolve) => cli.on('close', () => resolve()));
    let started: number[] = [];
    try {
      await until('the case to start its sleeps', () => (started = sleeps().filter((pid) => !before.has(pid))).length === 2);
      process.kill(cli.pid!, 'SIGKILL');
      await exited;
      await until(`the sleeps ${started.join(', ')} to end`, () => started.every((pid) => !sleeps().includes(pid)));
    } finally {
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
    }
  });
});
