/**
 * A claims run of several suites whose one suite cannot be made ready (an
 * app that built on no arm: plan.ts refuses it as the run's own) says so
 * and goes on with the others: the answer notes the checks not made and the
 * exit says a run failed (1). An error of the command itself still ends it.
 * The plan port is a stand-in: nothing is measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '@rtbench/core/usage-error';
import { runCampaign } from '@rtbench/campaign';
import type { PlanPort } from '@rtbench/run';
import { claimsCampaign, type ClaimsStep } from '../src/index.ts';

const SUITES = ['test/fixtures/claims', 'test/fixtures/claims-flip'];
const root = mkdtempSync(join(tmpdir(), 'rtbench-claims-not-made-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const request = (save: string) => ({ suites: SUITES, rounds: 3, maxRounds: 3, setMs: 5, budgetMs: 60_000, threshold: 0.02, confidence: 0.95, resultsDir: root, save: join(root, save) });

describe('a claims run whose suite cannot be made ready', () => {
  it('says each such run, plans the next, notes the checks not made and exits 1', async () => {
    const asked: string[] = [];
    // Every run's app "built on no arm": each is the run's own failure.
    const port: PlanPort = async ({ suite }) => {
      asked.push(suite);
      throw new UsageError([`node: the Workers side was not built: a build failed (${suite})`], { ofRun: true });
    };
    const planner = await claimsCampaign(request('own'), port);
    const steps: ClaimsStep[] = [];
    let notes: string[] = [];
    const exit = await runCampaign(planner, { budgetMs: 60_000 }, (e) => {
      if (e.kind === 'step') steps.push(e.step as ClaimsStep);
      if (e.kind === 'finished') notes = (e.view as { notes: string[] }).notes;
    });
    expect(exit).toBe(1);
    // Both suites were asked for: the first one's failure did not end the run.
    expect(new Set(asked.map((s) => s.split('/').at(-2)))).toEqual(new Set(['claims', 'claims-flip']));
    expect(steps.length).toBe(asked.length);
    expect(steps.every((s) => s.kind === 'not-checked' && s.checks > 0 && s.reason.includes('was not built'))).toBe(true);
    expect(notes).toHaveLength(steps.length);
    expect(notes[0]).toMatch(/^claims-[a-z]+: \d+ checks? not made: node: the Workers side was not built/);
  });

  it("ends at an error of the command's own, as before", async () => {
    const port: PlanPort = async () => {
      throw new UsageError('--timeout 0s: not a duration');
    };
    const planner = await claimsCampaign(request('command'), port);
    await expect(runCampaign(planner, { budgetMs: 60_000 }, () => {})).rejects.toThrow('--timeout 0s: not a duration');
  });
});
