/** The plan's flags at their edges (src/plan.ts): each refusal names the option as typed, and each bound is where it says. */
import { describe, expect, it } from 'vitest';
import { MEASURERS } from '@rtbench/measurers';
import { DEFAULT_MEASURER, makePlan, roundPlanFrom, startingTimeMs } from '../src/plan.ts';
import { parsePercent } from '../src/args/options.ts';

describe('a refused value names its option', () => {
  it('--rounds, --target and --max-time in the round plan', () => {
    expect(() => roundPlanFrom({ rounds: 'many' }, false)).toThrow(/^--rounds "?many"?/);
    expect(() => roundPlanFrom({ target: 'tight' }, false)).toThrow(/^--target tight: expected a percentage/);
    expect(() => roundPlanFrom({ maxTime: 'long' }, false)).toThrow(/^--max-time long: /);
  });

  it('--time, --warmup and --timeout in the plan', async () => {
    await expect(makePlan('trig', { runtime: ['node'], time: 'soon' })).rejects.toThrow(/^--time soon: /);
    await expect(makePlan('trig', { runtime: ['node'], warmup: 'soon' })).rejects.toThrow(/^--warmup soon: /);
    await expect(makePlan('trig', { runtime: ['node'], timeout: 'soon' })).rejects.toThrow(/^--timeout soon: /);
  });

  it('--schedule with --measure: a schedule is for timing', async () => {
    await expect(makePlan('trig', { runtime: ['node'], measure: 'instructions', schedule: 'lockstep' })).rejects.toThrow(/^--schedule applies to timing; --measure instructions is counted under valgrind/);
  });
});

describe('--schedule as written', () => {
  it('takes a name with spaces around it', async () => {
    // Refused for its time-out, so after the schedule was read: a schedule it could not read is refused first.
    await expect(makePlan('trig', { runtime: ['node'], schedule: ' lockstep-per-case ', timeout: '1ms' })).rejects.toThrow(/^--timeout 1ms is not longer/);
  });

  it('lists each schedule once with its help, only the default marked', async () => {
    const message = ((await makePlan('trig', { runtime: ['node'], schedule: 'sometimes' }).catch((e: Error) => e)) as Error).message;
    for (const s of MEASURERS.chosenBy('schedule')) {
      expect(message.split(`${s.name} (`)).toHaveLength(2);
      if (s !== DEFAULT_MEASURER) expect(message).toContain(`${s.name} (${s.help})`);
    }
  });
});

describe('a percentage and a cap at their edges', () => {
  it('keeps every decimal of a percentage', () => {
    expect(parsePercent('2.55', '--target')).toBeCloseTo(0.0255, 12);
    expect(parsePercent('0.125%', '--target')).toBeCloseTo(0.00125, 12);
  });

  it('takes --max-rounds equal to --rounds', () => {
    expect(roundPlanFrom({ rounds: '10', maxRounds: '10', target: '2%' }, false).adaptive?.maxRounds).toBe(10);
  });
});

describe('startingTimeMs without the rule', () => {
  it('keeps --time whole over however many rounds a precise design starts from', () => {
    expect(startingTimeMs(240, { order: 'shuffled', rounds: 10, adaptive: { target: 0.02, maxRounds: 30 } }, {}, 6)).toBe(240);
    expect(startingTimeMs(240, { order: 'shuffled', rounds: 10 }, {}, 6)).toBe(240);
  });
});
