/**
 * A case whose promise never settles, on all four runtimes in one run: each
 * names it as such (not a crash, an exit code, a warning about the bundle,
 * or a timeout to raise), well before --timeout, and the cases around it
 * are measured. It runs the default schedule, each case in processes of its
 * own, where a process that only waits must be told from one that exited;
 * the runner's check is the same in a shared warm process. A smoke run
 * (--fixed-warmup): no figure is read, and the case's first call, where it
 * is found never to settle, comes in a fixed warmup as in a watched one.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { NEVER_SETTLES } from '@rtbench/core/execute';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { fixture, runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];

describe('a case whose promise never settles', () => {
  let r: CliResult;
  let run: RunRecord;
  beforeAll(async () => {
    const out = tempFile('never-settles.json');
    // A timeout far above the run's own length: a runtime that idled until it would show as a timeout.
    r = await runCliAsync(['bench', fixture('never-settles'), '--runtime', RUNTIMES.join(','), '--rounds', '1', '--time', '40ms', '--warmup', '20ms', '--fixed-warmup', '--timeout', '10m', '--save', out, '--quiet']);
    run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
  }, 600_000);

  it('is named as such on every runtime', () => {
    expect(r.status).toBe(1);
    for (const runtime of RUNTIMES) {
      const cell = run.results.find((x) => x.caseId === 'never settles' && x.variantId === runtime)!;
      expect(cell.status, runtime).toBe('failed');
      expect(cell.failures.map((f) => [f.kind, f.message]), runtime).toEqual([['error', NEVER_SETTLES]]);
    }
    expect(r.stderr).toContain(`the run failed: "never settles" on node failed (error: ${NEVER_SETTLES})`);
    expect(r.stderr).not.toMatch(/unsettled top-level await|never resolved|exited with code|raise --timeout/);
  });

  it('leaves the cases around it measured', () => {
    for (const runtime of RUNTIMES) {
      for (const caseId of ['settles', 'settles after']) expect(run.results.find((x) => x.caseId === caseId && x.variantId === runtime)?.status, `${caseId} on ${runtime}`).toBe('ok');
    }
  });
});
