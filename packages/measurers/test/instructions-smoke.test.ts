/**
 * A count run's sizes: a measuring run warms each case for ~20 ms of native
 * time and counts samples of ~10 M instructions; a smoke run (--fixed-warmup:
 * no watched warmup) a tenth of each, recorded in its measurer block and said
 * in its description, so the test suite's runs under valgrind cost less.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import type { MeasurerSetup } from '../src/measurer.ts';
import { countSizes, INSTRUCTIONS } from '../src/measurers/instructions.ts';

const setup = (warmupMinMs?: number): MeasurerSetup => ({
  sampleTimeMs: 5,
  warmupMs: 10,
  ...(warmupMinMs !== undefined ? { warmupMinMs } : {}),
  timeoutMs: 60_000,
  mode: 'bench',
  own: { valgrind: '/usr/bin/valgrind', cacheSim: false, libraryDir: '/tmp/native' },
  engines: [],
  cases: [],
  rounds: 1,
  timeMs: 5,
  programDir: '/tmp/programs',
  suite: { name: 'suite', entry: '/tmp/suite.ts' },
  warn: () => {},
});

const described = (measurerFields: Record<string, unknown>): string => INSTRUCTIONS.record.describe({ measurerFields } as unknown as RunRecord['options']).rounds;

describe('a count run’s sizes', () => {
  it('measuring: 20 ms of native time warmed, a sizing sample of ~4 M instructions, samples of ~10 M', () => {
    expect(countSizes(false)).toEqual({ warmNs: 20e6, sizingInstructions: 4e6, sampleInstructions: 10e6 });
    const built = INSTRUCTIONS.build(setup(20));
    expect(built.fields).toEqual({ cacheSim: false, engineFlags: expect.any(Object) });
    expect(described(built.fields!)).not.toContain('smoke');
  });

  it('a smoke run (a fixed warmup): a tenth of each, recorded as a smoke run and said so', () => {
    expect(countSizes(true)).toEqual({ warmNs: 2e6, sizingInstructions: 4e5, sampleInstructions: 1e6 });
    const built = INSTRUCTIONS.build(setup());
    expect(built.fields).toMatchObject({ smoke: true });
    expect(described(built.fields!)).toMatch(/; a smoke run \(--fixed-warmup\): samples of about a million instructions after a tenth of the warm-up, counts not measurements$/);
  });
});
