/**
 * What a claims run asks the planner for: lockstep's sets one per process
 * (every set a fresh process per variant), and with --schedule another
 * timing measurer, without an option only lockstep takes.
 */
import { describe, expect, it } from 'vitest';
import type { PlanFlags, PlanPort, RunRequest } from '@rtbench/run';
import { planClaimsRun, type ClaimsRunSettings } from '../src/run-plan.ts';
import type { ClaimsRunPlan } from '../src/plan.ts';

const SETTINGS: ClaimsRunSettings = { rounds: 6, maxRounds: 16, budgetMs: 60_000, target: 0.02, setMs: 50, family: { confidence: 0.95, size: 1, threshold: 0.02 } };
const PLAN: ClaimsRunPlan = { suite: 'fixture', measure: 'time', variants: ['node', 'bun'], cases: ['a'], checks: [] };

/** Plans a claims run through a port that keeps the flags it was given and answers the least a run request holds. */
async function flagsOf(settings: ClaimsRunSettings): Promise<PlanFlags> {
  let seen: PlanFlags | undefined;
  const port: PlanPort = async ({ flags }) => {
    seen = flags;
    return { suite: { name: 'fixture', cases: [{ id: 'a' }, { id: 'b' }] }, options: { roundPlan: { order: 'balanced', rounds: settings.rounds } } } as unknown as RunRequest;
  };
  await planClaimsRun(port, { name: 'fixture', entry: '/suites/fixture/index.ts' }, PLAN, settings);
  return seen!;
}

describe("a claims run's flags", () => {
  it('ask for independent sets in no measurer\'s words: one set per process, whatever the schedule', async () => {
    for (const schedule of [undefined, 'duet', 'lockstep']) {
      const flags = await flagsOf({ ...SETTINGS, ...(schedule ? { schedule } : {}) });
      expect(flags.schedule).toBe(schedule);
      expect(flags.roundsPerProcess).toBe(1);
      expect(flags.measurerOptions).toBeUndefined();
    }
  });
});
