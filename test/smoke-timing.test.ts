/**
 * A fixed warmup (--fixed-warmup) is a smoke run's timing: its processes do
 * not grow samples to span the case's collections (the span's windows were
 * most of a slow case's time in the test suite's runs), take three samples of
 * a case whatever --time (a lockstep set three turns), and force no full
 * collection between cases (two a case were a fifth of a smoke run's CPU);
 * a run saved so records it and says in how it was measured that its
 * figures are not measurements. A watched warmup, as every measuring run
 * has, still grows them, samples for its time and collects; a run saved
 * before the record had the fields reads as before.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { bench, suite } from '../packages/core/src/suite.ts';
import { executeJob, type RuntimeEnvironment } from '../packages/core/src/execute.ts';
import type { MeasureOptions } from '../packages/core/src/measure.ts';
import { MEASURER_RECORDS } from '../packages/measurer-records/src/index.ts';
import { SMOKE_SAMPLES, timedMeasureOptions } from '../packages/measurers/src/measurers/measure-options.ts';
import { SAMPLE_FLOOR_MS } from '../packages/core/src/amortize.ts';
import { collectedFields, LOCKSTEP_OWN, lockstepOptions, turnsFor } from '../packages/measurers/src/measurers/lockstep.ts';

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
    expect(collectedFields({ needs: [] })).toEqual({ fields: { smoke: true, smokeSamples: SMOKE_SAMPLES } });
    expect(timedMeasureOptions(watched)).toMatchObject({ amortize: true, sampleFloorMs: SAMPLE_FLOOR_MS, warmupMinMs: 10 });
    expect(collectedFields(watched)).toEqual({});
    // The memory view collects before sampling instead, watched or not.
    expect(timedMeasureOptions({ ...watched, needs: ['settled-memory'] })).toMatchObject({ collectBeforeSampling: true });
    expect(timedMeasureOptions({ ...watched, needs: ['settled-memory'] })).not.toHaveProperty('amortize');
    expect(timedMeasureOptions({ ...watched, needs: ['settled-memory'] })).not.toHaveProperty('sampleFloorMs');
    expect(timedMeasureOptions(setup)).not.toHaveProperty('sampleFloorMs');
    expect(collectedFields({ ...setup, needs: ['settled-memory'] })).toEqual({ fields: { collectBeforeSampling: true, smoke: true } });
  });

  it('takes three samples of a case per process and three turns per set whatever the sampling time; a watched run samples for its time', () => {
    expect(SMOKE_SAMPLES).toBe(3);
    expect(timedMeasureOptions(setup)).toMatchObject({ minSamples: 3, maxSamples: 3 });
    expect(timedMeasureOptions(watched)).toMatchObject({ minSamples: 5, maxSamples: 100_000 });
    // A long operation and a short one: three turns in a smoke set, and a table's 8 or its sampling time's 30 when watched.
    for (const own of [LOCKSTEP_OWN.bench, LOCKSTEP_OWN.compare]) {
      expect([turnsFor(lockstepOptions(setup, own), [{ batchNs: 16e6 }]), turnsFor(lockstepOptions(setup, own), [{ batchNs: 1e6 }])]).toEqual([3, 3]);
    }
    expect([turnsFor(lockstepOptions(watched, LOCKSTEP_OWN.bench), [{ batchNs: 16e6 }]), turnsFor(lockstepOptions(watched, LOCKSTEP_OWN.bench), [{ batchNs: 1e6 }])]).toEqual([8, 30]);
  });

  it('forces no collection between cases; a view that reads what the samples saw keeps them, and the sampling time', () => {
    expect(timedMeasureOptions(setup)).toMatchObject({ noCollections: true });
    expect(timedMeasureOptions(watched)).not.toHaveProperty('noCollections');
    // The memory view's readings after collections, the GC view's counts over the sampling time.
    for (const need of ['settled-memory', 'collection-counts'] as const) {
      expect(timedMeasureOptions({ ...setup, needs: [need] })).not.toHaveProperty('noCollections');
      expect(timedMeasureOptions({ ...setup, needs: [need] })).toMatchObject({ minSamples: 5, maxSamples: 100_000 });
      expect(turnsFor(lockstepOptions({ ...setup, needs: [need] }, LOCKSTEP_OWN.bench), [{ batchNs: 1e6 }])).toBe(30);
      expect(collectedFields({ ...setup, needs: [need] }).fields).not.toHaveProperty('smokeSamples');
    }
  });

  it("a smoke job's warm process collects neither as a case opens nor after its last sample; a case's own gc() still collects", async () => {
    const two = suite('two', () => {
      bench('plain', () => 1);
      // Its first call (the digest's) collects, once a process.
      bench('collects itself', function* (ctx) {
        let collected = false;
        yield () => {
          if (!collected) ctx.collect?.();
          collected = true;
          return 2;
        };
      });
    });
    const served = async (job: MeasureOptions): Promise<string[]> => {
      const log: string[] = [];
      const commands = two.cases().flatMap((c) => [`case ${JSON.stringify(c.id)}`, 'sample', 'finish']);
      const env: RuntimeEnvironment = {
        facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: true },
        clock: { name: 'hrtime', now: () => Number(process.hrtime.bigint()) },
        emit: (m) => void (m.type === 'result' || m.type === 'error' ? log.push(m.type) : undefined),
        commands: async () => commands.shift(),
        collect: () => void log.push('collect'),
      };
      await executeJob(two, { protocol: 1, kind: 'serve', options: job }, env);
      return log;
    };
    const smoke = timedMeasureOptions({ ...setup, warmupMs: 1 });
    expect(await served(smoke)).toEqual(['result', 'collect', 'result']);
    // The same job without the smoke run's field: a collection after each case's last sample, and as each case after the
    // process's first opens (core execute.ts serveCases).
    const { noCollections: _, ...measuring } = smoke;
    expect(await served(measuring)).toEqual(['collect', 'result', 'collect', 'collect', 'collect', 'result']);
  });

  it('says so in how the saved run was measured, for lockstep and fresh processes', () => {
    for (const record of ['lockstep', 'processes'].map((kind) => MEASURER_RECORDS.recorded(kind))) {
      expect(record.describe(options({ smoke: true, smokeSamples: 3 })).rounds).toContain('10 ms fixed warmup (a smoke run: 3 samples a case whatever the sampling time, samples not grown to span collections, figures not measurements)');
      const adaptive = record.describe(options({}, 10)).rounds;
      expect(adaptive).toContain('10 ms–30 ms warmup (adaptive)');
      expect(adaptive).not.toContain('smoke');
      // Saved before runs recorded smoke (or before the adaptive warmup): a plain warmup, as it was said then.
      const older = record.describe(options({})).rounds;
      expect(older).toMatch(/10 ms warmup[; ]/);
      expect(older).not.toContain('smoke');
      // Saved as a smoke run before it took so few samples: as it was said then.
      expect(record.describe(options({ smoke: true })).rounds).toContain('10 ms fixed warmup (a smoke run: samples not grown to span collections, figures not measurements)');
    }
    const lockstep = MEASURER_RECORDS.recorded('lockstep');
    expect(lockstep.describe(options({ smoke: true, smokeSamples: 3 })).rounds).toContain('no process takes a full collection between cases (a smoke run)');
    expect(lockstep.describe(options({ smoke: true })).rounds).toContain("each process takes a full collection after a case's last sample");
    expect(lockstep.describe(options({ smoke: true, smokeSamples: 3, collectBeforeSampling: true })).rounds).toContain("each process takes a full collection before a case's first sample and after its last");
  });
});
