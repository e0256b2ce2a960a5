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
  it('asks lockstep (the default schedule) for one set per process', async () => {
    const flags = await flagsOf(SETTINGS);
    expect(flags.schedule).toBeUndefined();
    expect(flags.measurerOptions).toEqual({ 'sets-per-process': 1 });
  });

  it('passes --schedule duet on, without lockstep’s own option', async () => {
    const flags = await flagsOf({ ...SETTINGS, schedule: 'duet' });
    expect(flags.schedule).toBe('duet');
    expect(flags.measurerOptions).toBeUndefined();
  });

  it('keeps the option for a schedule named lockstep', async () => {
    const flags = await flagsOf({ ...SETTINGS, schedule: 'lockstep' });
    expect(flags).toMatchObject({ schedule: 'lockstep', measurerOptions: { 'sets-per-process': 1 } });
  });
});
