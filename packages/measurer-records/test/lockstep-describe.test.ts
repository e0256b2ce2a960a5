/** How a lockstep run says it measured (lockstep.ts describeLockstep): the run-up asked for, where the run recorded one. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { LOCKSTEP_RECORD } from '../src/lockstep.ts';

const options = (measurerFields: Record<string, unknown>) => ({ warmupMs: 300, warmupMinMs: 100, timeMs: 600, rounds: 6, measurerFields }) as unknown as RunRecord['options'];

describe('a lockstep run in words', () => {
  it('says the run-up each sample had where the run asked one, and nothing of it where not', () => {
    const asked = LOCKSTEP_RECORD.describe(options({ processes: 'per-case', startedAhead: true, runUpMs: 150 })).rounds;
    expect(asked).toContain('each sample followed at least 150 ms of the case run untimed');
    const not = LOCKSTEP_RECORD.describe(options({ processes: 'per-case', startedAhead: true })).rounds;
    expect(not).not.toContain('untimed (--run-up');
  });
});
