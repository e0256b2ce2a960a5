/**
 * A fixed warmup (--fixed-warmup) is a smoke run's timing: its processes do
 * not grow samples to span the case's collections (the span's windows were
 * most of a slow case's time in the test suite's runs), and a run saved so
 * records it and says in how it was measured that its figures are not
 * measurements. A watched warmup, as every measuring run has, still grows
 * them; a run saved before the record had the field reads as before.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { MEASURER_RECORDS } from '../packages/measurer-records/src/index.ts';
import { timedMeasureOptions } from '../packages/measurers/src/measurers/measure-options.ts';
import { collectedFields } from '../packages/measurers/src/measurers/lockstep.ts';

const setup = { sampleTimeMs: 30, warmupMs: 10, timeoutMs: 60_000 };
const watched = { ...setup, warmupMs: 30, warmupMinMs: 10 };
const options = (fields: Record<string, unknown>, warmupMinMs?: number): RunRecord['options'] => ({
  timeMs: 30,
  warmupMs: warmupMinMs === undefined ? 10 : 30,
  ...(warmupMinMs !== undefined ? { warmupMinMs } : {}),
  rounds: 1,
  timeoutMs: 60_000,
  order: 'shuffled per round and case',
  seed: 1,
  measurerFields: { processes: 'warm', setsPerProcess: 1, ...fields },
});

describe('a fixed warmup is a smoke run', () => {
  it('grows no sample to span collections, and the record says smoke; a watched warmup grows them', () => {
    expect(timedMeasureOptions(setup)).not.toHaveProperty('amortize');
    expect(collectedFields({ needs: [] })).toEqual({ record: { smoke: true } });
    expect(timedMeasureOptions(watched)).toMatchObject({ amortize: true, warmupMinMs: 10 });
    expect(collectedFields(watched)).toEqual({});
    // The memory view collects before sampling instead, watched or not.
    expect(timedMeasureOptions({ ...watched, needs: ['settled-memory'] })).toMatchObject({ collectBeforeSampling: true });
    expect(timedMeasureOptions({ ...watched, needs: ['settled-memory'] })).not.toHaveProperty('amortize');
    expect(collectedFields({ ...setup, needs: ['settled-memory'] })).toEqual({ record: { collectBeforeSampling: true, smoke: true } });
  });

  it('says so in how the saved run was measured, for lockstep and fresh processes', () => {
    for (const record of ['lockstep', 'processes'].map((kind) => MEASURER_RECORDS.recorded(kind))) {
      expect(record.describe(options({ smoke: true })).rounds).toContain('10 ms fixed warmup (a smoke run: samples not grown to span collections, figures not measurements)');
      const adaptive = record.describe(options({}, 10)).rounds;
      expect(adaptive).toContain('10 ms–30 ms warmup (adaptive)');
      expect(adaptive).not.toContain('smoke');
      // Saved before runs recorded smoke (or before the adaptive warmup): a plain warmup, as it was said then.
      const older = record.describe(options({})).rounds;
      expect(older).toMatch(/10 ms warmup[; ]/);
      expect(older).not.toContain('smoke');
    }
  });
});
