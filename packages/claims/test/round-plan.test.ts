/**
 * A claims run's round plan keeps the rounds its plan counted per arm: a
 * measurer that seats two arms a round (a duet of k arms gives each arm a
 * pair every k − 1 rounds) gets k − 1 times the sets first and at the most,
 * so every arm gets the sets claims asks for.
 */
import { describe, expect, it } from 'vitest';
import { roundsPerArm, type RoundPlan } from '@rtbench/run';
import { MEASURERS } from '@rtbench/measurers';
import { MIN_UNITS } from '@rtbench/stats';
import { claimsRoundPlan } from '../src/index.ts';
import { fewSets } from '../src/run-plan.ts';

const ASKED = { rounds: 6, maxRounds: 16, budgetMs: 60_000, target: 0.02 };
/** The measurers that seat some of the arms a round, as the registry lists them. */
const seating = MEASURERS.every().filter((m) => m.roundsPerPair !== undefined);
/** The plan's own round plan for `arms` arms of `perPair` (makePlan: roundsPerArm with the measurer's roundsPerPair). */
const plannedFor = (arms: number, perPair: (arms: number) => number): [RoundPlan, number] => {
  const { roundPlan, perArm } = roundsPerArm({ roundPlan: { order: 'balanced', rounds: ASKED.rounds }, timeMs: 300 }, perPair(arms));
  return [roundPlan, perArm];
};

describe("a claims run's round plan", () => {
  it('is the sets asked, balanced, adding sets up to the most within the budget, when every round samples every arm', () => {
    expect(claimsRoundPlan({ order: 'shuffled', rounds: 6 }, ASKED)).toEqual({ order: 'balanced', rounds: 6, adaptive: { target: 0.02, maxRounds: 16, budgetMs: 60_000 } });
  });

  it("keeps a measurer's rounds per arm: with four arms, three times the sets first and at the most", () => {
    expect(seating.length).toBeGreaterThan(0);
    for (const measurer of seating) {
      const perPair = measurer.roundsPerPair!;
      expect(perPair(4), measurer.name).toBe(3);
      const [four, perArm] = plannedFor(4, perPair);
      expect(perArm, measurer.name).toBe(3);
      const plan = claimsRoundPlan(four, ASKED, perArm);
      expect(plan, measurer.name).toEqual({ order: 'balanced', rounds: 18, adaptive: { target: 0.02, maxRounds: 48, budgetMs: 60_000 } });
      // Two arms: one pair a round, as lockstep.
      const [two, perArmOfTwo] = plannedFor(2, perPair);
      expect(claimsRoundPlan(two, ASKED, perArmOfTwo).adaptive!.maxRounds, measurer.name).toBe(16);
    }
  });
});

describe('first sets too few for an interval', () => {
  it('are named only when the first sets give no interval, and undecidable when --max-rounds gives none either', () => {
    expect(fewSets({ rounds: MIN_UNITS, maxRounds: 16 })).toBeUndefined();
    expect(fewSets({ rounds: 1, maxRounds: 16 })).toEqual({ rounds: 1, maxRounds: 16, needs: MIN_UNITS, undecidable: false });
    expect(fewSets({ rounds: 1, maxRounds: MIN_UNITS - 1 })?.undecidable).toBe(true);
  });
});
